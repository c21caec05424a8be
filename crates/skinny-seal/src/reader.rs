//! [`OpenReader`]: opening as an [`io::Read`], one chunk at a time on the
//! calling thread (memory: a chunk of ciphertext and one of plaintext).

use crate::error::OpenError;
use crate::format::{OpenOptions, MAX_CHUNKS};
use crate::open::read_header;
use crate::stanza::Identity;
use crate::stream::Stream;
use skinny_exec::pipeline::read_full;
use std::io::{self, Read};
use zeroize::Zeroizing;

/// Opens a sealed file (v1 or v2) as it is read: [`Read::read`] releases only
/// plaintext of chunks that verified, in order; the first failure is returned
/// as an [`io::Error`] wrapping the [`OpenError`] (kind `InvalidData`; read
/// errors as they are), and again on every later call. End of file is
/// reported only after the last chunk verified as the last.
pub struct OpenReader<R: Read> {
    inner: R,
    stream: Stream,
    cipher: Zeroizing<Vec<u8>>,
    plain: Zeroizing<Vec<u8>>,
    pos: usize,
    index: u64,
    /// The byte read past the current chunk to learn that it is not the last.
    ahead: Option<u8>,
    done: bool,
    failed: Option<String>,
}

impl<R: Read> OpenReader<R> {
    /// Reads and checks the header and finds the file key.
    ///
    /// # Errors
    /// As [`open`](crate::open) before its payload.
    pub fn new(mut inner: R, identities: &[&dyn Identity], options: &OpenOptions) -> Result<Self, OpenError> {
        let stream = read_header(&mut inner, identities, options)?;
        let piece = stream.piece();
        Ok(Self {
            inner,
            stream,
            cipher: Zeroizing::new(Vec::with_capacity(piece + 1)),
            plain: Zeroizing::new(Vec::with_capacity(piece)),
            pos: 0,
            index: 0,
            ahead: None,
            done: false,
            failed: None,
        })
    }

    /// Reads, verifies and decrypts the next chunk into `plain`.
    fn next_chunk(&mut self) -> Result<(), OpenError> {
        let piece = self.stream.piece();
        self.cipher.clear();
        self.cipher.resize(piece, 0);
        let mut have = 0;
        if let Some(b) = self.ahead.take() {
            self.cipher[0] = b;
            have = 1;
        }
        have += read_full(&mut self.inner, &mut self.cipher[have..]).map_err(OpenError::Read)?;
        self.cipher.truncate(have);
        let mut last = have < piece;
        if !last {
            let mut one = [0u8; 1];
            match read_full(&mut self.inner, &mut one).map_err(OpenError::Read)? {
                0 => last = true,
                _ => self.ahead = Some(one[0]),
            }
        }
        if self.index >= MAX_CHUNKS {
            return Err(OpenError::TooLong);
        }
        self.stream.open_checked(self.index, last, &self.cipher, &mut self.plain)?;
        self.index += 1;
        self.pos = 0;
        self.done = last;
        Ok(())
    }
}

impl<R: Read> Read for OpenReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(why) = &self.failed {
            return Err(io::Error::new(io::ErrorKind::InvalidData, why.clone()));
        }
        while self.pos == self.plain.len() {
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            if let Err(e) = self.next_chunk() {
                self.plain.clear();
                self.pos = 0;
                // A stream cut mid-chunk cannot be resumed: every later call fails too.
                self.failed = Some(e.to_string());
                return Err(e.into());
            }
        }
        let n = buf.len().min(self.plain.len() - self.pos);
        buf[..n].copy_from_slice(&self.plain[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}
