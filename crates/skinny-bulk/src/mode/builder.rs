//! Setting up a [`Processor`]: the IV, the padding, the backend and the
//! message's length, checked once before any data is touched.

use super::processor::Processor;
use crate::backend::cpu::default_cpu;
use crate::backend::engine::{Backend, Workload};
use crate::operation::{Direction, Mode, Padding};
use crate::typed::typed;
use crate::Error;
use skinny::counter::Counter;
use skinny::Skinny;

/// Sets up a [`Processor`]; from [`Processor::builder`].
#[derive(Clone, Copy)]
#[must_use]
pub struct ProcessorBuilder<'a> {
    cipher: &'a Skinny,
    mode: Mode,
    dir: Direction,
    iv: Option<&'a [u8]>,
    padding: Option<Padding>,
    backend: Option<&'a dyn Backend>,
    total_bytes: Option<u64>,
}

impl Processor {
    /// Starts setting up `mode` in direction `dir` for `cipher`.
    pub fn builder(cipher: &Skinny, mode: Mode, dir: Direction) -> ProcessorBuilder<'_> {
        ProcessorBuilder { cipher, mode, dir, iv: None, padding: None, backend: None, total_bytes: None }
    }
}

impl<'a> ProcessorBuilder<'a> {
    /// The IV: one block; required by every mode but ECB, refused by ECB.
    pub fn iv(mut self, iv: &'a [u8]) -> Self {
        self.iv = Some(iv);
        self
    }

    /// The padding of ECB and CBC (default: [`Padding::Pkcs7`]). Refused for the
    /// stream modes, which never pad.
    pub fn padding(mut self, padding: Padding) -> Self {
        self.padding = Some(padding);
        self
    }

    /// Who runs the parallel work (default: the `cpu` backend on all cores).
    pub fn backend(mut self, backend: &'a dyn Backend) -> Self {
        self.backend = Some(backend);
        self
    }

    /// The message's total length, when known: lets `auto` decide early
    /// whether a GPU can pay for itself.
    pub fn total_bytes(mut self, total: u64) -> Self {
        self.total_bytes = Some(total);
        self
    }

    /// The processor.
    ///
    /// # Errors
    /// A missing, unwanted or wrong-length IV; padding asked of a stream mode; a
    /// backend that cannot open an engine for this cipher.
    pub fn build(self) -> Result<Processor, Error> {
        let (cipher, mode, dir) = (self.cipher, self.mode, self.dir);
        let block = cipher.block_bytes();
        let iv = match (mode.needs_iv(), self.iv) {
            (true, None) => return Err(Error::IvRequired { mode }),
            (false, Some(_)) => return Err(Error::IvNotAllowed),
            (true, Some(iv)) if iv.len() != block => {
                return Err(Error::IvLength { variant: cipher.variant(), got: iv.len() })
            }
            (_, iv) => iv.unwrap_or(&[]).to_vec(),
        };
        let pad = match (mode.is_block_mode(), self.padding) {
            (true, Some(p)) => p,
            (true, None) => Padding::Pkcs7,
            (false, None) => Padding::None,
            (false, Some(_)) => return Err(Error::PaddingNotApplicable { mode }),
        };
        let typed = typed(cipher);
        let engine = if mode.is_parallel(dir) {
            let work = Workload { total_bytes: self.total_bytes };
            Some(match self.backend {
                Some(b) => b.engine_for(cipher, &work)?,
                None => default_cpu()?.engine_for(cipher, &work)?,
            })
        } else {
            None
        };
        let serial = match (mode, dir) {
            (Mode::Cbc, Direction::Encrypt) => Some(typed.cbc_encryptor(&iv)),
            (Mode::Cfb, Direction::Encrypt) => Some(typed.cfb_encryptor(&iv)),
            (Mode::Ofb, _) => Some(typed.ofb(&iv)),
            _ => None,
        };
        let counter = match mode {
            Mode::Ctr => {
                Some(Counter::from_block(&iv).map_err(|e| Error::IvLength { variant: cipher.variant(), got: e.got })?)
            }
            _ => None,
        };
        Ok(Processor {
            mode,
            dir,
            pad,
            block,
            typed,
            engine,
            serial,
            counter,
            chain: iv,
            pending: Vec::new(),
            total_in: 0,
            ended: false,
        })
    }
}
