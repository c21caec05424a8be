//! Romulus-H, the hash (specification, Algorithm "Romulus-H"): MDPH, a
//! Merkle-Damgård chain of Hirose's double-block-length compression function
//! over SKINNY-128-384+, with a 256-bit state (L, R) and 256-bit message blocks.

use super::encoding::{skinny_plus, BLOCK};

/// Bytes in a message block of the hash (two cipher blocks: TK2 ‖ TK3).
pub const HASH_BLOCK: usize = 32;

/// The compression function CF(L, R, B): with the tweakey R ‖ B (TK1 = R,
/// TK2 ‖ TK3 = B), L' = E(L) ⊕ L and R' = E(L ⊕ 1) ⊕ L ⊕ 1, where "⊕ 1" flips
/// the lowest bit of the first byte.
pub fn compress(l: &[u8; BLOCK], r: &[u8; BLOCK], b: &[u8; HASH_BLOCK]) -> ([u8; BLOCK], [u8; BLOCK]) {
    let mut tk = [0u8; 48];
    tk[..BLOCK].copy_from_slice(r);
    tk[BLOCK..].copy_from_slice(b);
    let mut l1 = *l;
    l1[0] ^= 1;
    let mut new_l = skinny_plus(&tk, l);
    let mut new_r = skinny_plus(&tk, &l1);
    for k in 0..BLOCK {
        new_l[k] ^= l[k];
        new_r[k] ^= l1[k];
    }
    (new_l, new_r)
}

/// The hash of the concatenation of `parts`: the input padded with zeros and a
/// last byte |X| mod 32 to a whole number of 32-byte blocks (always at least one
/// byte added, so a whole input gets a block of zeros), L = R = 0^n, every block
/// through [`compress`], with L's first byte XORed with 2 before the last one;
/// the hash is L ‖ R.
pub fn hash(parts: &[&[u8]]) -> [u8; 32] {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let blocks = len / HASH_BLOCK + 1;
    let byte = |pos: usize| -> u8 {
        if pos == blocks * HASH_BLOCK - 1 {
            return (len % HASH_BLOCK) as u8;
        }
        let mut at = pos;
        for part in parts {
            if at < part.len() {
                return part[at];
            }
            at -= part.len();
        }
        0
    };
    let (mut l, mut r) = ([0u8; BLOCK], [0u8; BLOCK]);
    for j in 0..blocks {
        let mut b = [0u8; HASH_BLOCK];
        for (k, x) in b.iter_mut().enumerate() {
            *x = byte(j * HASH_BLOCK + k);
        }
        if j == blocks - 1 {
            l[0] ^= 2;
        }
        (l, r) = compress(&l, &r, &b);
    }
    let mut out = [0u8; 32];
    out[..BLOCK].copy_from_slice(&l);
    out[BLOCK..].copy_from_slice(&r);
    out
}
