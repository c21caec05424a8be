//! A mode running over a message, streaming or in place.

use crate::backend::engine::{BlockEngine, CPU_CHUNK_BYTES};
use crate::operation::{Direction, Mode, Padding};
use crate::typed::{SerialStream, Typed};
use crate::Error;
use skinny::counter::Counter;
use std::fmt;

/// A mode running over a message: streaming ([`Processor::update`] /
/// [`Processor::finish`]), in place ([`Processor::apply_in_place`] /
/// [`Processor::finish_in_place`]), or through the I/O adapters of
/// [`crate::stream`].
///
/// ```
/// use skinny::{Skinny, Variant};
/// use skinny_bulk::mode::{Direction, Mode, Processor};
///
/// let cipher = Skinny::new(Variant::Skinny128_256, &[1u8; 32]).unwrap();
/// let iv = [0u8; 16];
/// let mut buf = b"hello, world".to_vec();
/// Processor::builder(&cipher, Mode::Cbc, Direction::Encrypt).iv(&iv).build().unwrap().finish_in_place(&mut buf).unwrap();
/// assert_eq!(buf.len(), 16);
/// Processor::builder(&cipher, Mode::Cbc, Direction::Decrypt).iv(&iv).build().unwrap().finish_in_place(&mut buf).unwrap();
/// assert_eq!(buf, b"hello, world");
/// ```
pub struct Processor {
    pub(super) mode: Mode,
    pub(super) dir: Direction,
    /// [`Padding::None`] for the stream modes, which never pad.
    pub(super) pad: Padding,
    pub(super) block: usize,
    pub(super) typed: Box<dyn Typed>,
    pub(super) engine: Option<Box<dyn BlockEngine>>,
    pub(super) serial: Option<Box<dyn SerialStream>>,
    /// CTR: the counter of the next block.
    pub(super) counter: Option<Counter>,
    /// CBC/CFB decryption: the last ciphertext block.
    pub(super) chain: Vec<u8>,
    /// Input not processed yet: a partial block, or the block held back for
    /// unpadding.
    pub(super) pending: Vec<u8>,
    pub(super) total_in: u64,
    /// A partial block was processed: the stream is over.
    pub(super) ended: bool,
}

impl fmt::Debug for Processor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Processor {{ mode: {}, dir: {:?}, pad: {:?}, .. }}", self.mode, self.dir, self.pad)
    }
}

impl Processor {
    /// The block size in bytes.
    pub fn block_bytes(&self) -> usize {
        self.block
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The direction.
    pub fn direction(&self) -> Direction {
        self.dir
    }

    /// Whether PKCS#7 padding is added (encryption) or removed (decryption).
    pub fn pads(&self) -> bool {
        self.pad == Padding::Pkcs7
    }

    /// Bytes per call that keep the backend at its speed (whole blocks): what the
    /// stream adapters read at a time.
    pub fn preferred_chunk(&self) -> usize {
        let chunk = self.engine.as_ref().map_or(CPU_CHUNK_BYTES, |e| e.preferred_chunk());
        (chunk / self.block).max(1) * self.block
    }

    /// The engine that ran the parallel work, for reports (`None` for the serial
    /// modes).
    pub fn engine_name(&self) -> Option<&'static str> {
        self.engine.as_ref().map(|e| e.name())
    }

    /// What the engine did so far, in one line ([`BlockEngine::report`]); `None` for
    /// the serial modes.
    pub fn engine_report(&self) -> Option<String> {
        self.engine.as_ref().map(|e| e.report())
    }

