//! Romulus's encoding, for engines outside this crate that run the
//! SKINNY-128-384+ calls of Romulus messages their own way (`skinny-many`
//! bitslices the calls of thousands of messages, each with its own key and
//! nonce, in one batch); and a hook for tests and benchmarks
//! ([`force_single_block_path`]).
//!
//! Hazardous: these are the raw pieces of the modes (the crate docs say how
//! they fit), the very items this crate's own modes are built on, with no
//! check that a counter value is used once under a key and nonce or that a
//! domain byte belongs to its call. A wrong use breaks the scheme and voids
//! its security claims. Use [`RomulusN`](crate::RomulusN),
//! [`RomulusM`](crate::RomulusM), [`RomulusT`](crate::RomulusT) or
//! [`RomulusH`](crate::RomulusH) unless you are writing such an engine, and
//! test it against them.
//!
//! # A call
//!
//! Every call of SKINNY-128-384+ ([`ROUNDS`] rounds of SKINNY-128-384)
//! encrypts one [`BLOCK`]-byte block under the tweakey TK1 ‖ TK2 ‖ TK3, where
//! TK1 = [`tk1`]`(counter, domain)`: the 56-bit [`Counter`] (stepped once per
//! block parsed, from [`Counter::new`]) and a domain byte (the `DOMAIN_*`
//! constants) that tells the calls of the schemes and their phases apart.
//! Romulus-N and -M take TK2 = the nonce or an AD block (or, in -M's MAC, a
//! message block) and TK3 = the key. Strings are parsed into blocks by
//! [`blocks`] and [`padded_block`] (the empty string is one empty block);
//! [`lengths_fit`] says whether a message may be sealed at all. The state goes
//! through [`g`] for every output block and for the tag.

mod domain;
pub(crate) mod encoding;

pub use domain::{
    domain_m_mac_last, DOMAIN_AD, DOMAIN_AD_LAST_FULL, DOMAIN_AD_LAST_PARTIAL, DOMAIN_MESSAGE,
    DOMAIN_MESSAGE_LAST_FULL, DOMAIN_MESSAGE_LAST_PARTIAL, DOMAIN_PAIR_WITH_MESSAGE, DOMAIN_T_FIRST_KEY,
    DOMAIN_T_KEYSTREAM, DOMAIN_T_NEXT_KEY, DOMAIN_T_TAG, MEMBER_M, MEMBER_T,
};
pub use encoding::{blocks, g, g128, lengths_fit, pad, padded_block, tk1, Counter, BLOCK, MAX_BLOCKS, ROUNDS};
pub use skinny::hazmat::single::{Path, PathUnavailable};

/// Makes every SKINNY-128-384+ call of this crate, in every thread, run `path`
/// (`None`: `skinny`'s own choice, [`Path::best_for`] with the fixed part
/// expanded for it). Every path gives the same bytes; a forced path other than
/// that choice builds each call's round tweakeys first, so it is slower. For
/// tests that run the known answers on each path, and for benchmarks.
///
/// # Errors
/// [`PathUnavailable`] if this CPU cannot run `path` (nothing changes).
pub fn force_single_block_path(path: Option<Path>) -> Result<(), PathUnavailable> {
    if let Some(p) = path {
        if !p.is_available() {
            return Err(PathUnavailable(p));
        }
    }
    crate::tbc::force(path);
    Ok(())
}
