//! The domain bytes: byte 7 of TK1 ([`tk1`](super::tk1)), which keeps the
//! calls of each scheme and phase apart. Romulus-N and -M share their values
//! and -M ORs [`MEMBER_M`] into every one; Romulus-T's are its own and carry
//! [`MEMBER_T`] already. Romulus-H has none (its TK1 is half the chaining
//! value).

/// Romulus-N: a call of the AD phase, S ← E(S) with TK2 = the second block of
/// a pair of AD blocks (after S ⊕= the first). Romulus-M (with [`MEMBER_M`]):
/// a call of the MAC whose pair's blocks are both AD blocks.
pub const DOMAIN_AD: u8 = 8;

/// Romulus-N: the AD phase's last call (TK2 = the nonce), when the last AD
/// block is full (16 bytes).
pub const DOMAIN_AD_LAST_FULL: u8 = 24;

/// Romulus-N: the AD phase's last call (TK2 = the nonce), when the last AD
/// block is partial or empty (padded; no AD is one empty block).
pub const DOMAIN_AD_LAST_PARTIAL: u8 = 26;

/// Romulus-N: the call after each message block but the last (TK2 = the
/// nonce). Romulus-M (with [`MEMBER_M`]): every call of the encryption from
/// the tag.
pub const DOMAIN_MESSAGE: u8 = 4;

/// Romulus-N: the call after the last message block (TK2 = the nonce), when
/// it is full (16 bytes).
pub const DOMAIN_MESSAGE_LAST_FULL: u8 = 20;

/// Romulus-N: the call after the last message block (TK2 = the nonce), when
/// it is partial or empty (padded; an empty message is one empty block).
pub const DOMAIN_MESSAGE_LAST_PARTIAL: u8 = 21;

/// Romulus-M (with [`MEMBER_M`]): a call of the MAC whose pair's second block
/// (its TK2) is a message block; the first may be the last AD block.
pub const DOMAIN_PAIR_WITH_MESSAGE: u8 = 12;

/// Romulus-M's member bit, ORed into every one of its domain bytes.
pub const MEMBER_M: u8 = 32;

/// Romulus-T's member bit, part of every one of its domain bytes.
pub const MEMBER_T: u8 = 64;

/// Romulus-T: a keystream block, the nonce encrypted with the block's counter,
/// TK2 = 0 and TK3 = the block key (0 | 64).
pub const DOMAIN_T_KEYSTREAM: u8 = MEMBER_T;

/// Romulus-T: the next block key, the nonce encrypted with the block's
/// counter, TK2 = 0 and TK3 = the current block key (1 | 64).
pub const DOMAIN_T_NEXT_KEY: u8 = 1 | MEMBER_T;

/// Romulus-T: the first block key, the nonce encrypted with counter 0, TK2 = 0
/// and TK3 = the key (2 | 64).
pub const DOMAIN_T_FIRST_KEY: u8 = 2 | MEMBER_T;

/// Romulus-T: the tag, the hash's first half encrypted with counter 0, TK2 =
/// its second half and TK3 = the key (4 | 64).
pub const DOMAIN_T_TAG: u8 = 4 | MEMBER_T;

/// Romulus-M: the domain byte of the MAC's last call (TK2 = the nonce) for
/// `ad_len` bytes of AD and a message of `msg_len` bytes, [`MEMBER_M`]
/// included: 16, plus 8 if the AD parses into an even number of blocks, 4 if
/// the message does, 2 if the last AD block is partial or empty, 1 if the last
/// message block is.
pub const fn domain_m_mac_last(ad_len: usize, msg_len: usize) -> u8 {
    let (a, a_last) = super::blocks(ad_len);
    let (m, m_last) = super::blocks(msg_len);
    let mut w = 16 | MEMBER_M;
    if a.is_multiple_of(2) {
        w |= 8;
    }
    if m.is_multiple_of(2) {
        w |= 4;
    }
    if a_last < super::BLOCK {
        w |= 2;
    }
    if m_last < super::BLOCK {
        w |= 1;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::encoding::{domain, MEMBER_M as REF_MEMBER_M, MEMBER_T as REF_MEMBER_T};

    #[test]
    fn the_shared_domains_are_the_specifications() {
        assert_eq!(DOMAIN_AD, domain::AD);
        assert_eq!(DOMAIN_AD_LAST_FULL, domain::AD_LAST_FULL);
        assert_eq!(DOMAIN_AD_LAST_PARTIAL, domain::AD_LAST_PARTIAL);
        assert_eq!(DOMAIN_MESSAGE, domain::MSG);
        assert_eq!(DOMAIN_MESSAGE_LAST_FULL, domain::MSG_LAST_FULL);
        assert_eq!(DOMAIN_MESSAGE_LAST_PARTIAL, domain::MSG_LAST_PARTIAL);
        assert_eq!((MEMBER_M, MEMBER_T), (REF_MEMBER_M, REF_MEMBER_T));
    }

    #[test]
    fn the_last_mac_domain_counts_blocks_and_partial_ends() {
        // No AD, no message: one empty block each (odd counts, both partial).
        assert_eq!(domain_m_mac_last(0, 0), 32 | 16 | 2 | 1);
        assert_eq!(domain_m_mac_last(16, 16), 32 | 16);
        assert_eq!(domain_m_mac_last(32, 17), 32 | 16 | 8 | 4 | 1);
        assert_eq!(domain_m_mac_last(31, 48), 32 | 16 | 8 | 2);
    }
}
