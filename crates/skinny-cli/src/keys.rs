//! Keys and IVs from the command line: hex strings and key files.
//!
//! Key bytes live only in [`Zeroizing`] buffers, and no error ever holds them:
//! a [`KeyError`] names positions and lengths, never characters.

mod error;
pub mod sealing;

pub use error::{KeyError, KeyKind};
use skinny::Variant;
use std::io::Read;
use std::path::Path;
use zeroize::Zeroizing;

/// Key files larger than this are refused before reading them whole: the longest
/// tweakey is 48 bytes, 96 hex digits, so anything this big is the wrong file.
const KEY_FILE_MAX_BYTES: u64 = 4096;

/// Decodes `text` (surrounding whitespace ignored) as hex. `option` names the
/// argument in messages (`--key`, `--iv`).
///
/// # Errors
/// Empty, a non-hex character (its position is given, not the character), or an
/// odd number of digits.
pub fn decode_hex(option: &'static str, text: &str) -> Result<Zeroizing<Vec<u8>>, KeyError> {
    let digits = text.trim();
    if digits.is_empty() {
        return Err(KeyError::EmptyHex { option });
    }
    if let Some(pos) = digits.bytes().position(|b| !b.is_ascii_hexdigit()) {
        return Err(KeyError::NotHex { option, position: pos + 1 });
    }
    if !digits.len().is_multiple_of(2) {
        return Err(KeyError::OddHex { option, digits: digits.len() });
    }
    let bytes = hex::decode(digits).map_err(|_| KeyError::BadHex { option })?;
    Ok(Zeroizing::new(bytes))
}

/// The key from `--key HEX` or `--key-file PATH` (exactly one), checked against
/// the variant's whole tweakey length.
///
/// # Errors
/// Neither or both given, bad hex, an unreadable file, or the wrong length.
pub fn load_key(variant: Variant, key: Option<&str>, key_file: Option<&Path>) -> Result<Zeroizing<Vec<u8>>, KeyError> {
    load_key_of(KeyKind::Tweakey(variant), key, key_file)
}

fn load_key_of(kind: KeyKind, key: Option<&str>, key_file: Option<&Path>) -> Result<Zeroizing<Vec<u8>>, KeyError> {
    match (key, key_file) {
        (None, None) => Err(KeyError::Missing { kind }),
        (Some(_), Some(_)) => Err(KeyError::Twice),
        (Some(hex), None) => {
            let bytes = decode_hex("--key", hex)?;
            if bytes.len() != kind.bytes() {
                return Err(KeyError::Length { kind, got: bytes.len() });
            }
            Ok(bytes)
        }
        (None, Some(path)) => read_key_file(kind, path),
    }
}

/// A key file holds hex or raw bytes (never only whitespace, nor nothing),
/// decided by one rule that never guesses
/// from the length: content that is all hex digits once every whitespace
/// character is dropped (around, between and inside lines, as `xxd -p` writes
/// it) is hex, and must decode to exactly the key length; anything else is the
/// raw key and must be exactly the key length. A raw key that happens to be all
/// hex digits is therefore read as hex and refused for its length: raw keys
/// from a random source are all-hex with negligible probability, while a hex
/// key of the wrong length taken as raw bytes would silently be another key.
/// Errors give lengths, never content.
fn read_key_file(kind: KeyKind, path: &Path) -> Result<Zeroizing<Vec<u8>>, KeyError> {
    let want = kind.bytes();
    let unreadable = |source| KeyError::Unreadable { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    crate::files::note_secret_source(&file);
    let mut content = Zeroizing::new(Vec::with_capacity(2 * want + 2));
    file.take(KEY_FILE_MAX_BYTES + 1).read_to_end(&mut content).map_err(unreadable)?;
    decode_key_file(kind, path, content)
}

/// The key in a key file's `content` (read from `path`) by the rules of
/// [`read_key_file`].
fn decode_key_file(kind: KeyKind, path: &Path, content: Zeroizing<Vec<u8>>) -> Result<Zeroizing<Vec<u8>>, KeyError> {
    let want = kind.bytes();
    let path = path.to_path_buf();
    if kind != KeyKind::Aead && content.trim_ascii_start().starts_with(b"SKINNY-SEAL-") {
        return Err(KeyError::SealKeyFile { path, kind });
    }
    if content.len() as u64 > KEY_FILE_MAX_BYTES {
        return Err(KeyError::FileTooLarge { path, kind, max: KEY_FILE_MAX_BYTES });
    }
    if content.iter().all(u8::is_ascii_whitespace) {
        return Err(KeyError::FileBlank { path, kind, got: content.len() });
    }
    let digits: Zeroizing<Vec<u8>> =
        Zeroizing::new(content.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect());
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_hexdigit) {
        if !digits.len().is_multiple_of(2) {
            return Err(KeyError::FileOddHex { path, kind, digits: digits.len() });
        }
        if digits.len() != 2 * want {
            return Err(KeyError::FileHexLength { path, kind, got: digits.len() / 2 });
        }
        let bytes = hex::decode(&*digits).map_err(|_| KeyError::FileBadHex { path, kind })?;
        return Ok(Zeroizing::new(bytes));
    }
    if content.len() == want {
        return Ok(content);
    }
    Err(KeyError::FileRawLength { path, kind, got: content.len() })
}

