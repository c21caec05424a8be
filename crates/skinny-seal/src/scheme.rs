//! The AEAD schemes a sealed file's payload can use, by their id in the header.

/// An AEAD scheme of the payload. The id is the header's scheme byte (v1 files
/// know only 1..6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// SKINNY-AEAD-M1 (SKINNY-128-384, 128-bit nonce, 128-bit tag): the default.
    M1,
    /// SKINNY-AEAD-M2 (SKINNY-128-384, 96-bit nonce, 128-bit tag).
    M2,
    /// SKINNY-AEAD-M3 (SKINNY-128-384, 128-bit nonce, 64-bit tag).
    M3,
    /// SKINNY-AEAD-M4 (SKINNY-128-384, 96-bit nonce, 64-bit tag).
    M4,
    /// SKINNY-AEAD-M5 (SKINNY-128-256, 96-bit nonce, 128-bit tag).
    M5,
    /// SKINNY-AEAD-M6 (SKINNY-128-256, 96-bit nonce, 64-bit tag).
    M6,
    /// Romulus-N (SKINNY-128-384+, 128-bit nonce, 128-bit tag).
    RomulusN,
    /// Romulus-M (SKINNY-128-384+, 128-bit nonce, 128-bit tag; misuse resistant, two passes).
    RomulusM,
}

impl Scheme {
    /// Every scheme, in id order.
    pub const ALL: [Scheme; 8] =
        [Scheme::M1, Scheme::M2, Scheme::M3, Scheme::M4, Scheme::M5, Scheme::M6, Scheme::RomulusN, Scheme::RomulusM];

    /// The header's scheme byte.
    pub fn id(self) -> u8 {
        match self {
            Scheme::M1 => 1,
            Scheme::M2 => 2,
            Scheme::M3 => 3,
            Scheme::M4 => 4,
            Scheme::M5 => 5,
            Scheme::M6 => 6,
            Scheme::RomulusN => 7,
            Scheme::RomulusM => 8,
        }
    }

    /// The scheme as skinny-aead's member, for SKINNY-AEAD schemes (`None`
    /// for Romulus).
    pub(crate) fn aead_member(self) -> Option<skinny_aead::Member> {
        skinny_aead::Member::from_id(self.id()).filter(|_| !matches!(self, Scheme::RomulusN | Scheme::RomulusM))
    }

    /// The scheme with header byte `id`, if any.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Tag length in bytes.
    pub fn tag_len(self) -> usize {
        match self {
            Scheme::M3 | Scheme::M4 | Scheme::M6 => 8,
            _ => 16,
        }
    }

    /// Nonce length in bytes.
    pub fn nonce_len(self) -> usize {
        match self {
            Scheme::M1 | Scheme::M3 | Scheme::RomulusN | Scheme::RomulusM => 16,
            _ => 12,
        }
    }

    /// Whether the tag is 64 bits: such files open only when the caller names the
    /// scheme (no downgrade from a 128-bit tag).
    pub fn short_tag(self) -> bool {
        self.tag_len() < 16
    }

    /// The lower-case name used on the command line and in documents (`m1`..`m6`,
    /// `romulus-n`, `romulus-m`).
    pub fn name(self) -> &'static str {
        match self {
            Scheme::M1 => "m1",
            Scheme::M2 => "m2",
            Scheme::M3 => "m3",
            Scheme::M4 => "m4",
            Scheme::M5 => "m5",
            Scheme::M6 => "m6",
            Scheme::RomulusN => "romulus-n",
            Scheme::RomulusM => "romulus-m",
        }
    }
}
