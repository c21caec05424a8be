//! The specification, written to be read: Romulus v1.3 as its pseudocode states
//! it (Iwata, Khairallah, Minematsu, Peyrin, *Romulus v1.3*, 2021, sections 2-3),
//! block by block, with SKINNY-128-384+ from `skinny`'s specification code
//! (`skinny::hazmat::spec`) and a whole tweakey schedule per call.
//!
//! It is the oracle the fast code is tested against (every known-answer test
//! runs on both, and random inputs must give the same bytes), not the code to
//! use: it is slow (the block counter is recomputed from 1 for every call) and
//! makes no effort to wipe its temporaries. It is constant time all the same
//! (no table, no branch on data).
//!
//! Like the product code it works in place without an allocator: `encrypt`
//! turns `buffer` from message into ciphertext and returns the tag; `decrypt`
//! does the reverse, and on a wrong tag fills `buffer` with zeros. The hash takes
//! its input as a list of pieces, hashed as their concatenation (Romulus-T
//! hashes the AD, the ciphertext, the nonce and a counter together).
//!
//! - [`encoding`]: the pieces every scheme shares: the 56-bit LFSR block counter,
//!   the tweakey encoding with its domain byte, the feedback function ρ and its
//!   G, the padding, the parsing into blocks; and SKINNY-128-384+ itself.
//! - [`romulus_n`], [`romulus_m`], [`romulus_t`]: the three AEAD schemes.
//! - [`romulus_h`]: the hash.

pub mod encoding;
pub mod romulus_h;
pub mod romulus_m;
pub mod romulus_n;
pub mod romulus_t;

pub use aead::Error;

/// Compares two tags without an early exit (the specification's comparison).
fn tags_equal(a: &[u8; 16], b: &[u8]) -> bool {
    let mut diff = u8::from(b.len() != 16);
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    diff == 0
}
