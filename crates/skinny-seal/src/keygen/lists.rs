//! Recipients files: several recipients in one file, one a line, as age reads
//! them. A line that is empty or starts with `#` is skipped; every other line
//! is one recipient ([`parse_recipient`](super::parse_recipient): Bech32 or the
//! older hex form). Lines end with `\n` or `\r\n`; spaces and tabs around a
//! line are ignored (age refuses them; nothing is lost by allowing them).

use super::{parse_recipient, KeyTextError};
use crate::recipients::X25519Recipient;

/// Why a recipients file was refused: the line (from 1) and what is wrong
/// with it (never its text: a secret pasted by mistake is not echoed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipientsFileError {
    /// The line, counted from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong with it.
    pub error: KeyTextError,
}

impl core::fmt::Display for RecipientsFileError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.line {
            0 => f.write_str("no recipient in it (only blank lines and comments)"),
            line => write!(f, "line {line}: {}", self.error),
        }
    }
}

impl std::error::Error for RecipientsFileError {}

/// Every recipient in a recipients file's bytes, in order (see the module's
/// rules). A file with none is refused (line 0, [`KeyTextError::NotRecipient`]),
/// as a file of comments seals to nobody.
pub fn parse_recipients_file(file: &[u8]) -> Result<Vec<X25519Recipient>, RecipientsFileError> {
    let mut found = Vec::new();
    for (index, raw) in file.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        let text =
            core::str::from_utf8(raw).map_err(|_| RecipientsFileError { line, error: KeyTextError::NotRecipient })?;
        let text = text.strip_suffix('\r').unwrap_or(text).trim_matches([' ', '\t']);
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        found.push(parse_recipient(text).map_err(|error| RecipientsFileError { line, error })?);
    }
    if found.is_empty() {
        return Err(RecipientsFileError { line: 0, error: KeyTextError::NotRecipient });
    }
    Ok(found)
}
