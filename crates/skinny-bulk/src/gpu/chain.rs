//! The chaining inputs of the kernels: a block as the four words a launch
//! takes, and the chaining block of a piece that starts inside a call (the
//! counter moved on, or the ciphertext block before it).

use super::kernels::Op;
use skinny::counter::Counter;

/// Little-endian words of a block (8 or 16 bytes), zero-padded to four.
pub(crate) fn block_words(b: &[u8]) -> [u32; 4] {
    let mut w = [0u32; 4];
    for (i, c) in b.chunks_exact(4).enumerate().take(4) {
        w[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    w
}

/// The counter block `n` blocks after `ctr` (8 or 16 bytes, checked by the caller).
pub(crate) fn counter_plus(ctr: &[u8], n: u64) -> Vec<u8> {
    let next = Counter::from_block(ctr).map_or_else(|_| [0; 16], |c| c.add(n).to_block());
    next[..ctr.len()].to_vec()
}

/// The chaining input of the part of `data` that starts at byte `start` (a
/// multiple of `block`), read before anything is written: the counter `iv`
/// advanced by the blocks before it (CTR), the ciphertext block just before it
/// or `iv` for the first (CBC and CFB decryption), `iv` itself (ECB).
pub(crate) fn chain_at(op: Op, iv: &[u8], data: &[u8], start: usize, block: usize) -> Vec<u8> {
    match op {
        Op::Ctr => counter_plus(iv, (start / block) as u64),
        Op::CbcDecrypt | Op::CfbDecrypt if start >= block => data[start - block..start].to_vec(),
        _ => iv.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_words_are_little_endian() {
        assert_eq!(block_words(&[1, 2, 3, 4, 5, 6, 7, 8]), [0x0403_0201, 0x0807_0605, 0, 0]);
    }
}
