//! PKCS#7 padding removal in constant time.
//!
//! The last block of a padded message is secret plaintext, so the check reads
//! every byte of it whatever its value: no branch and no memory index depends
//! on the padding byte or on where a wrong byte lies. Only the verdict (the
//! caller learns it from the `Result`) and then the padding length (the
//! message's length, which the caller receives) are revealed, in that order,
//! at the end; both are declassified for the constant-time check
//! (`skinny::hazmat::ct::declassify`). `block-padding`'s `Pkcs7::raw_unpad`,
//! which branches on the padding byte and stops at the first wrong one, gives
//! the same answers (tested against it below).

use skinny::hazmat::ct::declassify;

/// How many bytes of `block` (one whole block of at most 255 bytes) come
/// before its PKCS#7 padding, or `None` when the padding is wrong: the last
/// byte `n` must be 1 to the block's length and the last `n` bytes all `n`.
pub(crate) fn unpadded_len(block: &[u8]) -> Option<usize> {
    debug_assert!(!block.is_empty() && block.len() <= 255);
    let n = u32::from(block[block.len() - 1]);
    // Every value below is 0 or 1 (and all are under 2^31, which `below` needs).
    let mut bad = (below(0, n) ^ 1) | below(block.len() as u32, n);
    for (i, &b) in block.iter().rev().enumerate() {
        let in_padding = below(i as u32, n);
        bad |= in_padding & below(0, u32::from(b) ^ n);
    }
    if !declassify(bad == 0) {
        return None;
    }
    Some(block.len() - usize::from(declassified(n)))
}

/// 1 when `a < b`, else 0, without a branch (both below 2^31).
fn below(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b) >> 31
}

/// A secret byte that becomes public here (a verified padding length), told
/// public to the constant-time check bit by bit through `declassify`; the
/// identity.
fn declassified(n: u32) -> u8 {
    (0..8).fold(0u8, |acc, bit| acc | (u8::from(declassify((n >> bit) & 1 == 1)) << bit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cipher::block_padding::{Padding as _, Pkcs7};

    /// `block-padding`'s answer: the kept length, or `None`.
    fn reference(block: &[u8]) -> Option<usize> {
        Pkcs7::raw_unpad(block).ok().map(<[u8]>::len)
    }

    /// Every last byte value, with the padding whole and with each byte of the
    /// block changed in turn (and with a changed byte equal to the padding's
    /// value, which is then still right), for 8- and 16-byte blocks: the same
    /// verdicts and lengths as `block-padding`.
    #[test]
    fn same_answers_as_block_padding() {
        let mut checked = 0;
        for bs in [1usize, 8, 16] {
            for n in 0..=255u8 {
                let mut block: Vec<u8> = (0..bs).map(|i| (i as u8).wrapping_mul(37) ^ 0x5c).collect();
                let pad = usize::from(n).min(bs);
                for b in &mut block[bs - pad..] {
                    *b = n;
                }
                assert_eq!(unpadded_len(&block), reference(&block), "bs {bs}, n {n}");
                for at in 0..bs {
                    for flip in [1u8, 0x80, n ^ block[at]] {
                        let mut changed = block.clone();
                        changed[at] ^= flip;
                        assert_eq!(unpadded_len(&changed), reference(&changed), "bs {bs}, n {n}, byte {at}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 256 * 3 * (1 + 8 + 16));
    }

    #[test]
    fn valid_and_invalid_examples() {
        assert_eq!(unpadded_len(&[0x61, 0x62, 0x63, 0x64, 4, 4, 4, 4]), Some(4));
        assert_eq!(unpadded_len(&[8; 8]), Some(0));
        assert_eq!(unpadded_len(&[0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 1]), Some(7));
        assert_eq!(unpadded_len(&[0x61, 0x62, 0x63, 0x64, 4, 3, 4, 4]), None);
        assert_eq!(unpadded_len(&[0x61, 0x62, 0x63, 0x64, 4, 4, 4, 0]), None);
        assert_eq!(unpadded_len(&[9; 8]), None);
        assert_eq!(unpadded_len(&[3, 4, 4, 4, 4, 4, 4, 4]), Some(4));
    }
}
