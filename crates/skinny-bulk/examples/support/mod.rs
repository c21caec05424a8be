//! Helpers shared by the measuring examples (`mod support;`): not an example
//! of its own (Cargo builds only the files directly in `examples/`).

/// The median of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `len` pseudo-random bytes (xorshift from `x`): data for timing, not keys.
pub fn random(len: usize, mut x: u64) -> Vec<u8> {
    let mut v = vec![0u8; len];
    for c in v.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let b = x.to_le_bytes();
        c.copy_from_slice(&b[..c.len()]);
    }
    v
}
