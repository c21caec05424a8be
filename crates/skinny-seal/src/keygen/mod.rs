//! Generating keys and writing and reading them as text.
//!
//! A symmetric key is one typed line; X25519 keys are Bech32 strings with a
//! checksum (`checksummed`), so a typo is refused, not taken for another key:
//! - `SKINNY-SEAL-KEY-1 <64 hex digits>`: a 32-byte symmetric key (secret);
//! - `SKINNY-SECRET-KEY-1...` (Bech32, upper case): an X25519 identity (secret);
//! - `skinny1...` (Bech32, lower case): an X25519 recipient (public).
//!
//! The hex forms of X25519 keys that earlier releases wrote are still read:
//! `SKINNY-SEAL-X25519-SECRET-1 <64 hex digits>` (an identity) and
//! `skinny-seal-x25519-public-1:<64 hex digits>` (a recipient).
//!
//! A key file holds exactly one secret line, an identity file one or more
//! identities; blank lines and lines starting with `#` are ignored, and spaces,
//! tabs and `\r` around the fields too. Hex digits are decoded without branching
//! on their values. Errors name what is wrong (type, length, a non-hex digit, a
//! checksum) but never echo a line or a digit. A recipients file is read by
//! [`parse_recipients_file`].

mod checksummed;
mod lists;

pub use checksummed::{IDENTITY_HRP, IDENTITY_PREFIX, RECIPIENT_HRP, RECIPIENT_PREFIX};
pub use lists::{parse_recipients_file, RecipientsFileError};

use crate::recipients::{X25519Identity, X25519Recipient};
use zeroize::Zeroizing;

/// The type of a symmetric key line.
pub const SYMMETRIC_KEY_TYPE: &str = "SKINNY-SEAL-KEY-1";
/// The type of an X25519 identity line in the older hex form (still read).
pub const X25519_SECRET_TYPE: &str = "SKINNY-SEAL-X25519-SECRET-1";
/// The prefix of an X25519 recipient in the older hex form (still read).
pub const X25519_PUBLIC_PREFIX: &str = "skinny-seal-x25519-public-1:";

/// A secret key read from a key file.
#[derive(Debug)]
pub enum SecretKey {
    /// A 32-byte symmetric key (stanza kind 1).
    Symmetric(Zeroizing<[u8; 32]>),
    /// An X25519 identity (stanza kind 3).
    X25519(X25519Identity),
}

