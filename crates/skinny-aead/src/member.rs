//! The six members of the family as values: [`Member`], with what sets them
//! apart (the cipher and tweakey layout, nonce and tag lengths, the prefix
//! of the domain byte) and their number in the specification.

use crate::tweakey::Layout;
use core::fmt;

/// A SKINNY-AEAD member, numbered as in the specification (M1 to M6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Member {
    /// [`SkinnyAeadM1`](crate::SkinnyAeadM1): SKINNY-128-384, 128-bit nonce and tag (the default).
    #[default]
    M1,
    /// [`SkinnyAeadM2`](crate::SkinnyAeadM2): SKINNY-128-384, 96-bit nonce, 128-bit tag.
    M2,
    /// [`SkinnyAeadM3`](crate::SkinnyAeadM3): SKINNY-128-384, 128-bit nonce, 64-bit tag.
    M3,
    /// [`SkinnyAeadM4`](crate::SkinnyAeadM4): SKINNY-128-384, 96-bit nonce, 64-bit tag.
    M4,
    /// [`SkinnyAeadM5`](crate::SkinnyAeadM5): SKINNY-128-256, 96-bit nonce, 128-bit tag.
    M5,
    /// [`SkinnyAeadM6`](crate::SkinnyAeadM6): SKINNY-128-256, 96-bit nonce, 64-bit tag.
    M6,
}

impl Member {
    /// All six, in id order.
    pub const ALL: [Member; 6] = [Member::M1, Member::M2, Member::M3, Member::M4, Member::M5, Member::M6];

    /// The member's number in the specification: 1 (M1) to 6 (M6). (Formats
    /// that name a member, such as skinny-seal's header, store this number.)
    pub const fn id(self) -> u8 {
        match self {
            Member::M1 => 1,
            Member::M2 => 2,
            Member::M3 => 3,
            Member::M4 => 4,
            Member::M5 => 5,
            Member::M6 => 6,
        }
    }

    /// The member numbered `id`, if any.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The nonce length in bytes (16 or 12).
    pub const fn nonce_len(self) -> usize {
        match self {
            Member::M1 | Member::M3 => 16,
            _ => 12,
        }
    }

    /// The tag length τ in bytes (16 or 8).
    pub const fn tag_len(self) -> usize {
        match self {
            Member::M1 | Member::M2 | Member::M5 => 16,
            _ => 8,
        }
    }

    /// The random nonce prefix's length in bytes in a sealed file: the nonce
    /// less the 4-byte chunk counter and the flag byte (11 or 7).
    pub const fn prefix_len(self) -> usize {
        self.nonce_len() - 5
    }

    /// Where the counter, domain, nonce and key sit in the tweakey (and so the
    /// SKINNY variant).
    pub(crate) const fn layout(self) -> Layout {
        match self {
            Member::M5 | Member::M6 => Layout::Tk2,
            _ => Layout::Tk3,
        }
    }

    /// ORed into every domain byte (bit 4: 96-bit nonce; bit 3: 64-bit tag).
    pub(crate) const fn prefix(self) -> u8 {
        match self {
            Member::M1 => 0x00,
            Member::M2 => 0x10,
            Member::M3 => 0x08,
            Member::M4 => 0x18,
            Member::M5 => 0x10,
            Member::M6 => 0x18,
        }
    }
}

impl fmt::Display for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SKINNY-AEAD-M{}", self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The specification's parameters of the six members, written out once
    /// more.
    #[test]
    fn the_members_are_the_specifications() {
        let table = [
            (Layout::Tk3, 16, 16, 0x00),
            (Layout::Tk3, 12, 16, 0x10),
            (Layout::Tk3, 16, 8, 0x08),
            (Layout::Tk3, 12, 8, 0x18),
            (Layout::Tk2, 12, 16, 0x10),
            (Layout::Tk2, 12, 8, 0x18),
        ];
        for (m, (layout, nonce, tag, prefix)) in Member::ALL.into_iter().zip(table) {
            assert_eq!((m.layout(), m.nonce_len(), m.tag_len(), m.prefix()), (layout, nonce, tag, prefix), "{m}");
            // The prefix's bits say the nonce and tag lengths.
            assert_eq!(m.prefix() & 0x10 != 0, nonce == 12);
            assert_eq!(m.prefix() & 0x08 != 0, tag == 8);
            assert_eq!(Member::from_id(m.id()), Some(m));
        }
        assert_eq!(Member::from_id(0), None);
        assert_eq!(Member::from_id(7), None);
    }
}
