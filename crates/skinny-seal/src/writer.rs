//! [`SealWriter`]: sealing as an [`io::Write`], one chunk at a time on the
//! calling thread (memory: one chunk).

use crate::error::SealError;
use crate::file_key::FileKey;
use crate::format::{SealOptions, MAX_CHUNKS, MAX_STANZAS, SALT_LEN};
use crate::header::header_start;
use crate::seal::{check_options, flags, prepare};
use crate::stanza::{Recipient, Stanza};
use crate::stream::Stream;
use std::io::{self, Write};
use zeroize::{Zeroize, Zeroizing};

/// Seals what is written to it into `W`, chunk by chunk: the header at once,
/// each full chunk when the next byte arrives (so the last chunk is never an
/// empty one after full ones), the last at [`SealWriter::finish`].
///
/// Dropping it without `finish` leaves an incomplete file that never opens
/// (its last chunk is missing). `options.input_len` is not enforced here.
pub struct SealWriter<W: Write> {
    inner: W,
    stream: Stream,
    buf: Zeroizing<Vec<u8>>,
    index: u64,
}

impl<W: Write> SealWriter<W> {
    /// Starts a file for `recipients` in `inner` (writes the header).
    ///
    /// # Errors
    /// As [`seal`](crate::seal) before its payload.
    pub fn new(inner: W, recipients: &[&dyn Recipient], options: &SealOptions) -> Result<Self, SealError> {
        check_options(options)?;
        if recipients.is_empty() {
            return Err(SealError::NoRecipients);
        }
        if recipients.len() > MAX_STANZAS {
            return Err(SealError::TooManyRecipients);
        }
        if recipients.len() > 1 && recipients.iter().any(|r| r.must_be_alone()) {
            return Err(SealError::PassphraseNotAlone);
        }
        let file_key = FileKey::random().map_err(SealError::Random)?;
        let mut salt = [0u8; SALT_LEN];
        getrandom::fill(&mut salt).map_err(SealError::Random)?;
        let start = header_start(options.scheme, options.chunk_log2, flags(options), &salt);
        let stanzas = recipients.iter().map(|r| r.wrap(&file_key, &start)).collect::<Result<Vec<_>, _>>()?;
        Self::with_stanzas(inner, stanzas, &file_key, salt, options)
    }

    /// As [`SealWriter::new`] with the stanzas, file key and salt given (hazmat).
    pub(crate) fn with_stanzas(
        mut inner: W,
        stanzas: Vec<Stanza>,
        file_key: &FileKey,
        salt: [u8; SALT_LEN],
        options: &SealOptions,
    ) -> Result<Self, SealError> {
        let (header, stream) = prepare(stanzas, file_key, salt, options)?;
        inner.write_all(&header.to_bytes()).map_err(SealError::Write)?;
        let buf = Zeroizing::new(Vec::with_capacity(stream.piece()));
        Ok(Self { inner, stream, buf, index: 0 })
    }

    /// Seals and writes the buffered chunk (`last`: the file's last).
    fn emit(&mut self, last: bool) -> io::Result<()> {
        if self.index >= MAX_CHUNKS {
            return Err(io::Error::other(SealError::TooLong));
        }
        self.stream.seal_chunk(self.index, last, &mut self.buf);
        self.inner.write_all(&self.buf)?;
        self.buf.zeroize();
        self.buf.clear();
        self.index += 1;
        Ok(())
    }

    /// Writes the last chunk and flushes; returns the inner writer.
    ///
    /// # Errors
    /// A write error, or more than 2^32 chunks.
    pub fn finish(mut self) -> Result<W, SealError> {
        self.emit(true).map_err(|e| match e.downcast::<SealError>() {
            Ok(e) => e,
            Err(e) => SealError::Write(e),
        })?;
        self.inner.flush().map_err(SealError::Write)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for SealWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if data.is_empty() {
            return Ok(0);
        }
        let cs = self.stream.chunk_size();
        if self.buf.len() == cs {
            // More is coming, so the full chunk held is not the last.
            self.emit(false)?;
        }
        let n = data.len().min(cs - self.buf.len());
        self.buf.extend_from_slice(&data[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
