//! Random access: [`SeekableOpener`] (Read + Seek over the plaintext of a
//! sealed file in a seekable input) and [`open_range`].
//!
//! A chunk is found by arithmetic (chunk `i` starts at `header + i x (chunk
//! size + tag)`), so a read reads and verifies only the chunks it covers. The
//! plaintext's length comes from the input's length, and is trusted only
//! after the last chunk verified as the last (done when the opener is made):
//! a file cut at a chunk boundary, or with data appended, is refused there.

use crate::error::OpenError;
use crate::format::{OpenOptions, MAX_CHUNKS};
use crate::open::read_header;
use crate::stanza::Identity;
use crate::stream::Stream;
use std::io::{self, Read, Seek, SeekFrom, Write};
use zeroize::Zeroizing;

/// Read + Seek over the plaintext of a sealed file (v1 or v2): each read
/// reads and verifies only the chunks it needs, one at a time (memory: one
/// chunk of ciphertext and one of plaintext), and releases only verified
/// bytes. [`SeekableOpener::chunks_read`] counts the chunks read and verified.
pub struct SeekableOpener<R: Read + Seek> {
    inner: R,
    stream: Stream,
    chunks: u64,
    last_piece: usize,
    len: u64,
    pos: u64,
    cached: Option<u64>,
    cipher: Zeroizing<Vec<u8>>,
    plain: Zeroizing<Vec<u8>>,
    chunks_read: u64,
}

impl<R: Read + Seek> SeekableOpener<R> {
    /// Reads the header from the input's start, finds the file key, and
    /// verifies the last chunk (which fixes the plaintext's length).
    ///
    /// # Errors
    /// As [`open`](crate::open) for the header; [`OpenError::TruncatedInside`],
    /// [`OpenError::Truncated`], [`OpenError::TrailingData`] for an input
    /// whose length or last chunk is wrong.
    pub fn new(mut inner: R, identities: &[&dyn Identity], options: &OpenOptions) -> Result<Self, OpenError> {
        inner.seek(SeekFrom::Start(0)).map_err(OpenError::Read)?;
        let stream = read_header(&mut inner, identities, options)?;
        let end = inner.seek(SeekFrom::End(0)).map_err(OpenError::Read)?;
        let payload = end.checked_sub(stream.data_start).ok_or(OpenError::TruncatedInside)?;
        let piece = stream.piece() as u64;
        let tag = stream.scheme.tag_len() as u64;
        let chunks = payload.div_ceil(piece).max(1);
        // At most a piece: it fits a usize.
        let last_piece = payload - (chunks - 1) * piece;
        if stream.cut(last_piece as usize) {
            // Fewer bytes than a tag after the whole chunks: cut inside a chunk.
            return Err(OpenError::TruncatedInside);
        }
        if chunks > MAX_CHUNKS {
            return Err(OpenError::TooLong);
        }
        let len = (chunks - 1) * stream.chunk_size() as u64 + (last_piece - tag);
        let cap = stream.piece();
        let mut s = Self {
            inner,
            stream,
            chunks,
            last_piece: last_piece as usize,
            len,
            pos: 0,
            cached: None,
            cipher: Zeroizing::new(Vec::with_capacity(cap)),
            plain: Zeroizing::new(Vec::with_capacity(cap)),
            chunks_read: 0,
        };
        s.load(chunks - 1)?;
        Ok(s)
    }

    /// The plaintext's length in bytes.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Chunks read and verified so far (the last chunk, when the opener was
    /// made, is the first).
    pub fn chunks_read(&self) -> u64 {
        self.chunks_read
    }

    /// Reads and verifies chunk `index` into `plain` (kept until another is needed).
    fn load(&mut self, index: u64) -> Result<(), OpenError> {
        if self.cached == Some(index) {
            return Ok(());
        }
        self.cached = None;
        let piece = self.stream.piece();
        let last = index + 1 == self.chunks;
        let size = if last { self.last_piece } else { piece };
        self.inner.seek(SeekFrom::Start(self.stream.data_start + index * piece as u64)).map_err(OpenError::Read)?;
        self.cipher.clear();
        self.cipher.resize(size, 0);
        self.inner.read_exact(&mut self.cipher).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => OpenError::TruncatedInside,
            _ => OpenError::Read(e),
        })?;
        self.chunks_read += 1;
        self.stream.open_checked(index, last, &self.cipher, &mut self.plain)?;
        self.cached = Some(index);
        Ok(())
    }

    /// Reads plaintext at the current position into `buf`: bytes read.
    fn read_plain(&mut self, buf: &mut [u8]) -> Result<usize, OpenError> {
        if self.pos >= self.len || buf.is_empty() {
            return Ok(0);
        }
        let cs = self.stream.chunk_size() as u64;
        let index = self.pos / cs;
        self.load(index)?;
        let at = (self.pos - index * cs) as usize;
        let n = buf.len().min(self.plain.len() - at);
        buf[..n].copy_from_slice(&self.plain[at..at + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Read for SeekableOpener<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read_plain(buf).map_err(Into::into)
    }
}

impl<R: Read + Seek> Seek for SeekableOpener<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        let target =
            target.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the plaintext's start"))?;
        self.pos = target;
        Ok(target)
    }
}

/// Opens `length` plaintext bytes from `offset` of the sealed file in `input`
/// into `output`, reading and verifying only the chunks they lie in (and the
/// last chunk, which fixes the length): the bytes written.
///
/// # Errors
/// As [`SeekableOpener::new`]; [`OpenError::OutOfRange`] when the range
/// passes the plaintext's end (nothing written); a chunk that does not verify
/// (what verified before it is written); [`OpenError::Write`].
pub fn open_range<R: Read + Seek, W: Write>(
    input: R,
    mut output: W,
    offset: u64,
    length: u64,
    identities: &[&dyn Identity],
    options: &OpenOptions,
) -> Result<u64, OpenError> {
    let mut opener = SeekableOpener::new(input, identities, options)?;
    let len = opener.len();
    if offset.checked_add(length).is_none_or(|end| end > len) {
        return Err(OpenError::OutOfRange { len });
    }
    opener.pos = offset;
    let mut left = length;
    let mut buf = Zeroizing::new(vec![0u8; 64 << 10]);
    while left > 0 {
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = opener.read_plain(&mut buf[..want])?;
        if n == 0 {
            break;
        }
        output.write_all(&buf[..n]).map_err(OpenError::Write)?;
        left -= n as u64;
    }
    Ok(length - left)
}
