//! The two members of the family as values: [`Member`], with the numbers that
//! set them apart (the cipher, the state and the rate).

use core::fmt;
use core::str::FromStr;
use skinny::Variant;

/// A SKINNY-Hash member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Member {
    /// [`SkinnyTk3Hash`](crate::SkinnyTk3Hash), the primary member: SKINNY-128-384,
    /// a 384-bit state, a 128-bit rate.
    #[default]
    Tk3,
    /// [`SkinnyTk2Hash`](crate::SkinnyTk2Hash): SKINNY-128-256, a 256-bit state,
    /// a 32-bit rate.
    Tk2,
}

/// Bytes in a SKINNY-Hash digest (both members).
pub const DIGEST_BYTES: usize = 32;

/// Bytes of the state that each squeeze outputs (both members): one SKINNY
/// block. SKINNY-tk2-Hash squeezes at a higher rate than it absorbs.
pub(crate) const SQUEEZE_BYTES: usize = 16;

/// The largest state of the two (SKINNY-tk3-Hash's), in bytes: the size of
/// the state buffers (a smaller state uses their first bytes).
pub const MAX_STATE_BYTES: usize = 48;

/// The largest rate of the two (SKINNY-tk3-Hash's), in bytes.
pub(crate) const MAX_RATE_BYTES: usize = 16;

impl Member {
    /// Both, the primary member first.
    pub const ALL: [Member; 2] = [Member::Tk3, Member::Tk2];

    /// The lower-case name, e.g. `skinny-tk3-hash` (what [`FromStr`] reads).
    pub const fn name(self) -> &'static str {
        match self {
            Member::Tk3 => "skinny-tk3-hash",
            Member::Tk2 => "skinny-tk2-hash",
        }
    }

    /// The SKINNY variant whose tweakey is the whole state.
    pub const fn variant(self) -> Variant {
        match self {
            Member::Tk3 => Variant::Skinny128_384,
            Member::Tk2 => Variant::Skinny128_256,
        }
    }

    /// The state in bytes (48 or 32): the variant's tweakey.
    pub const fn state_bytes(self) -> usize {
        match self {
            Member::Tk3 => 48,
            Member::Tk2 => 32,
        }
    }

    /// Message bytes absorbed per permutation call (16 or 4).
    pub const fn rate_bytes(self) -> usize {
        match self {
            Member::Tk3 => 16,
            Member::Tk2 => 4,
        }
    }

    /// The capacity in bytes while absorbing (32 or 28).
    pub const fn capacity_bytes(self) -> usize {
        self.state_bytes() - self.rate_bytes()
    }

    /// SKINNY encryptions per permutation call (3 or 2): one per 128-bit
    /// block of the state.
    pub const fn blocks(self) -> usize {
        self.state_bytes() / 16
    }

    /// The security level in bits that the submission claims (128 or 112):
    /// half the absorbing capacity.
    pub const fn security_bits(self) -> usize {
        self.capacity_bytes() * 8 / 2
    }
}

impl fmt::Display for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Member::Tk3 => "SKINNY-tk3-Hash",
            Member::Tk2 => "SKINNY-tk2-Hash",
        })
    }
}

/// A name that is not a SKINNY-Hash member's (see [`Member::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownMember;

impl fmt::Display for UnknownMember {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown SKINNY-Hash member (expected skinny-tk3-hash or skinny-tk2-hash)")
    }
}

impl core::error::Error for UnknownMember {}

impl FromStr for Member {
    type Err = UnknownMember;

    /// Reads [`Member::name`], ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL.into_iter().find(|m| m.name().eq_ignore_ascii_case(s)).ok_or(UnknownMember)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    /// The specification's parameters, written out once more.
    #[test]
    fn the_members_are_the_specifications() {
        let table = [(Variant::Skinny128_384, 48, 16, 32, 3, 128), (Variant::Skinny128_256, 32, 4, 28, 2, 112)];
        for (m, row) in Member::ALL.into_iter().zip(table) {
            let got = (m.variant(), m.state_bytes(), m.rate_bytes(), m.capacity_bytes(), m.blocks(), m.security_bits());
            assert_eq!(got, row, "{m}");
            assert_eq!(m.variant().tweakey_bytes(), m.state_bytes(), "{m}: the state is the tweakey");
            assert!(m.state_bytes() <= MAX_STATE_BYTES && m.rate_bytes() <= MAX_RATE_BYTES);
            assert_eq!(m.name().parse::<Member>(), Ok(m));
            assert_eq!(m.to_string().parse::<Member>(), Ok(m), "the display name, any case");
        }
        assert_eq!("skinny-tk1-hash".parse::<Member>(), Err(UnknownMember));
        assert_eq!(Member::default(), Member::Tk3);
    }
}
