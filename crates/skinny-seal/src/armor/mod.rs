//! ASCII armor: a sealed file as text that survives e-mail and copy-paste.
//!
//! ```text
//! -----BEGIN SKINNY SEALED FILE-----
//! base64 (RFC 4648, standard alphabet, '=' padding), 64 characters a line
//! ...
//! the last line: 4 to 64 characters, padded
//! -----END SKINNY SEALED FILE-----
//! ```
//!
//! Every line ends with `\n`. Decoding is strict, so an armored file has one
//! form: the BEGIN line exactly as the first line, every data line but the
//! last exactly 64 characters, the last 4 to 64 (a multiple of 4), `=` only
//! as the last line's padding, the padding's unused bits zero, the END line
//! exactly, then nothing (the END line's `\n` may be missing). Anything else
//! is refused in one line that says where, as an [`io::Error`] of kind
//! `InvalidData`. Both directions stream: [`ArmoredWriter`] holds one line
//! and a small batch of output, [`ArmoredReader`] one line's bytes and a read
//! buffer. The armor adds no secrecy and no integrity of its own: the sealed
//! file inside authenticates itself.

use std::io::{self, Read, Write};

/// The first line of an armored file (its `\n` follows).
pub const BEGIN: &str = "-----BEGIN SKINNY SEALED FILE-----";
/// The last line of an armored file.
pub const END: &str = "-----END SKINNY SEALED FILE-----";
/// Base64 characters on every data line but the last.
pub const LINE_CHARS: usize = 64;
/// Bytes a full data line holds.
const LINE_BYTES: usize = LINE_CHARS / 4 * 3;
/// Output gathered before it is written on (whole lines).
const BATCH: usize = 64 * (LINE_CHARS + 1) * 16;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The value of base64 character `c`, if it is one (the text is a sealed
/// file's, not a secret: a table is fine).
fn value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// `bytes` (at most a line's) as base64 with padding, appended to `out`.
fn encode_into(bytes: &[u8], out: &mut Vec<u8>) {
    for group in bytes.chunks(3) {
        let b = [group[0], *group.get(1).unwrap_or(&0), *group.get(2).unwrap_or(&0)];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        let chars = [(n >> 18) & 63, (n >> 12) & 63, (n >> 6) & 63, n & 63].map(|i| ALPHABET[i as usize]);
        let keep = group.len() + 1;
        out.extend_from_slice(&chars[..keep]);
        out.extend(std::iter::repeat_n(b'=', 4 - keep));
    }
}

/// Writes a sealed file (or any bytes) as armor into `W`: the BEGIN line on
/// the first write (or at [`ArmoredWriter::finish`]), a data line every 48
/// bytes, the last line and the END line at `finish`. Dropped without
/// `finish`, the armor has no END line and never decodes.
pub struct ArmoredWriter<W: Write> {
    inner: W,
    line: [u8; LINE_BYTES],
    held: usize,
    out: Vec<u8>,
    started: bool,
}

impl<W: Write> ArmoredWriter<W> {
    /// Armor into `inner` (nothing is written yet).
    pub fn new(inner: W) -> Self {
        Self { inner, line: [0; LINE_BYTES], held: 0, out: Vec::with_capacity(BATCH + 2 * LINE_CHARS), started: false }
    }

    fn start(&mut self) {
        if !self.started {
            self.out.extend_from_slice(BEGIN.as_bytes());
            self.out.push(b'\n');
            self.started = true;
        }
    }

    fn drain(&mut self) -> io::Result<()> {
        self.inner.write_all(&self.out)?;
        self.out.clear();
        Ok(())
    }

    /// Writes the last data line and the END line, flushes, and returns the
    /// inner writer.
    ///
    /// # Errors
    /// The inner writer's.
    pub fn finish(mut self) -> io::Result<W> {
        self.start();
        if self.held > 0 {
            encode_into(&self.line[..self.held], &mut self.out);
            self.out.push(b'\n');
        }
        self.out.extend_from_slice(END.as_bytes());
        self.out.push(b'\n');
        self.drain()?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for ArmoredWriter<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.start();
        let mut taken = 0;
        while taken < data.len() {
            let n = (LINE_BYTES - self.held).min(data.len() - taken);
            self.line[self.held..self.held + n].copy_from_slice(&data[taken..taken + n]);
            self.held += n;
            taken += n;
            // A full line is written as soon as it is full: the last line may
            // then be a full one, and `finish` adds only the END line.
            if self.held == LINE_BYTES {
                let line = self.line;
                encode_into(&line, &mut self.out);
                self.out.push(b'\n');
                self.held = 0;
                if self.out.len() >= BATCH {
                    self.drain()?;
                }
            }
        }
        Ok(taken)
    }

    /// Writes the whole lines gathered so far (the partial line waits for
    /// more bytes or `finish`).
    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        self.inner.flush()
    }
}

