//! The five classic modes as a streaming [`Processor`]: feed any amount of input,
//! get output as soon as it is safe to give, with memory bounded by what one call
//! hands in.
//!
//! Conventions (as RustCrypto's mode crates and OpenSSL): CTR's IV is one
//! big-endian integer of a block's width, +1 per block, wrapping modulo 2^n; CFB is
//! full-block CFB; CTR, CFB and OFB take any length; ECB and CBC pad with PKCS#7
//! unless told not to.

use crate::backend::{Backend, Engine};
use crate::typed::{typed, SerialStream, Typed};
use crate::Error;
use cipher::block_padding::{Padding, Pkcs7};
use skinny::counter::counter_add;
use skinny::Skinny;
use std::fmt;
use std::str::FromStr;

/// A mode of operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Electronic codebook: each block on its own. Parallel both ways.
    Ecb,
    /// Counter mode. Parallel both ways.
    Ctr,
    /// Cipher block chaining. Serial encryption, parallel decryption.
    Cbc,
    /// Full-block cipher feedback. Serial encryption, parallel decryption.
    Cfb,
    /// Output feedback. Serial both ways.
    Ofb,
}

impl Mode {
    /// All five.
    pub const ALL: [Mode; 5] = [Mode::Ecb, Mode::Ctr, Mode::Cbc, Mode::Cfb, Mode::Ofb];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "ecb",
            Mode::Ctr => "ctr",
            Mode::Cbc => "cbc",
            Mode::Cfb => "cfb",
            Mode::Ofb => "ofb",
        }
    }

    /// Whether the mode takes an IV.
    pub const fn needs_iv(self) -> bool {
        !matches!(self, Mode::Ecb)
    }

    /// Whether the mode pads (by default) and needs whole blocks.
    pub const fn is_block_mode(self) -> bool {
        matches!(self, Mode::Ecb | Mode::Cbc)
    }

    /// Whether the backend's engine does the work in this direction (the rest is
    /// serial by nature and runs on the CPU).
    pub const fn is_parallel(self, dir: Direction) -> bool {
        match self {
            Mode::Ecb | Mode::Ctr => true,
            Mode::Cbc | Mode::Cfb => matches!(dir, Direction::Decrypt),
            Mode::Ofb => false,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| format!("unknown mode '{s}' (expected ecb, ctr, cbc, cfb or ofb)"))
    }
}

/// Encrypt or decrypt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Plaintext to ciphertext.
    Encrypt,
    /// Ciphertext to plaintext.
    Decrypt,
}

/// A mode running over a stream.
pub struct Processor {
    mode: Mode,
    dir: Direction,
    pad: bool,
    block: usize,
    typed: Box<dyn Typed>,
    engine: Option<Box<dyn Engine>>,
    serial: Option<Box<dyn SerialStream>>,
    /// CTR: the next counter; CBC/CFB decryption: the last ciphertext block.
    chain: Vec<u8>,
    /// Input not processed yet: a partial block, or the block held back for
    /// unpadding.
    pending: Vec<u8>,
    total_in: u64,
}

impl fmt::Debug for Processor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Processor {{ mode: {}, dir: {:?}, pad: {}, .. }}", self.mode, self.dir, self.pad)
    }
}

impl Processor {
    /// Sets up `mode` in direction `dir`. `iv` is required for every mode but ECB
    /// and refused for ECB; `pad` asks for PKCS#7 (ECB and CBC only, ignored by the
    /// stream modes). Parallel work goes to `backend`.
    ///
    /// # Errors
    /// Missing, unwanted or wrong-length IV; a backend that cannot open an engine.
    pub fn new(
        cipher: &Skinny,
        mode: Mode,
        dir: Direction,
        iv: Option<&[u8]>,
        pad: bool,
        backend: &dyn Backend,
    ) -> Result<Self, Error> {
        let block = cipher.block_bytes();
        let iv = match (mode.needs_iv(), iv) {
            (true, None) => return Err(Error::IvRequired { mode: mode.name() }),
            (false, Some(_)) => return Err(Error::IvNotAllowed),
            (true, Some(iv)) if iv.len() != block => {
                return Err(Error::IvLength { variant: cipher.variant(), got: iv.len() })
            }
            (_, iv) => iv.unwrap_or(&[]).to_vec(),
        };
        let typed = typed(cipher);
        let engine = if mode.is_parallel(dir) { Some(backend.engine(cipher)?) } else { None };
        let serial = match (mode, dir) {
            (Mode::Cbc, Direction::Encrypt) => Some(typed.cbc_encryptor(&iv)),
            (Mode::Cfb, Direction::Encrypt) => Some(typed.cfb_encryptor(&iv)),
            (Mode::Ofb, _) => Some(typed.ofb(&iv)),
            _ => None,
        };
        Ok(Self {
            mode,
            dir,
            pad: pad && mode.is_block_mode(),
            block,
            typed,
            engine,
            serial,
            chain: iv,
            pending: Vec::new(),
            total_in: 0,
        })
    }