/// The IV from `--iv HEX`, checked against the mode (ECB takes none, the others
/// need one) and the block size.
///
/// # Errors
/// Missing where needed, given to ECB, bad hex, or not one block.
pub fn load_iv(variant: Variant, mode: skinny_bulk::mode::Mode, iv: Option<&str>) -> Result<Option<Vec<u8>>, KeyError> {
    match (mode.needs_iv(), iv) {
        (false, None) => Ok(None),
        (false, Some(_)) => Err(KeyError::IvNotAllowed),
        (true, None) => Err(KeyError::IvRequired { mode, variant }),
        (true, Some(text)) => {
            let bytes = decode_hex("--iv", text)?;
            if bytes.len() != variant.block_bytes() {
                return Err(KeyError::IvLength { variant, got: bytes.len() });
            }
            Ok(Some(bytes.to_vec()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::CliError;
    use std::io::Write;

    #[test]
    fn hex_errors_name_positions_not_characters() {
        let e = decode_hex("--key", "00zz").unwrap_err().to_string();
        assert!(e.contains("character 3"), "{e}");
        assert!(!e.contains('z'), "{e}");
        let e = decode_hex("--key", "abc").unwrap_err().to_string();
        assert!(e.contains("odd number"), "{e}");
        assert!(decode_hex("--key", "  ").is_err());
        assert_eq!(decode_hex("--iv", " 0aFf\n").unwrap().as_slice(), &[0x0a, 0xff]);
    }

    #[test]
    fn key_file_hex_then_raw_then_error() {
        let v = Variant::Skinny64_64;
        let dir = tempfile::tempdir().unwrap();
        let hex_path = dir.path().join("hex");
        std::fs::write(&hex_path, "0102030405060708\n").unwrap();
        assert_eq!(load_key(v, None, Some(&hex_path)).unwrap().as_slice(), &[1, 2, 3, 4, 5, 6, 7, 8]);

        // xxd -p style: inner newlines and spaces are ignored.
        let spaced = dir.path().join("spaced");
        std::fs::write(&spaced, "01 02 03 04\n0506\t0708\n").unwrap();
        assert_eq!(load_key(v, None, Some(&spaced)).unwrap().as_slice(), &[1, 2, 3, 4, 5, 6, 7, 8]);

        // Eight raw bytes that happen to be hex digits: hex, and too short.
        let raw_hexlike = dir.path().join("raw-hexlike");
        std::fs::write(&raw_hexlike, b"abcdef01").unwrap();
        let e = load_key(v, None, Some(&raw_hexlike)).unwrap_err().to_string();
        assert!(e.contains("holds 4 bytes of hex, needs 8"), "{e}");
        assert!(!e.contains("abcdef01"), "{e}");

        // Eight raw bytes that are not all hex: the raw key.
        let raw_path = dir.path().join("raw");
        std::fs::write(&raw_path, [0xffu8, 0, 1, 2, b'x', 4, 5, 6]).unwrap();
        assert_eq!(load_key(v, None, Some(&raw_path)).unwrap().as_slice(), &[0xff, 0, 1, 2, b'x', 4, 5, 6]);

        // Nine raw bytes: neither.
        let bad = dir.path().join("bad");
        let mut f = std::fs::File::create(&bad).unwrap();
        f.write_all(&[0u8; 9]).unwrap();
        drop(f);
        let e = load_key(v, None, Some(&bad)).unwrap_err().to_string();
        assert!(e.contains("8 raw bytes or 16 hex digits"), "{e}");
        assert!(e.contains("9 bytes"), "{e}");

        // Odd hex.
        std::fs::write(&bad, "012").unwrap();
        let e = load_key(v, None, Some(&bad)).unwrap_err().to_string();
        assert!(e.contains("odd number"), "{e}");
    }

    #[test]
    fn half_a_hex_key_is_refused_not_taken_as_raw() {
        // 32 hex digits are 32 bytes, the length of a raw SKINNY-128-256 key; they
        // are read as hex (16 bytes) and refused.
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("k");
        std::fs::write(&p, "000102030405060708090a0b0c0d0e0f").unwrap();
        let e = load_key(Variant::Skinny128_256, None, Some(&p)).unwrap_err().to_string();
        assert!(e.contains("16 bytes of hex, needs 32"), "{e}");
    }

    #[test]
    fn lengths_are_said_in_good_english() {
        let e = load_key(Variant::Skinny64_64, Some("00"), None).unwrap_err().to_string();
        assert!(e.contains("needs an 8-byte key") && e.contains("got 1 byte"), "{e}");
        assert!(!e.contains("1 bytes"), "{e}");
        let e = load_iv(Variant::Skinny64_64, skinny_bulk::mode::Mode::Ctr, Some("00")).unwrap_err().to_string();
        assert!(e.contains("needs an 8-byte IV") && e.ends_with("got 1 byte"), "{e}");
    }

    /// Every message and exit code of this module, word for word.
    #[test]
    fn key_errors_keep_their_words_and_exit_codes() {
        use skinny_bulk::mode::Mode;
        let line = |e: CliError| (e.to_string(), e.exit_code());
        let v = Variant::Skinny64_64;
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, content: &[u8]| {
            let p = dir.path().join(name);
            std::fs::write(&p, content).unwrap();
            p
        };
        let cases: Vec<(CliError, String, i32)> = vec![
            (decode_hex("--key", " ").unwrap_err().into(), "--key is empty; give it in hex".into(), 2),
            (
                decode_hex("--iv", "0g").unwrap_err().into(),
                "--iv is not hex: character 2 is not a hex digit (0-9, a-f)".into(),
                2,
            ),
            (
                decode_hex("--key", "abc").unwrap_err().into(),
                "--key has an odd number of hex digits (3); each byte takes two".into(),
                2,
            ),
            (
                load_key(v, None, None).unwrap_err().into(),
                "a key is required: --key HEX or --key-file PATH (skinny-64-64 takes 8 bytes, 16 hex digits)".into(),
                2,
            ),
            (
                load_key_of(KeyKind::Aead, None, None).unwrap_err().into(),
                "a key is required: --key HEX or --key-file PATH (SKINNY-AEAD takes 16 bytes, 32 hex digits)".into(),
                2,
            ),
            (
                load_key(v, Some("00"), Some(Path::new("k"))).unwrap_err().into(),
                "give the key once: --key or --key-file, not both".into(),
                2,
            ),
            (
                load_key(v, Some("0011"), None).unwrap_err().into(),
                "skinny-64-64 needs an 8-byte key (the whole tweakey TK1||TK2||TK3, 16 hex digits), got 2 bytes".into(),
                2,
            ),
            (
                load_key_of(KeyKind::Aead, Some("00"), None).unwrap_err().into(),
                "SKINNY-AEAD needs a 16-byte key (32 hex digits), got 1 byte".into(),
                2,
            ),
            (
                load_key(v, None, Some(&dir.path().join("missing"))).unwrap_err().into(),
                format!("cannot read key file {}: No such file or directory", dir.path().join("missing").display()),
                1,
            ),
            (
                load_key(v, None, Some(dir.path())).unwrap_err().into(),
                format!("cannot read key file {}: Is a directory", dir.path().display()),
                1,
            ),
        ];
        let big = file("big", &[0u8; 4097]);
        let odd = file("odd", b"012");
        let short = file("short", b"0011");
        let raw = file("raw", &[0u8; 9]);
        let spaces = file("spaces", &[b' '; 8]);
        let newlines = file("newlines", &[b'\n'; 16]);
        let empty = file("empty", b"");
        let more: Vec<(CliError, String, i32)> = vec![
            (
                load_key(v, None, Some(&big)).unwrap_err().into(),
                format!(
                    "key file {} must hold the skinny-64-64 key: 8 raw bytes or 16 hex digits \
                     (it is larger than 4096 bytes)",
                    big.display()
                ),
                2,
            ),
            (
                load_key(v, None, Some(&odd)).unwrap_err().into(),
                format!(
                    "key file {} must hold the skinny-64-64 key: 8 raw bytes or 16 hex digits \
                     (it holds an odd number of hex digits, 3)",
                    odd.display()
                ),
                2,
            ),
            (
                load_key_of(KeyKind::Aead, None, Some(&short)).unwrap_err().into(),
                format!(
                    "key file {} holds 2 bytes of hex, needs 16 (SKINNY-AEAD takes 16 raw bytes or 32 hex digits)",
                    short.display()
                ),
                2,
            ),
            (
                load_key(v, None, Some(&raw)).unwrap_err().into(),
                format!(
                    "key file {} must hold the skinny-64-64 key: 8 raw bytes or 16 hex digits \
                     (it holds 9 bytes that are not all hex)",
                    raw.display()
                ),
                2,
            ),
            (
                load_key(v, None, Some(&spaces)).unwrap_err().into(),
                format!(
                    "key file {} must hold the skinny-64-64 key: 8 raw bytes or 16 hex digits \
                     (it holds only whitespace, 8 bytes); did whatever wrote it fail?",
                    spaces.display()
                ),
                2,
            ),
            (
                load_key_of(KeyKind::Aead, None, Some(&newlines)).unwrap_err().into(),
                format!(
                    "key file {} must hold the SKINNY-AEAD key: 16 raw bytes or 32 hex digits \
                     (it holds only whitespace, 16 bytes); did whatever wrote it fail?",
                    newlines.display()
                ),
                2,
            ),
            (
                load_key_of(KeyKind::Aead, None, Some(&empty)).unwrap_err().into(),
                format!(
                    "key file {} must hold the SKINNY-AEAD key: 16 raw bytes or 32 hex digits \
                     (it is empty); did whatever wrote it fail?",
                    empty.display()
                ),
                2,
            ),
            (load_iv(v, Mode::Ecb, Some("00")).unwrap_err().into(), "ECB mode takes no IV; remove --iv".into(), 2),
            (
                load_iv(v, Mode::Cbc, None).unwrap_err().into(),
                "cbc mode needs an IV: --iv HEX, one 8-byte block (16 hex digits)".into(),
                2,
            ),
            (
                load_iv(Variant::Skinny128_256, Mode::Ctr, Some("0011")).unwrap_err().into(),
                "skinny-128-256 needs a 16-byte IV (one block, 32 hex digits), got 2 bytes".into(),
                2,
            ),
            (
                load_iv(v, Mode::Ctr, Some("x")).unwrap_err().into(),
                "--iv is not hex: character 1 is not a hex digit (0-9, a-f)".into(),
                2,
            ),
        ];
        for (e, want, code) in cases.into_iter().chain(more) {
            assert_eq!(line(e), (want, code));
        }
    }
}
