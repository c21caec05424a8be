//! `skinny open` to a terminal: printable plaintext is shown, binary refused
//! (as rage does). The first write (the first verified chunk or more) is
//! judged: valid UTF-8 (a character cut at its end allowed) without control
//! characters other than tab, newline and carriage return.

use std::io::{self, Write};

/// A writer that refuses binary plaintext on its first write.
pub struct TerminalGate<W: Write> {
    inner: W,
    judged: bool,
    /// Set when the plaintext was refused as binary.
    pub refused: bool,
}

impl<W: Write> TerminalGate<W> {
    /// Gates `inner` (a terminal).
    pub fn new(inner: W) -> Self {
        Self { inner, judged: false, refused: false }
    }
}

/// Whether `data` is text fit for a terminal.
pub fn printable(data: &[u8]) -> bool {
    let text = match std::str::from_utf8(data) {
        Ok(t) => t,
        // A character cut by the end of the piece judged is not binary.
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&data[..e.valid_up_to()]).unwrap_or(""),
        Err(_) => return false,
    };
    text.chars().all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
}

impl<W: Write> Write for TerminalGate<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if !self.judged && !data.is_empty() {
            self.judged = true;
            if !printable(data) {
                self.refused = true;
                return Err(io::Error::other("binary plaintext"));
            }
        }
        self.inner.write(data)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn text_is_printable_and_binary_is_not() {
        assert!(printable(b"hello\tworld\r\n"));
        assert!(printable("h\u{e9}llo".as_bytes()));
        assert!(printable(&"\u{e9}".as_bytes()[..1]), "a character cut at the end");
        assert!(!printable(b"\x1b[2J"), "escape sequences are control characters");
        assert!(!printable(b"\x00\x01"));
        assert!(!printable(b"\xff\xfeabc"));
    }
}
