//! [`Scheme`]: which AEAD a batch is sealed with.

use skinny_aead::Member;

/// The AEAD of a batch. Every scheme has a 128-bit key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// Romulus-N v1.3 (nonce-based; 128-bit nonce and tag).
    RomulusN,
    /// Romulus-M v1.3 (misuse-resistant; 128-bit nonce and tag).
    RomulusM,
    /// A SKINNY-AEAD member (ΘCB3 on SKINNY-128-384 or -256).
    SkinnyAead(Member),
}

impl Scheme {
    /// Every scheme, Romulus first.
    pub const ALL: [Scheme; 8] = [
        Scheme::RomulusN,
        Scheme::RomulusM,
        Scheme::SkinnyAead(Member::M1),
        Scheme::SkinnyAead(Member::M2),
        Scheme::SkinnyAead(Member::M3),
        Scheme::SkinnyAead(Member::M4),
        Scheme::SkinnyAead(Member::M5),
        Scheme::SkinnyAead(Member::M6),
    ];

    /// Key length in bytes (16 for every scheme).
    pub const fn key_len(self) -> usize {
        16
    }

    /// Nonce length in bytes.
    pub const fn nonce_len(self) -> usize {
        match self {
            Scheme::RomulusN | Scheme::RomulusM => 16,
            Scheme::SkinnyAead(m) => m.nonce_len(),
        }
    }

    /// Tag length in bytes.
    pub const fn tag_len(self) -> usize {
        match self {
            Scheme::RomulusN | Scheme::RomulusM => 16,
            Scheme::SkinnyAead(m) => m.tag_len(),
        }
    }

    /// Short lower-case name, e.g. `romulus-n` or `skinny-aead-m1`.
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::RomulusN => "romulus-n",
            Scheme::RomulusM => "romulus-m",
            Scheme::SkinnyAead(Member::M1) => "skinny-aead-m1",
            Scheme::SkinnyAead(Member::M2) => "skinny-aead-m2",
            Scheme::SkinnyAead(Member::M3) => "skinny-aead-m3",
            Scheme::SkinnyAead(Member::M4) => "skinny-aead-m4",
            Scheme::SkinnyAead(Member::M5) => "skinny-aead-m5",
            Scheme::SkinnyAead(Member::M6) => "skinny-aead-m6",
        }
    }
}

impl core::fmt::Display for Scheme {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