    /// The block size in bytes.
    pub fn block_bytes(&self) -> usize {
        self.block
    }

    /// Takes more input and appends to `out` all the output that can be given yet.
    ///
    /// # Errors
    /// When the backend fails.
    pub fn update(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.total_in += input.len() as u64;
        let have = self.pending.len() + input.len();
        let mut keep = have % self.block;
        if keep == 0 && have > 0 && self.pad && self.dir == Direction::Decrypt {
            // The last block carries the padding: hold it back until finish().
            keep = self.block;
        }
        let take = have - keep;
        if take == 0 {
            self.pending.extend_from_slice(input);
            return Ok(());
        }
        let start = out.len();
        out.extend_from_slice(&self.pending);
        let from_input = take - self.pending.len();
        out.extend_from_slice(&input[..from_input]);
        self.pending.clear();
        self.pending.extend_from_slice(&input[from_input..]);
        self.process_blocks(&mut out[start..])
    }

    /// Ends the stream: processes what is left, adds or checks padding.
    ///
    /// # Errors
    /// Input not whole blocks where required, bad padding, a backend failure.
    pub fn finish(mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        let mut tail = std::mem::take(&mut self.pending);
        match (self.mode.is_block_mode(), self.dir, self.pad) {
            (false, _, _) => {
                let start = out.len();
                out.extend_from_slice(&tail);
                self.process_tail(&mut out[start..])?;
            }
            (true, Direction::Encrypt, true) => {
                let n = self.block - tail.len();
                tail.resize(self.block, n as u8);
                let start = out.len();
                out.extend_from_slice(&tail);
                self.process_blocks(&mut out[start..])?;
            }
            (true, Direction::Decrypt, true) => {
                if tail.len() != self.block {
                    return Err(if self.total_in % self.block as u64 != 0 {
                        Error::NotWholeBlocks { block: self.block, len: self.total_in }
                    } else {
                        Error::BadPadding
                    });
                }
                self.process_blocks(&mut tail)?;
                let plain = Pkcs7::raw_unpad(&tail).map_err(|_| Error::BadPadding)?;
                out.extend_from_slice(plain);
            }
            (true, _, false) => {
                if !tail.is_empty() {
                    return Err(Error::NotWholeBlocks { block: self.block, len: self.total_in });
                }
            }
        }
        Ok(())
    }

    /// Processes whole blocks in place, keeping the chaining value.
    fn process_blocks(&mut self, data: &mut [u8]) -> Result<(), Error> {
        debug_assert_eq!(data.len() % self.block, 0);
        if data.is_empty() {
            return Ok(());
        }
        let last_in = data[data.len() - self.block..].to_vec();
        if let Some(serial) = self.serial.as_mut() {
            serial.apply(data);
            return Ok(());
        }
        let engine = self.engine.as_mut().expect("parallel modes have an engine");
        match (self.mode, self.dir) {
            (Mode::Ecb, dir) => engine.ecb(dir, data)?,
            (Mode::Ctr, _) => {
                engine.ctr(&self.chain, data)?;
                counter_add(&mut self.chain, (data.len() / self.block) as u64);
            }
            (Mode::Cbc, Direction::Decrypt) => {
                engine.cbc_decrypt(&self.chain, data)?;
                self.chain = last_in;
            }
            (Mode::Cfb, Direction::Decrypt) => {
                engine.cfb_decrypt(&self.chain, data)?;
                self.chain = last_in;
            }
            _ => unreachable!("serial modes are handled above"),
        }
        Ok(())
    }

    /// The stream modes' final piece, shorter than a block.
    fn process_tail(&mut self, tail: &mut [u8]) -> Result<(), Error> {
        if tail.is_empty() {
            return Ok(());
        }
        if let Some(serial) = self.serial.as_mut() {
            serial.apply(tail);
            return Ok(());
        }
        match self.mode {
            Mode::Ctr => self.engine.as_mut().expect("ctr has an engine").ctr(&self.chain, tail)?,
            Mode::Cfb => self.typed.cfb_decryptor(&self.chain).apply(tail),
            _ => unreachable!("only stream modes end in a partial block"),
        }
        Ok(())
    }
}