/// Why a key's text could not be read (never key material).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyTextError {
    /// No line starts with a known key type (e.g. a raw or hex key file of version 1).
    #[error("not a skinny-seal key file (no '{SYMMETRIC_KEY_TYPE}' or '{IDENTITY_PREFIX}' line)")]
    NotKeyText,
    /// Several key lines.
    #[error("more than one key line in a key file")]
    SeveralKeys,
    /// A public recipient where a secret key was expected.
    #[error("this is a public X25519 recipient, not a secret key")]
    PublicNotSecret,
    /// A secret key where a public recipient was expected.
    #[error("this is a secret key, not a public recipient (keep it secret)")]
    SecretNotPublic,
    /// A recipient string without the recipient prefix.
    #[error("not an X25519 recipient (expected '{RECIPIENT_PREFIX}...', or the older '{X25519_PUBLIC_PREFIX}' and 64 hex digits)")]
    NotRecipient,
    /// A Bech32 key whose checksum does not match its characters (a typo),
    /// or with a character Bech32 does not use, or mixed case.
    #[error("the {0}'s checksum does not match: a character is wrong, missing or extra, or not Bech32's (check what was copied)")]
    Checksum(&'static str),
    /// A Bech32 key that does not hold 32 bytes.
    #[error("a {kind} holds 32 bytes, this one {found}")]
    DataLength {
        /// What was read.
        kind: &'static str,
        /// Bytes found.
        found: usize,
    },
    /// An X25519 recipient of low order: every file key wrapped to it would
    /// be public.
    #[error("this X25519 recipient is a low-order point, which no identity has (every file sealed to it could be opened by anyone)")]
    LowOrder,
    /// A key type line without exactly one field after the type.
    #[error("a {0} line must hold the type, one space and the hex digits, nothing else")]
    Fields(&'static str),
    /// The wrong number of hex digits.
    #[error("a {kind} has {expected} hex digits, this one {found}")]
    Length {
        /// What was read.
        kind: &'static str,
        /// Digits expected.
        expected: usize,
        /// Digits found.
        found: usize,
    },
    /// A character that is not a hex digit.
    #[error("a {0} holds a character that is not a hex digit")]
    NotHex(&'static str),
}

/// A fresh 32-byte symmetric key from the operating system's generator.
pub fn generate_symmetric_key() -> Result<Zeroizing<[u8; 32]>, getrandom::Error> {
    let mut key = Zeroizing::new([0u8; 32]);
    getrandom::fill(key.as_mut_slice())?;
    Ok(key)
}

/// A fresh X25519 identity.
pub fn generate_x25519_identity() -> Result<X25519Identity, getrandom::Error> {
    X25519Identity::generate()
}

/// The key file text of a symmetric key (one line).
pub fn encode_symmetric_key(key: &[u8; 32]) -> Zeroizing<String> {
    let mut s = Zeroizing::new(String::with_capacity(SYMMETRIC_KEY_TYPE.len() + 66));
    s.push_str(SYMMETRIC_KEY_TYPE);
    s.push(' ');
    push_hex(&mut s, key);
    s.push('\n');
    s
}

/// The identity file text of an X25519 identity: a comment with its recipient,
/// then the identity in Bech32 (`SKINNY-SECRET-KEY-1...`).
pub fn encode_x25519_identity(identity: &X25519Identity) -> Zeroizing<String> {
    // The recipient is public, but computed from the secret here: written by
    // the constant-time codec too (the same text as `encode_recipient`).
    let recipient = checksummed::encode_ct(RECIPIENT_HRP, &identity.recipient().to_bytes(), false);
    let secret = checksummed::encode_ct(IDENTITY_HRP, &identity.secret_bytes(), true);
    let mut s = Zeroizing::new(String::with_capacity(recipient.len() + secret.len() + 16));
    s.push_str("# recipient: ");
    s.push_str(&recipient);
    s.push('\n');
    s.push_str(&secret);
    s.push('\n');
    s
}

/// The recipient string of an X25519 public key (`skinny1...`, Bech32).
pub fn encode_recipient(recipient: &X25519Recipient) -> String {
    checksummed::encode_lower(RECIPIENT_HRP, &recipient.to_bytes())
}

/// The recipient named by `text` (surrounding whitespace ignored): Bech32
/// (`skinny1...`, checksum verified) or the older hex form. A low-order point
/// is refused: no identity has it, and a file key wrapped to it is public.
pub fn parse_recipient(text: &str) -> Result<X25519Recipient, KeyTextError> {
    let t = text.trim();
    if t.starts_with(SYMMETRIC_KEY_TYPE)
        || t.starts_with(X25519_SECRET_TYPE)
        || checksummed::has_prefix(t.as_bytes(), IDENTITY_PREFIX)
    {
        return Err(KeyTextError::SecretNotPublic);
    }
    let bytes = if let Some(digits) = t.strip_prefix(X25519_PUBLIC_PREFIX) {
        decode_hex32("X25519 recipient", digits.as_bytes())?
    } else if checksummed::has_prefix(t.as_bytes(), RECIPIENT_PREFIX) {
        checksummed::decode32("X25519 recipient", RECIPIENT_HRP, t.as_bytes())?
    } else {
        return Err(KeyTextError::NotRecipient);
    };
    let recipient = X25519Recipient::from_bytes(*bytes);
    if recipient.is_low_order() {
        return Err(KeyTextError::LowOrder);
    }
    Ok(recipient)
}

/// A key line found, not yet decoded.
enum KeyLine<'a> {
    /// `TYPE HEX`: the key's name, whether it is symmetric, its digits.
    Hex(&'static str, bool, &'a [u8]),
    /// A Bech32 identity (`SKINNY-SECRET-KEY-1...`).
    Bech32Identity(&'a [u8]),
}

impl KeyLine<'_> {
    /// The key the line holds.
    fn decode(self) -> Result<SecretKey, KeyTextError> {
        Ok(match self {
            KeyLine::Hex(name, true, digits) => SecretKey::Symmetric(decode_hex32(name, digits)?),
            KeyLine::Hex(name, false, digits) => {
                SecretKey::X25519(X25519Identity::from_bytes(*decode_hex32(name, digits)?))
            }
            KeyLine::Bech32Identity(token) => {
                let bytes = checksummed::decode_secret("X25519 identity", IDENTITY_HRP, token)?;
                SecretKey::X25519(X25519Identity::from_bytes(*bytes))
            }
        })
    }
}

/// The key lines of a key or identity file, in order (see the module's rules).
///
/// The lines and fields are found on the file's *layout*: a copy in which every
/// hex digit is `0`. Which bytes are hex digits is public (in a valid key file
/// every digit of a hex key is one), so the parser branches on that and on the
/// other, non-secret characters, never on a digit's value; the type is compared
/// on the file's own bytes (the type's letters); the digits are decoded by masks,
/// and only the verdict over all of them is branched on. A Bech32 identity is
/// decoded the same way (`checksummed::decode_secret`).
fn key_lines(file: &[u8], mut each: impl FnMut(KeyLine<'_>) -> Result<(), KeyTextError>) -> Result<(), KeyTextError> {
    let layout = layout_of(file);
    // Not text at all: a raw (version 1) key or another file. Replacing ASCII
    // digits by an ASCII digit changes neither the UTF-8 validity nor where the
    // whitespace, line breaks and `#` are.
    let text = core::str::from_utf8(&layout).map_err(|_| KeyTextError::NotKeyText)?;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split([' ', '\t']).filter(|f| !f.is_empty()).map(|f| same_bytes(file, text, f));
        let Some(kind) = fields.next() else { continue };
        let (name, symmetric) = match kind {
            _ if kind == SYMMETRIC_KEY_TYPE.as_bytes() => ("symmetric key", true),
            _ if kind == X25519_SECRET_TYPE.as_bytes() => ("X25519 identity", false),
            _ if kind.starts_with(X25519_PUBLIC_PREFIX.as_bytes()) => return Err(KeyTextError::PublicNotSecret),
            _ if checksummed::has_prefix(kind, RECIPIENT_PREFIX) => return Err(KeyTextError::PublicNotSecret),
            _ if checksummed::has_prefix(kind, IDENTITY_PREFIX) => {
                if fields.next().is_some() {
                    return Err(KeyTextError::Fields("X25519 identity"));
                }
                each(KeyLine::Bech32Identity(kind))?;
                continue;
            }
            _ => return Err(KeyTextError::NotKeyText),
        };
        let (Some(digits), None) = (fields.next(), fields.next()) else {
            return Err(KeyTextError::Fields(name));
        };
        each(KeyLine::Hex(name, symmetric, digits))?;
    }
    Ok(())
}

/// The secret key in a key file's bytes: exactly one key line (see the
/// module's rules).
pub fn parse_secret_key(file: &[u8]) -> Result<SecretKey, KeyTextError> {
    let mut found = None;
    key_lines(file, |line| {
        if found.is_some() {
            return Err(KeyTextError::SeveralKeys);
        }
        found = Some(line.decode()?);
        Ok(())
    })?;
    found.ok_or(KeyTextError::NotKeyText)
}

/// Every secret key in an identity file's bytes, in order: one or more key
/// lines (see the module's rules), each tried when opening.
pub fn parse_secret_keys(file: &[u8]) -> Result<Vec<SecretKey>, KeyTextError> {
    let mut found = Vec::new();
    key_lines(file, |line| {
        found.push(line.decode()?);
        Ok(())
    })?;
    if found.is_empty() {
        return Err(KeyTextError::NotKeyText);
    }
    Ok(found)
}

/// `file` with every hex digit (`0-9`, `a-f`, `A-F`) and every Bech32
/// character (either case) replaced by `0`. Whether a byte is such a key
/// character is computed without a branch and then declassified for the
/// constant-time check (`skinny::hazmat::ct::declassify`): it is public,
/// the characters' values are not. None of them is whitespace, `#` or a line
/// break, so the layout has the file's lines and fields.
fn layout_of(file: &[u8]) -> Zeroizing<Vec<u8>> {
    let layout = file
        .iter()
        .map(|&c| {
            let key_char = (nibble(c).1 == -1) | (checksummed::bech32_mask(c) == 0xff);
            if skinny::hazmat::ct::declassify(key_char) {
                b'0'
            } else {
                c
            }
        })
        .collect();
    Zeroizing::new(layout)
}

/// The bytes of `file` where `field` (a slice of `layout`, `file`'s layout) lies.
fn same_bytes<'a>(file: &'a [u8], layout: &str, field: &str) -> &'a [u8] {
    let start = field.as_ptr() as usize - layout.as_ptr() as usize;
    &file[start..start + field.len()]
}

