//! The positive controls: two functions that leak a key byte the two ways
//! memcheck can see, and a MAC compared with `==`, which
//! `scripts/checks/ct-valgrind.sh` runs in separate invocations that must fail. If
//! one ran clean, the client requests or the build would be hiding leaks, and
//! the clean run of the real checks would prove nothing.

use crate::secret;
use std::hint::black_box;

/// An S-box table: a lookup indexed by a key byte is a secret memory index
/// ("Use of uninitialised value of size 8" at the address computation).
static TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).wrapping_mul(167).rotate_left(3) ^ 0x5a;
        i += 1;
    }
    t
};

/// Looks every key byte up in [`TABLE`].
pub fn table_lookup() {
    let key = secret::secret(0x1ea4, 16);
    let mut acc = 0u8;
    for &k in &key {
        acc ^= black_box(&TABLE)[usize::from(k)];
    }
    secret::public(std::slice::from_ref(&acc));
    black_box(acc);
}

/// Does more work when the key's lowest bit is set: a secret branch
/// ("Conditional jump or move depends on uninitialised value(s)"). The work
/// is opaque (`black_box` in a loop), so the compiler cannot turn the
/// branch into a conditional move.
pub fn key_branch() {
    let key = secret::secret(0xb4a2, 16);
    if key[0] & 1 == 1 {
        extra_work();
    }
    black_box(&key);
}

#[inline(never)]
fn extra_work() {
    for i in 0..64u32 {
        black_box(i);
    }
}

/// Compares a computed 32-byte MAC with a received one by `==` (which stops
/// at the first differing byte, or branches on a vector comparison's mask):
/// what the header MAC's check must not be. Only the computed MAC is secret.
pub fn mac_compare() {
    let computed = secret::secret(0xc0de, 32);
    let mut received = secret::bytes(0xc0de, 32);
    received[31] ^= 1;
    let equal = black_box(computed.as_slice()) == black_box(received.as_slice());
    black_box(equal);
}
