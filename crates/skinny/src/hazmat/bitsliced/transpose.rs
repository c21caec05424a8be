//! Into and out of bitsliced form: a 64×64 bit-matrix transposition, done in every
//! lane of a [`Word`] at once.
//!
//! Word `i` holds 64 bits of block `i` (one half of a 128-bit block, or a whole
//! 64-bit block, read little-endian); after the transposition word `j` holds bit
//! `j` of all 64 blocks. The transposition is its own inverse.

use super::word::Word;

/// Swaps, between the pairs of rows `k` and `k + s` (`k & s == 0`), the bits of
/// row `k` at columns with bit `s` set and the bits of row `k + s` at columns with
/// it clear: one level of the recursive block transposition.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn swap_level<W: Word>(m: &mut [W; 64], s: usize, low_mask: u64) {
    let mask = W::splat(low_mask);
    // Every mask here is its complement shifted: `low_mask << s == !low_mask`.
    let high = W::splat(low_mask << s);
    for k in 0..64 {
        if k & s == 0 {
            let (a, b) = (m[k], m[k + s]);
            if W::TERNARY {
                // Two shifts and two bit selects (one instruction each): 4
                // operations a swap instead of 6.
                m[k + s] = b.blend(a.shr(s as u32), mask);
                m[k] = a.blend(b.shl(s as u32), high);
            } else {
                let t = a.shr(s as u32).xor(b).and(mask);
                m[k + s] = b.xor(t);
                m[k] = a.xor(t.shl(s as u32));
            }
        }
    }
}

/// Transposes the 64×64 bit matrix in every lane: bit `j` of word `i` trades
/// places with bit `i` of word `j`.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn transpose64<W: Word>(m: &mut [W; 64]) {
    swap_level(m, 32, 0x0000_0000_ffff_ffff);
    swap_level(m, 16, 0x0000_ffff_0000_ffff);
    swap_level(m, 8, 0x00ff_00ff_00ff_00ff);
    swap_level(m, 4, 0x0f0f_0f0f_0f0f_0f0f);
    swap_level(m, 2, 0x3333_3333_3333_3333);
    swap_level(m, 1, 0x5555_5555_5555_5555);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposes_a_bit_matrix() {
        let mut m = [0u64; 64];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for w in m.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *w = x;
        }
        let orig = m;
        transpose64(&mut m);
        for i in 0..64 {
            for j in 0..64 {
                assert_eq!((m[j] >> i) & 1, (orig[i] >> j) & 1, "bit {i},{j}");
            }
        }
        transpose64(&mut m);
        assert_eq!(m, orig);
    }
}
