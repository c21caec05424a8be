//! Romulus's linear work on states in the sliced layout of
//! [`skinny::hazmat::bitsliced::Lockstep`]: slice `8·c + b` (of `sb` bytes)
//! holds bit `b` of byte `c` of every lane, so a XOR of states is a XOR of
//! buffers, G (per byte (x7 .. x0) → (x0 ⊕ x7, x7, .., x1)) renames slices
//! and adds one XOR a byte.
//! Plain byte loops: the compiler vectorises them.

/// `acc ^= x`, lane by lane.
pub(super) fn xor_into(acc: &mut [u8], x: &[u8]) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a ^= b;
    }
}

/// `y = G(s) ⊕ x` (`x` None: `y = G(s)`), lane by lane.
pub(super) fn g_xor(s: &[u8], x: Option<&[u8]>, y: &mut [u8], sb: usize) {
    let slice = |buf: &[u8], k: usize| -> core::ops::Range<usize> {
        debug_assert!(buf.len() >= (k + 1) * sb);
        k * sb..(k + 1) * sb
    };
    for c in 0..16 {
        for b in 0..8 {
            let out = &mut y[slice(s, 8 * c + b)];
            // Bit b of G's byte is bit b + 1 of S's; bit 7 is bits 0 and 7.
            let from = if b < 7 { 8 * c + b + 1 } else { 8 * c };
            out.copy_from_slice(&s[slice(s, from)]);
            if b == 7 {
                xor_into(out, &s[slice(s, 8 * c + 7)]);
            }
            if let Some(x) = x {
                xor_into(out, &x[slice(x, 8 * c + b)]);
            }
        }
    }
}