/// Where an [`ArmoredReader`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Nothing read yet.
    Detect,
    /// Not armored: the bytes pass through.
    Binary,
    /// Inside the armor, `line` lines read (the BEGIN line is line 1).
    Armored { line: usize, must_end: bool },
    /// The END line and the input's end were read.
    Done,
}

/// Reads a sealed file that may be armored: if the input starts with the
/// BEGIN line, it yields the decoded bytes (every rule of the module checked
/// as the lines arrive, and the END line and the input's end before it reports
/// its own end); otherwise the input's bytes unchanged. The first failure is
/// returned again on every later call.
pub struct ArmoredReader<R: Read> {
    inner: R,
    mode: Mode,
    /// Bytes read from `inner` and not yet used: `buf[start..end]`.
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// Decoded bytes of the current line: `decoded[pos..len]`.
    decoded: [u8; LINE_BYTES],
    pos: usize,
    len: usize,
    failed: Option<String>,
}

impl<R: Read> ArmoredReader<R> {
    /// Reads `inner`, armored or not (decided at the first read).
    pub fn new(inner: R) -> Self {
        Self {
            inner,
            mode: Mode::Detect,
            buf: vec![0; 64 * 1024].into_boxed_slice(),
            start: 0,
            end: 0,
            decoded: [0; LINE_BYTES],
            pos: 0,
            len: 0,
            failed: None,
        }
    }

    /// Whether the input is armored (reads its first bytes if not done yet).
    ///
    /// # Errors
    /// Reading the input failed, or it starts as armor of another kind.
    pub fn is_armored(&mut self) -> io::Result<bool> {
        self.detect()?;
        Ok(!matches!(self.mode, Mode::Binary))
    }

