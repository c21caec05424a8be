//! The Bech32 forms of X25519 keys (BIP 173's checksum, without its
//! 90-character limit, as age uses it): a recipient is `skinny1` and 52 data
//! characters and 6 of checksum in lower case; an identity is
//! `SKINNY-SECRET-KEY-1` and the same in upper case, so the two never look
//! alike. The checksum finds any one to four wrong characters, so a mistyped
//! recipient is refused instead of sealing to a key nobody holds.
//!
//! Recipients (public) are written and read by the `bech32` crate. Identities
//! (secret) by this module's own constant-time codec ([`encode_ct`],
//! [`decode_secret`]): no branch and no table index on a character's or a
//! bit's value, only the verdict over the whole string declassified, as the
//! hex codec of the key lines; the tests hold it to the crate's answers.
//! Secret bytes and characters go only into [`Zeroizing`] buffers.

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

/// Bech32's characters, by value.
const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
/// BIP 173's generator of the checksum's code.
const GENERATOR: [u32; 5] = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/// All ones when `a == b`, else 0, without a branch.
fn eq_mask(a: u8, b: u8) -> u8 {
    let x = u32::from(a ^ b);
    // `x | -x` has its top bit set exactly when x != 0.
    let differ = (x | x.wrapping_neg()) >> 31;
    0u8.wrapping_sub((differ ^ 1) as u8)
}

/// All ones when `lo <= c <= hi`, else 0, without a branch.
fn range_mask(c: u8, lo: u8, hi: u8) -> u8 {
    let c = i16::from(c);
    let inside = !((c - i16::from(lo)) >> 15) & !((i16::from(hi) - c) >> 15);
    inside.to_le_bytes()[0]
}

/// One step of the checksum's polynomial with the 5-bit value `v`, the
/// generator's terms chosen by masks.
fn polymod_step(chk: u32, v: u8) -> u32 {
    let top = chk >> 25;
    let mut c = ((chk & 0x1ff_ffff) << 5) ^ u32::from(v);
    for (i, g) in GENERATOR.iter().enumerate() {
        c ^= g & 0u32.wrapping_sub((top >> i) & 1);
    }
    c
}

/// The checksum's state after the human-readable part (public).
fn polymod_hrp(hrp: &str) -> u32 {
    let mut chk = 1;
    for b in hrp.bytes() {
        chk = polymod_step(chk, b >> 5);
    }
    chk = polymod_step(chk, 0);
    for b in hrp.bytes() {
        chk = polymod_step(chk, b & 31);
    }
    chk
}

/// The 52 five-bit values of 32 bytes (the last one's low 4 bits zero).
fn to_fives(bytes: &[u8; 32]) -> Zeroizing<[u8; 52]> {
    let mut out = Zeroizing::new([0u8; 52]);
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * 5;
        let hi = u16::from(bytes[bit / 8]);
        let lo = u16::from(*bytes.get(bit / 8 + 1).unwrap_or(&0));
        let pair = (hi << 8) | lo;
        *o = ((pair >> (11 - bit % 8)) & 31) as u8;
    }
    out
}

/// Whether `c` is a Bech32 character of either case: all ones or 0, without
/// a branch or table index on `c`.
pub(super) fn bech32_mask(c: u8) -> u8 {
    let lower = c | (0x20 & range_mask(c, b'A', b'Z'));
    CHARSET.iter().fold(0, |found, &ch| found | eq_mask(lower, ch))
}

