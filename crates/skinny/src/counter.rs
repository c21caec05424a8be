//! CTR counters: one big-endian integer of a block's width (8 or 16 bytes), +1 per
//! block, wrapping modulo 2^(8·width), as RustCrypto's `Ctr64BE`/`Ctr128BE` and
//! OpenSSL's AES-CTR count. Shared by every backend that generates counter blocks
//! itself (the bulk layer's CPU backend, the CUDA host code).

/// Adds `n` to the big-endian counter `ctr` in place, modulo 2^(8·len).
pub fn counter_add(ctr: &mut [u8], n: u64) {
    let mut carry = u128::from(n);
    for b in ctr.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let s = u128::from(*b) + (carry & 0xff);
        *b = s as u8;
        carry = (carry >> 8) + (s >> 8);
    }
}

/// Writes the counter blocks `ctr, ctr + 1, ...` into `out` (whole blocks of
/// `ctr.len()` bytes; a trailing partial block is left untouched).
///
/// # Panics
/// If `ctr` is longer than 16 bytes.
pub fn fill_counter_blocks(ctr: &[u8], out: &mut [u8]) {
    let bs = ctr.len();
    let mut c = [0u8; 16];
    c[..bs].copy_from_slice(ctr);
    for block in out.chunks_exact_mut(bs) {
        block.copy_from_slice(&c[..bs]);
        counter_add(&mut c[..bs], 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_carry_across_bytes_and_wrap() {
        let mut c = [0, 0, 0xff, 0xff];
        counter_add(&mut c, 1);
        assert_eq!(c, [0, 1, 0, 0]);
        let mut c = [0xff; 8];
        counter_add(&mut c, 2);
        assert_eq!(c, [0, 0, 0, 0, 0, 0, 0, 1]);
        // Across the 64-bit halves of a 128-bit counter.
        let mut c = [0u8; 16];
        c[8..].fill(0xff);
        counter_add(&mut c, u64::MAX);
        assert_eq!(&c[..8], &[0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(&c[8..], &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]);
        let mut blocks = [0u8; 24];
        fill_counter_blocks(&[0xff; 8], &mut blocks);
        assert_eq!(&blocks[8..16], &[0u8; 8]);
        assert_eq!(&blocks[16..24], &[0, 0, 0, 0, 0, 0, 0, 1]);
    }
}