    /// Refills `buf` when it is used up; `false` at the input's end.
    fn fill(&mut self) -> io::Result<bool> {
        if self.start < self.end {
            return Ok(true);
        }
        self.start = 0;
        self.end = 0;
        loop {
            match self.inner.read(&mut self.buf) {
                Ok(n) => {
                    self.end = n;
                    return Ok(n > 0);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn detect(&mut self) -> io::Result<()> {
        if self.mode != Mode::Detect {
            return Ok(());
        }
        let want = BEGIN.len() + 1;
        while self.end < want {
            match self.inner.read(&mut self.buf[self.end..want]) {
                Ok(0) => break,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        let head = &self.buf[..self.end];
        if head.len() == want && head.starts_with(BEGIN.as_bytes()) && head[want - 1] == b'\n' {
            self.start = want;
            self.mode = Mode::Armored { line: 1, must_end: false };
        } else if head.starts_with(b"-----BEGIN") {
            return Err(invalid(format!("the armor's first line is not '{BEGIN}'")));
        } else {
            self.mode = Mode::Binary;
        }
        Ok(())
    }

    /// The next line's bytes (without its `\n`) into `line`: its length and
    /// whether a `\n` ended it. More than `line` holds is an error.
    fn read_line(&mut self, line: &mut [u8; LINE_CHARS], number: usize) -> io::Result<(usize, bool)> {
        let mut n = 0;
        while self.fill()? {
            let avail = &self.buf[self.start..self.end];
            match avail.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    if n + i > LINE_CHARS {
                        return Err(too_long(number));
                    }
                    line[n..n + i].copy_from_slice(&avail[..i]);
                    self.start += i + 1;
                    return Ok((n + i, true));
                }
                None => {
                    if n + avail.len() > LINE_CHARS {
                        return Err(too_long(number));
                    }
                    line[n..n + avail.len()].copy_from_slice(avail);
                    n += avail.len();
                    self.start = self.end;
                }
            }
        }
        Ok((n, false))
    }

    /// Reads and checks the next armor line; decoded bytes go to `decoded`.
    fn next_line(&mut self, number: usize, must_end: bool) -> io::Result<()> {
        let mut line = [0u8; LINE_CHARS];
        let (n, newline) = self.read_line(&mut line, number)?;
        let text = &line[..n];
        if text == END.as_bytes() {
            if self.fill()? {
                return Err(invalid(format!("line {number}: data after the END line")));
            }
            self.mode = Mode::Done;
            return Ok(());
        }
        if n == 0 && !newline {
            return Err(invalid(format!("line {number}: the armor ends without its END line")));
        }
        if must_end {
            return Err(invalid(format!(
                "line {number}: a data line after the last one (only the last line is short or padded)"
            )));
        }
        if !newline {
            return Err(invalid(format!("line {number}: the armor ends inside a line, without its END line")));
        }
        if n == 0 || n % 4 != 0 {
            return Err(invalid(format!(
                "line {number}: {n} characters; a data line holds a multiple of 4, 64 on every line but the last"
            )));
        }
        let (len, padded) =
            decode_line(text, &mut self.decoded).map_err(|why| invalid(format!("line {number}: {why}")))?;
        self.pos = 0;
        self.len = len;
        self.mode = Mode::Armored { line: number, must_end: padded || n < LINE_CHARS };
        Ok(())
    }

    fn read_armored(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.pos < self.len {
                let n = out.len().min(self.len - self.pos);
                out[..n].copy_from_slice(&self.decoded[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            match self.mode {
                Mode::Armored { line, must_end } => self.next_line(line + 1, must_end)?,
                _ => return Ok(0),
            }
        }
    }
}

impl<R: Read> Read for ArmoredReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if let Some(why) = &self.failed {
            return Err(io::Error::new(io::ErrorKind::InvalidData, why.clone()));
        }
        if out.is_empty() {
            return Ok(0);
        }
        let result = self.detect().and_then(|()| match self.mode {
            Mode::Binary if self.start < self.end => {
                let n = out.len().min(self.end - self.start);
                out[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
                self.start += n;
                Ok(n)
            }
            Mode::Binary => self.inner.read(out),
            _ => self.read_armored(out),
        });
        if let Err(e) = &result {
            if e.kind() == io::ErrorKind::InvalidData {
                self.failed = Some(e.to_string());
            }
        }
        result
    }
}

/// An armor error (the sealed file's own checks say the rest).
fn invalid(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("armor: {why}"))
}

fn too_long(number: usize) -> io::Error {
    invalid(format!("line {number} is longer than {LINE_CHARS} characters"))
}

/// Decodes one data line (a multiple of 4 characters, at most 64) into `out`:
/// the bytes and whether it was padded, or why not.
fn decode_line(text: &[u8], out: &mut [u8; LINE_BYTES]) -> Result<(usize, bool), &'static str> {
    let mut len = 0;
    let groups = text.len() / 4;
    for (g, quad) in text.chunks_exact(4).enumerate() {
        let pads = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if pads > 2 || (pads > 0 && g + 1 != groups) {
            return Err("'=' where only the last line's last one or two characters may be padding");
        }
        let mut n = 0u32;
        for &c in &quad[..4 - pads] {
            let v = value(c).ok_or("a character outside base64 (A-Z a-z 0-9 + / and '=' padding)")?;
            n = n << 6 | u32::from(v);
        }
        n <<= 6 * pads as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = 3 - pads;
        // The bits the padding leaves unused must be zero (one encoding).
        if bytes[keep..].iter().any(|&b| b != 0) {
            return Err("padding whose unused bits are not zero");
        }
        out[len..len + keep].copy_from_slice(&bytes[..keep]);
        len += keep;
    }
    Ok((len, text.last() == Some(&b'=')))
}

#[cfg(test)]
mod tests;