/// Lower-case hex of `bytes`, without a table indexed by secret nibbles.
fn push_hex(s: &mut String, bytes: &[u8]) {
    for b in bytes {
        s.push(hex_digit(b >> 4));
        s.push(hex_digit(b & 15));
    }
}

/// The hex digit of `n` (0..=15): `'0' + n`, plus the gap to `'a'` when `n > 9`,
/// chosen by a mask.
fn hex_digit(n: u8) -> char {
    let n = i16::from(n);
    let over_nine = (9 - n) >> 15; // -1 when n > 9
    let code = 0x30 + n + (over_nine & (0x61 - 0x30 - 10));
    char::from(code.to_le_bytes()[0])
}

/// `-1` (all ones) when `x >= 0`, else 0.
fn mask_nonnegative(x: i16) -> i16 {
    !(x >> 15)
}

/// The value of hex digit `c` and `-1` if it is one (0 if not), without a branch
/// on `c`.
fn nibble(c: u8) -> (u8, i16) {
    let c = i16::from(c);
    let digit = c - 0x30;
    let letter = (c | 0x20) - 0x61 + 10;
    let is_digit = mask_nonnegative(digit) & mask_nonnegative(9 - digit);
    let is_letter = mask_nonnegative(letter - 10) & mask_nonnegative(15 - letter);
    let value = (digit & is_digit) | (letter & is_letter);
    // `value` is 0..=15 by the masks.
    (value.to_le_bytes()[0], is_digit | is_letter)
}

/// The 32 bytes of 64 hex digits. Every digit is decoded by [`nibble`]; only
/// the verdict over all of them (public: the key is refused or taken) is
/// declassified and branched on.
fn decode_hex32(kind: &'static str, d: &[u8]) -> Result<Zeroizing<[u8; 32]>, KeyTextError> {
    if d.len() != 64 {
        return Err(KeyTextError::Length { kind, expected: 64, found: d.len() });
    }
    let mut out = Zeroizing::new([0u8; 32]);
    let mut valid = -1i16;
    for (o, pair) in out.iter_mut().zip(d.chunks_exact(2)) {
        let (hi, vh) = nibble(pair[0]);
        let (lo, vl) = nibble(pair[1]);
        *o = (hi << 4) | lo;
        valid &= vh & vl;
    }
    if !skinny::hazmat::ct::declassify(valid == -1) {
        return Err(KeyTextError::NotHex(kind));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