    /// Takes more input and appends to `out` all the output that can be given yet.
    ///
    /// # Errors
    /// When the backend fails, or after a partial block ended the stream.
    pub fn update(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        if self.ended && !input.is_empty() {
            return Err(Error::PartialBlockNotLast);
        }
        self.total_in += input.len() as u64;
        let have = self.pending.len() + input.len();
        let mut keep = have % self.block;
        if keep == 0 && have > 0 && self.pad == Padding::Pkcs7 && self.dir == Direction::Decrypt {
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
        // The input held back so far is the whole rest: end it in place.
        let mut rest = Vec::new();
        let result = self.end_in_place(&mut rest);
        out.extend_from_slice(&rest);
        result
    }

    /// Processes `data` in place as the next part of the message, with nothing
    /// held back: whole blocks, except that the last part of a CTR, CFB or OFB
    /// message may end in a partial block. Padding is not touched: end a padded
    /// message with [`Processor::finish_in_place`].
    ///
    /// # Errors
    /// Data that is not whole blocks where it must be, input after a partial
    /// block or after [`Processor::update`] left input pending, a backend failure.
    pub fn apply_in_place(&mut self, data: &mut [u8]) -> Result<(), Error> {
        if data.is_empty() {
            return Ok(());
        }
        if self.ended || !self.pending.is_empty() {
            return Err(Error::PartialBlockNotLast);
        }
        self.total_in += data.len() as u64;
        let whole = data.len() / self.block * self.block;
        if whole < data.len() && self.mode.is_block_mode() {
            return Err(Error::NotWholeBlocks { block: self.block, len: self.total_in });
        }
        let (blocks, tail) = data.split_at_mut(whole);
        self.process_blocks(blocks)?;
        if !tail.is_empty() {
            self.ended = true;
            self.process_tail(tail)?;
        }
        Ok(())
    }

    /// Processes `buf` in place as the rest of the message and ends it: adds
    /// PKCS#7 padding before encrypting (`buf` grows by up to one block) or
    /// checks and strips it after decrypting (`buf` shrinks), where the mode
    /// pads. With a fresh processor this encrypts or decrypts a whole message in
    /// place.
    ///
    /// # Errors
    /// Input that is not whole blocks where it must be, bad padding, a backend
    /// failure. On error `buf` holds no plaintext that failed its padding check
    /// in its last block.
    pub fn finish_in_place(mut self, buf: &mut Vec<u8>) -> Result<(), Error> {
        self.end_in_place(buf)
    }

    /// [`Processor::finish_in_place`] keeping the processor for its report;
    /// further input is refused.
    pub(crate) fn end_in_place(&mut self, buf: &mut Vec<u8>) -> Result<(), Error> {
        if !self.pending.is_empty() {
            // Input left by update(): it comes first.
            let mut all = std::mem::take(&mut self.pending);
            self.total_in -= all.len() as u64;
            all.extend_from_slice(buf);
            *buf = all;
        }
        match (self.mode.is_block_mode(), self.dir, self.pad) {
            (false, _, _) => self.apply_in_place(buf),
            (true, Direction::Encrypt, Padding::Pkcs7) => {
                let n = self.block - buf.len() % self.block;
                buf.resize(buf.len() + n, n as u8);
                self.apply_in_place(buf)
            }
            (true, Direction::Decrypt, Padding::Pkcs7) => {
                let total = self.total_in + buf.len() as u64;
                if !total.is_multiple_of(self.block as u64) {
                    return Err(Error::NotWholeBlocks { block: self.block, len: total });
                }
                if total == 0 {
                    return Err(Error::BadPadding);
                }
                self.apply_in_place(buf)?;
                if buf.is_empty() {
                    // The padded block went out already through apply_in_place.
                    return Err(Error::BadPadding);
                }
                let last = buf.len() - self.block;
                // Constant time: the last block is secret plaintext.
                match super::pkcs7::unpadded_len(&buf[last..]) {
                    Some(kept) => {
                        buf.truncate(last + kept);
                        Ok(())
                    }
                    None => {
                        // Never release a last block that failed its check.
                        zeroize::Zeroize::zeroize(&mut buf[last..]);
                        buf.truncate(last);
                        Err(Error::BadPadding)
                    }
                }
            }
            (true, _, Padding::None) => self.apply_in_place(buf),
        }
    }

    /// Processes whole blocks in place, keeping the chaining value.
    fn process_blocks(&mut self, data: &mut [u8]) -> Result<(), Error> {
        debug_assert_eq!(data.len() % self.block, 0);
        if data.is_empty() {
            return Ok(());
        }
        if let Some(serial) = self.serial.as_mut() {
            serial.apply(data);
            return Ok(());
        }
        let last_in = data[data.len() - self.block..].to_vec();
        let engine = self.engine.as_mut().ok_or(Error::NotParallel { mode: self.mode, dir: self.dir })?;
        match (self.mode, self.dir, self.counter.as_mut()) {
            (Mode::Ecb, dir, _) => engine.ecb(dir, data)?,
            (Mode::Ctr, _, Some(counter)) => {
                engine.ctr(*counter, data)?;
                counter.advance((data.len() / self.block) as u64);
            }
            (Mode::Cbc, Direction::Decrypt, _) => {
                engine.cbc_decrypt(&self.chain, data)?;
                self.chain = last_in;
            }
            (Mode::Cfb, Direction::Decrypt, _) => {
                engine.cfb_decrypt(&self.chain, data)?;
                self.chain = last_in;
            }
            (mode, dir, _) => return Err(Error::NotParallel { mode, dir }),
        }
        Ok(())
    }

    /// The stream modes' final piece, shorter than a block.
    fn process_tail(&mut self, tail: &mut [u8]) -> Result<(), Error> {
        if let Some(serial) = self.serial.as_mut() {
            serial.apply(tail);
            return Ok(());
        }
        match (self.mode, self.counter, self.engine.as_mut()) {
            (Mode::Ctr, Some(counter), Some(engine)) => engine.ctr(counter, tail)?,
            (Mode::Cfb, _, _) => self.typed.cfb_decryptor(&self.chain).apply(tail),
            _ => return Err(Error::NotWholeBlocks { block: self.block, len: self.total_in }),
        }
        Ok(())
    }
}
