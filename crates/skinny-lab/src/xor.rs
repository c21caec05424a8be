//! XOR of byte strings, for differences.

/// `a ^ b`, as long as the shorter.
pub(crate) fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// Every `diff.len()`-byte block of `data` XORed with `diff`.
pub(crate) fn xor_each_block(data: &mut [u8], diff: &[u8]) {
    for block in data.chunks_exact_mut(diff.len()) {
        for (x, d) in block.iter_mut().zip(diff) {
            *x ^= d;
        }
    }
}
