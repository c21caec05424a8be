//! What stops reading a key or an IV, in the words of the options that gave
//! them. No variant holds key material: hex errors keep positions and
//! lengths, key-file errors the path and lengths.

use crate::error::{an, count, reason, CliError};
use crate::files::shown;
use skinny::Variant;
use skinny_bulk::mode::Mode;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What a key is for, which says its length and how messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// The whole tweakey of a SKINNY variant (`encrypt`, `decrypt`).
    Tweakey(Variant),
    /// The 16-byte SKINNY-AEAD key (`seal`, `open`).
    Aead,
}

impl KeyKind {
    /// The key's length in bytes.
    pub fn bytes(self) -> usize {
        match self {
            KeyKind::Tweakey(variant) => variant.tweakey_bytes(),
            KeyKind::Aead => 16,
        }
    }

    /// What the key is, said before its length in hex (nothing where the
    /// name says it all).
    fn what(self) -> &'static str {
        match self {
            KeyKind::Tweakey(_) => "the whole tweakey TK1||TK2||TK3, ",
            KeyKind::Aead => "",
        }
    }
}

impl fmt::Display for KeyKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyKind::Tweakey(variant) => write!(f, "{variant}"),
            KeyKind::Aead => f.write_str("SKINNY-AEAD"),
        }
    }
}

/// What stops reading `--key`, `--key-file` or `--iv`. Turned into a
/// [`CliError`] where it leaves the module: an unreadable key file is an I/O
/// error (exit 1), everything else the user gave wrong (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// A hex option with nothing in it.
    #[error("{option} is empty; give it in hex")]
    EmptyHex {
        /// The option (`--key`, `--iv`).
        option: &'static str,
    },
    /// A hex option with a character that is not a hex digit: its position
    /// is kept, never the character, which may be part of a key.
    #[error("{option} is not hex: character {position} is not a hex digit (0-9, a-f)")]
    NotHex {
        /// The option.
        option: &'static str,
        /// The character's position, from 1.
        position: usize,
    },
    /// A hex option with an odd number of digits.
    #[error("{option} has an odd number of hex digits ({digits}); each byte takes two")]
    OddHex {
        /// The option.
        option: &'static str,
        /// The digits given.
        digits: usize,
    },
    /// Hex the decoder refused after the checks above passed. The decoder's
    /// own error quotes the character it stopped at, which may be part of a
    /// key, so it is not kept as the source.
    #[error("{option} is not valid hex")]
    BadHex {
        /// The option.
        option: &'static str,
    },
    /// Neither `--key` nor `--key-file`.
    #[error(
        "a key is required: --key HEX or --key-file PATH ({kind} takes {} bytes, {} hex digits)",
        kind.bytes(),
        2 * kind.bytes()
    )]
    Missing {
        /// The key asked for.
        kind: KeyKind,
    },
    /// Both `--key` and `--key-file`.
    #[error("give the key once: --key or --key-file, not both")]
    Twice,
    /// A `--key` of the wrong length.
    #[error(
        "{kind} needs {} key ({}{} hex digits), got {}",
        an(kind.bytes(), "byte"),
        kind.what(),
        2 * kind.bytes(),
        count(*got as u64, "byte")
    )]
    Length {
        /// The key asked for.
        kind: KeyKind,
        /// The bytes given.
        got: usize,
    },
    /// A key file that cannot be opened or read.
    #[error("cannot read key file {}: {}", shown(path), reason(source))]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A key file far larger than any key.
    #[error("{} (it is larger than {max} bytes)", must_hold(path, *kind))]
    FileTooLarge {
        /// The file.
        path: PathBuf,
        /// The key asked for.
        kind: KeyKind,
        /// The largest key file read.
        max: u64,
    },
    /// A key file that is empty or holds only whitespace (spaces, newlines):
    /// not a raw key, however long, but most likely the trace of a command
    /// that failed to write the key.
    #[error(
        "{} ({}); did whatever wrote it fail?",
        must_hold(path, *kind),
        if *got == 0 { "it is empty".to_string() } else { format!("it holds only whitespace, {}", count(*got as u64, "byte")) }
    )]
    FileBlank {
        /// The file.
        path: PathBuf,
        /// The key asked for.
        kind: KeyKind,
        /// The bytes it holds.
        got: usize,
    },
    /// A hex key file with an odd number of digits.
    #[error("{} (it holds an odd number of hex digits, {digits})", must_hold(path, *kind))]
    FileOddHex {
        /// The file.
        path: PathBuf,
        /// The key asked for.
        kind: KeyKind,
        /// The digits it holds.
        digits: usize,
    },
    /// A hex key file of the wrong length.
    #[error(
        "key file {} holds {} of hex, needs {} ({kind} takes {} raw bytes or {} hex digits){}",
        shown(path),
        count(*got as u64, "byte"),
        kind.bytes(),
        kind.bytes(),
        2 * kind.bytes(),
        other_use(*kind, *got)
    )]
    FileHexLength {
        /// The file.
        path: PathBuf,
        /// The key asked for.
        kind: KeyKind,
        /// The bytes its hex stands for.
        got: usize,
    },
    /// A hex key file the decoder refused after the checks passed (its
    /// error is left out, as for [`KeyError::BadHex`]).
    #[error("{}", must_hold(path, *kind))]
    FileBadHex {
        /// The file.
        path: PathBuf,
        /// The key asked for.
        kind: KeyKind,
    },
    /// A raw key file (not all hex) of the wrong length.
    #[error("{} (it holds {} that are not all hex){}", must_hold(path, *kind), count(*got as u64, "byte"), other_use(*kind, *got))]
    FileRawLength {
        /// The file.
        path: PathBuf,
        /// The key asked for.
        kind: KeyKind,
        /// The bytes it holds.
        got: usize,
    },
    /// A key file of `skinny keygen` (a typed `SKINNY-SEAL-...` line) given to
    /// a command that takes another key.
    #[error(
        "key file {} is a sealed-file key (for `skinny seal` and `skinny open`), not {kind} key material",
        shown(path)
    )]
    SealKeyFile {
        /// The file.
        path: PathBuf,
        /// The key asked for.
        kind: KeyKind,
    },
    /// `--iv` with ECB.
    #[error("ECB mode takes no IV; remove --iv")]
    IvNotAllowed,
    /// No `--iv` for a mode that needs one.
    #[error(
        "{mode} mode needs an IV: --iv HEX, one {}-byte block ({} hex digits)",
        variant.block_bytes(),
        2 * variant.block_bytes()
    )]
    IvRequired {
        /// The mode.
        mode: Mode,
        /// The variant, whose block the IV is.
        variant: Variant,
    },
    /// An `--iv` that is not one block.
    #[error(
        "{variant} needs {} IV (one block, {} hex digits), got {}",
        an(variant.block_bytes(), "byte"),
        2 * variant.block_bytes(),
        count(*got as u64, "byte")
    )]
    IvLength {
        /// The variant.
        variant: Variant,
        /// The bytes given.
        got: usize,
    },
}

