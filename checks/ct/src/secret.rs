//! Inputs marked secret and results declassified, for memcheck (through
//! `skinny::hazmat::ct`'s client requests; no-ops on a real CPU).

use skinny::hazmat::ct;

/// `len` pseudo-random bytes (SplitMix64 from `seed`): public, defined.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

/// [`bytes`], marked secret (a key, a tweakey, a plaintext).
pub fn secret(seed: u64, len: usize) -> Vec<u8> {
    let v = bytes(seed, len);
    ct::mark_secret(&v);
    v
}

/// A copy of `plain` marked secret (the copy keeps the values).
pub fn secret_copy(plain: &[u8]) -> Vec<u8> {
    let v = plain.to_vec();
    ct::mark_secret(&v);
    v
}

/// Declassifies a result that is released anyway (a ciphertext, a tag, a
/// digest, or a plaintext the check compares), so the check's own
/// comparisons on it are not reported.
pub fn public(x: &[u8]) {
    ct::mark_public(x);
}

/// Declassifies `got` and asserts it equals `want` (which is public).
pub fn same(got: &[u8], want: &[u8], what: &str) {
    public(got);
    assert!(got == want, "{what}: differs");
}
