//! The Bech32 forms of X25519 keys (BIP 173's checksum, without its
//! 90-character limit, as age uses it): a recipient is `skinny1` and 52 data
//! characters and 6 of checksum in lower case; an identity is
//! `SKINNY-SECRET-KEY-1` and the same in upper case, so the two never look
//! alike. The checksum finds any one to four wrong characters, so a mistyped
//! recipient is refused instead of sealing to a key nobody holds.
//!
//! Secret bytes go only into [`Zeroizing`] buffers here; the `bech32` crate's
//! own encoder keeps one small stack buffer of characters while it writes.

use super::KeyTextError;
use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Bech32, Fe32, Hrp};
use zeroize::Zeroizing;

/// The human-readable part of a recipient (`skinny1...`).
pub const RECIPIENT_HRP: &str = "skinny";
/// The human-readable part of an identity (`SKINNY-SECRET-KEY-1...`, upper case).
pub const IDENTITY_HRP: &str = "skinny-secret-key-";
/// How an identity's text starts (its part and Bech32's separator, as written).
pub const IDENTITY_PREFIX: &str = "SKINNY-SECRET-KEY-1";
/// How a recipient's text starts.
pub const RECIPIENT_PREFIX: &str = "skinny1";

/// The characters of a 32-byte key's Bech32 form after the separator: 52 of
/// data (260 bits, 4 of them padding) and 6 of checksum.
const DATA_CHARS: usize = 52 + 6;

/// `bytes` as Bech32 under `hrp`, lower case (a recipient).
pub(super) fn encode_lower(hrp: &'static str, bytes: &[u8; 32]) -> String {
    let mut s = String::with_capacity(hrp.len() + 1 + DATA_CHARS);
    // Writing to a String fails only if the code is longer than Bech32's
    // 1023-character limit, which 32 bytes are far below.
    if bech32::encode_lower_to_fmt::<Bech32, _>(&mut s, Hrp::parse_unchecked(hrp), bytes).is_err() {
        unreachable!("a 32-byte key is within Bech32's length");
    }
    s
}

/// `bytes` as Bech32 under `hrp`, upper case (an identity), in a buffer that
/// is wiped on drop (its capacity set first so it never moves).
pub(super) fn encode_upper_secret(hrp: &'static str, bytes: &[u8; 32]) -> Zeroizing<String> {
    let mut s = Zeroizing::new(String::with_capacity(hrp.len() + 1 + DATA_CHARS));
    if bech32::encode_upper_to_fmt::<Bech32, _>(&mut *s, Hrp::parse_unchecked(hrp), bytes).is_err() {
        unreachable!("a 32-byte key is within Bech32's length");
    }
    s
}

/// Whether `token` starts, in either case, with `prefix`: the part that says
/// which Bech32 key it is.
pub(super) fn has_prefix(token: &[u8], prefix: &str) -> bool {
    token.len() >= prefix.len() && token[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// The 32 bytes of `token`, a Bech32 string under `hrp` (all upper or all
/// lower case). `kind` names the key in errors, which never quote it.
pub(super) fn decode32(
    kind: &'static str,
    hrp: &'static str,
    token: &[u8],
) -> Result<Zeroizing<[u8; 32]>, KeyTextError> {
    let text = core::str::from_utf8(token).map_err(|_| KeyTextError::Checksum(kind))?;
    let checked = CheckedHrpstring::new::<Bech32>(text).map_err(|_| KeyTextError::Checksum(kind))?;
    if checked.hrp() != Hrp::parse_unchecked(hrp) {
        return Err(KeyTextError::Checksum(kind));
    }
    let data = checked.data_part_ascii_no_checksum();
    let mut out = Zeroizing::new([0u8; 32]);
    let mut found = 0usize;
    for byte in checked.byte_iter() {
        if let Some(o) = out.get_mut(found) {
            *o = byte;
        }
        found += 1;
    }
    if found != 32 || data.len() != 52 {
        return Err(KeyTextError::DataLength { kind, found });
    }
    // The last character's low 4 bits are padding, not key bits: only the
    // form with them zero is the key's one encoding.
    let last = Fe32::from_char(char::from(data[51])).map_err(|_| KeyTextError::Checksum(kind))?;
    if last.to_u8() & 0x0f != 0 {
        return Err(KeyTextError::Checksum(kind));
    }
    Ok(out)
}