/// A hint when a key of `got` bytes fits another command: a 16-byte key
/// (`seal`'s version-1 key) given to `encrypt` for a variant that takes more.
fn other_use(kind: KeyKind, got: usize) -> &'static str {
    match kind {
        KeyKind::Tweakey(_) if got == 16 => {
            "; a 16-byte key is a `skinny seal` key, or a skinny-128-128 one (-c skinny-128-128)"
        }
        _ => "",
    }
}

/// What a key file must hold, the start of most key-file messages.
fn must_hold(path: &Path, kind: KeyKind) -> String {
    let want = kind.bytes();
    format!("key file {} must hold the {kind} key: {want} raw bytes or {} hex digits", shown(path), 2 * want)
}

impl From<KeyError> for CliError {
    fn from(e: KeyError) -> Self {
        match e {
            KeyError::Unreadable { .. } => CliError::Io(e.to_string()),
            KeyError::EmptyHex { .. }
            | KeyError::NotHex { .. }
            | KeyError::OddHex { .. }
            | KeyError::BadHex { .. }
            | KeyError::Missing { .. }
            | KeyError::Twice
            | KeyError::Length { .. }
            | KeyError::FileTooLarge { .. }
            | KeyError::FileBlank { .. }
            | KeyError::FileOddHex { .. }
            | KeyError::FileHexLength { .. }
            | KeyError::FileBadHex { .. }
            | KeyError::FileRawLength { .. }
            | KeyError::SealKeyFile { .. }
            | KeyError::IvNotAllowed
            | KeyError::IvRequired { .. }
            | KeyError::IvLength { .. } => CliError::Usage(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words and exit codes of the hex the decoder alone would refuse,
    /// which the checks before it never let through.
    #[test]
    fn key_errors_keep_their_words_and_exit_codes() {
        let line = |e: KeyError| {
            let e = CliError::from(e);
            (e.to_string(), e.exit_code())
        };
        assert_eq!(line(KeyError::BadHex { option: "--key" }), ("--key is not valid hex".to_string(), 2));
        let e = KeyError::FileBadHex { path: PathBuf::from("/k"), kind: KeyKind::Aead };
        let want = "key file /k must hold the SKINNY-AEAD key: 16 raw bytes or 32 hex digits".to_string();
        assert_eq!(line(e), (want, 2));
        let e = KeyError::Unreadable { path: PathBuf::from("/k"), source: io::Error::from_raw_os_error(13) };
        assert!(std::error::Error::source(&e).is_some());
        assert_eq!(line(e), ("cannot read key file /k: Permission denied".to_string(), 1));
    }
}
