//! The members' tweakey encodings, for engines outside this crate that run the
//! block calls of many messages together (`skinny-many` bitslices the calls of
//! thousands of messages, each with its own key and nonce, in one batch).
//!
//! Hazardous: these are the raw pieces of the mode (see the crate docs for how
//! they fit), with no check that a counter is used once; a wrong use breaks
//! the scheme. Use [`SkinnyAead`](crate::SkinnyAead) unless you are writing
//! such an engine, and test it against it.

use crate::member::Member;
use crate::mode;
use crate::tweakey::{self, BlockTweak};
use skinny::Variant;
use zeroize::Zeroizing;

/// Domain bits of a full message block (before the member's prefix).
pub const DOMAIN_MESSAGE: u8 = mode::D_MSG;
/// ... of the pad of a partial last message block.
pub const DOMAIN_MESSAGE_PARTIAL: u8 = mode::D_MSG_PARTIAL;
/// ... of a full AD block.
pub const DOMAIN_AD: u8 = mode::D_AD;
/// ... of a partial last AD block (padded with 0x80 0*).
pub const DOMAIN_AD_PARTIAL: u8 = mode::D_AD_PARTIAL;
/// ... of the tag block when the message ends on a block boundary.
pub const DOMAIN_TAG: u8 = mode::D_TAG;
/// ... of the tag block after a partial message block.
pub const DOMAIN_TAG_PARTIAL: u8 = mode::D_TAG_PARTIAL;

/// The SKINNY variant of `member` (run at its full round count).
pub const fn variant(member: Member) -> Variant {
    member.layout().variant()
}

/// The domain byte of a block: `domain` (one of the `DOMAIN_*` constants)
/// with the member's prefix ORed in.
pub const fn domain_byte(member: Member, domain: u8) -> u8 {
    member.prefix() | domain
}

/// The block counter's first value (the LFSR starts at 1).
pub const COUNTER_START: u64 = 1;

/// The block counter one step after `counter` (64-bit LFSR for M1-M4, 24-bit
/// for M5-M6).
pub const fn counter_step(member: Member, counter: u64) -> u64 {
    tweakey::lfsr_step(member.layout().counter_bits(), counter)
}

/// Whether a message of `msg_len` bytes with `ad_len` bytes of AD fits the
/// member's counter (always, in practice, for M1-M4; about 256 MiB each for
/// M5-M6). The AEAD types refuse what does not.
pub fn lengths_fit(member: Member, msg_len: usize, ad_len: usize) -> bool {
    member.check_lengths(msg_len, ad_len).is_ok()
}

/// The tweakey of `member` under `key` and `nonce` (the member's nonce length)
/// with the counter and domain slots zero: [`variant`]`(member).tweakey_bytes()`
/// bytes (TK1 ‖ TK2 ‖ TK3; 32 for M5-M6, whose last 16 bytes here are zero).
/// Fill the slots with [`set_counter_and_domain`].
///
/// # Panics
/// If `nonce` is not the member's nonce length.
pub fn base_tweakey(member: Member, key: &[u8; 16], nonce: &[u8]) -> Zeroizing<[u8; 48]> {
    assert_eq!(nonce.len(), member.nonce_len(), "the member's nonce length");
    Zeroizing::new(member.layout().base_tweakey(key, nonce))
}

/// Writes a block's counter and domain byte (from [`domain_byte`]) into its
/// tweakey, or into its TK1 alone: both live in the first 16 bytes.
///
/// # Panics
/// If `tweakey` is shorter than 16 bytes.
pub fn set_counter_and_domain(member: Member, tweakey: &mut [u8], counter: u64, domain_byte: u8) {
    member.layout().set_tweak(&mut tweakey[..16], BlockTweak { counter, domain: domain_byte });
}