/// `bytes` as Bech32 under `hrp`, upper case (an identity) or lower (a
/// recipient derived from a secret), in a buffer that is wiped on drop (its
/// capacity set first so it never moves), without a branch or table index on
/// a value of `bytes`.
pub(super) fn encode_ct(hrp: &'static str, bytes: &[u8; 32], upper: bool) -> Zeroizing<String> {
    let fives = to_fives(bytes);
    let mut chk = polymod_hrp(hrp);
    for &v in fives.iter() {
        chk = polymod_step(chk, v);
    }
    for _ in 0..6 {
        chk = polymod_step(chk, 0);
    }
    chk ^= 1;
    let mut data = Zeroizing::new([0u8; DATA_CHARS]);
    data[..52].copy_from_slice(&fives[..]);
    for (i, d) in data[52..].iter_mut().enumerate() {
        *d = ((chk >> (5 * (5 - i))) & 31) as u8;
    }
    let mut s = Zeroizing::new(String::with_capacity(hrp.len() + 1 + DATA_CHARS));
    let case = if upper { 0x20 } else { 0 };
    for b in hrp.bytes() {
        s.push(char::from(b ^ (case & range_mask(b, b'a', b'z'))));
    }
    s.push('1');
    for &v in data.iter() {
        // The character of `v`: every entry looked at, the one wanted kept.
        let mut c = 0u8;
        for (j, &ch) in CHARSET.iter().enumerate() {
            c |= ch & eq_mask(v, j as u8);
        }
        // Upper case: letters lose 0x20, digits stay.
        c ^= case & range_mask(c, b'a', b'z');
        s.push(char::from(c));
    }
    s
}

/// The 32 bytes of `token`, a Bech32 identity under `hrp` (all upper or all
/// lower case), decoded without a branch or table index on a character's
/// value; only the verdict over the whole string is branched on.
pub(super) fn decode_secret(
    kind: &'static str,
    hrp: &'static str,
    token: &[u8],
) -> Result<Zeroizing<[u8; 32]>, KeyTextError> {
    // The length and the human-readable part are public.
    if token.len() != hrp.len() + 1 + DATA_CHARS {
        let found = (token.len().saturating_sub(hrp.len() + 1 + 6) * 5) / 8;
        return Err(KeyTextError::DataLength { kind, found });
    }
    let (head, data) = token.split_at(hrp.len() + 1);
    if !head[..hrp.len()].eq_ignore_ascii_case(hrp.as_bytes()) || head[hrp.len()] != b'1' {
        return Err(KeyTextError::Checksum(kind));
    }
    let head_upper = head[0].is_ascii_uppercase();
    if head.iter().any(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() != head_upper) {
        return Err(KeyTextError::Checksum(kind));
    }
    let mut fives = Zeroizing::new([0u8; DATA_CHARS]);
    let (mut valid, mut uppers, mut lowers) = (0xffu8, 0u8, 0u8);
    for (f, &c) in fives.iter_mut().zip(data) {
        let upper = range_mask(c, b'A', b'Z');
        uppers |= upper;
        lowers |= range_mask(c, b'a', b'z');
        let lower = c | (0x20 & upper);
        let mut v = 0u8;
        let mut found = 0u8;
        for (j, &ch) in CHARSET.iter().enumerate() {
            let m = eq_mask(lower, ch);
            v |= (j as u8) & m;
            found |= m;
        }
        *f = v;
        valid &= found;
    }
    let mut chk = polymod_hrp(hrp);
    for &v in fives.iter() {
        chk = polymod_step(chk, v);
    }
    // One case throughout (the part's case is public, the data's letters not).
    let mixed = if head_upper { lowers } else { uppers };
    let checksum_ok = eq_mask((chk ^ 1) as u8, 0)
        & eq_mask(((chk ^ 1) >> 8) as u8, 0)
        & eq_mask(((chk ^ 1) >> 16) as u8, 0)
        & eq_mask(((chk ^ 1) >> 24) as u8, 0);
    // The last data value's low 4 bits are padding: zero in the one encoding.
    let padding_ok = eq_mask(fives[51] & 0x0f, 0);
    let ok = valid & !mixed & checksum_ok & padding_ok;
    if !skinny::hazmat::ct::declassify(ok == 0xff) {
        return Err(KeyTextError::Checksum(kind));
    }
    // Byte i is bits 8i.. of the values' bit string: a window of the three
    // values from bit 5 * (8i / 5) on, shifted by where the byte starts in it.
    let mut out = Zeroizing::new([0u8; 32]);
    for (i, o) in out.iter_mut().enumerate() {
        let first = i * 8 / 5;
        let mut window = 0u16;
        for k in 0..3 {
            if let Some(&v) = fives[..52].get(first + k) {
                window |= u16::from(v) << (11 - 5 * k);
            }
        }
        *o = (window >> (8 - (i * 8 - first * 5))).to_le_bytes()[0];
    }
    Ok(out)
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
