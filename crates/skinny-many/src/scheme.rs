//! [`Scheme`]: the AEAD schemes of the products, one set and one table of
//! names for the many-message engine, sealed files (`skinny-seal` re-exports
//! this type) and the faces.

use core::fmt;
use core::str::FromStr;
use skinny_aead::Member;

/// An AEAD scheme: Romulus-N, Romulus-M or a SKINNY-AEAD member. Every scheme
/// has a 128-bit key.
///
/// Its names come from one table: [`name`](Self::name) (`skinny-aead-m1`,
/// `romulus-n`), [`short_name`](Self::short_name) (`m1`, `romulus-n`: the
/// names sealed files and `skinny seal --aead` list) and
/// [`FromStr`], which reads either in any ASCII case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// Romulus-N v1.3 (nonce-based; SKINNY-128-384+, 128-bit nonce and tag).
    RomulusN,
    /// Romulus-M v1.3 (misuse-resistant, two passes; SKINNY-128-384+, 128-bit
    /// nonce and tag).
    RomulusM,
    /// A SKINNY-AEAD member (ΘCB3 on SKINNY-128-384 or -256).
    SkinnyAead(Member),
}

/// The names of each scheme, in the order of [`Scheme::ALL`]: the name, then
/// the short name (the same for Romulus).
const NAMES: [(Scheme, &str, &str); 8] = [
    (Scheme::RomulusN, "romulus-n", "romulus-n"),
    (Scheme::RomulusM, "romulus-m", "romulus-m"),
    (Scheme::M1, "skinny-aead-m1", "m1"),
    (Scheme::M2, "skinny-aead-m2", "m2"),
    (Scheme::M3, "skinny-aead-m3", "m3"),
    (Scheme::M4, "skinny-aead-m4", "m4"),
    (Scheme::M5, "skinny-aead-m5", "m5"),
    (Scheme::M6, "skinny-aead-m6", "m6"),
];

impl Scheme {
    /// SKINNY-AEAD-M1 (SKINNY-128-384, 128-bit nonce, 128-bit tag): the
    /// default of sealed files. Shorthand for `SkinnyAead(Member::M1)`.
    pub const M1: Scheme = Scheme::SkinnyAead(Member::M1);
    /// SKINNY-AEAD-M2 (SKINNY-128-384, 96-bit nonce, 128-bit tag).
    pub const M2: Scheme = Scheme::SkinnyAead(Member::M2);
    /// SKINNY-AEAD-M3 (SKINNY-128-384, 128-bit nonce, 64-bit tag).
    pub const M3: Scheme = Scheme::SkinnyAead(Member::M3);
    /// SKINNY-AEAD-M4 (SKINNY-128-384, 96-bit nonce, 64-bit tag).
    pub const M4: Scheme = Scheme::SkinnyAead(Member::M4);
    /// SKINNY-AEAD-M5 (SKINNY-128-256, 96-bit nonce, 128-bit tag).
    pub const M5: Scheme = Scheme::SkinnyAead(Member::M5);
    /// SKINNY-AEAD-M6 (SKINNY-128-256, 96-bit nonce, 64-bit tag).
    pub const M6: Scheme = Scheme::SkinnyAead(Member::M6);

    /// Every scheme, Romulus first (the GPU kernels number the schemes in
    /// this order).
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

    /// Whether the tag is 64 bits (M3, M4, M6): a sealed file of such a
    /// scheme opens only when the caller names it (no downgrade from a
    /// 128-bit tag).
    pub const fn short_tag(self) -> bool {
        self.tag_len() < 16
    }

    /// The SKINNY-AEAD member, `None` for Romulus.
    pub const fn aead_member(self) -> Option<Member> {
        match self {
            Scheme::SkinnyAead(m) => Some(m),
            Scheme::RomulusN | Scheme::RomulusM => None,
        }
    }

    /// The scheme's number, the scheme byte of a sealed file's header: 1 to
    /// 6 for M1 to M6 (their member ids), 7 for Romulus-N, 8 for Romulus-M.
    /// These numbers never change.
    pub const fn id(self) -> u8 {
        match self {
            Scheme::SkinnyAead(m) => m.id(),
            Scheme::RomulusN => 7,
            Scheme::RomulusM => 8,
        }
    }

    /// The scheme numbered `id` (see [`id`](Self::id)), if any.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The lower-case name: `romulus-n`, `romulus-m`, `skinny-aead-m1` ..
    /// `skinny-aead-m6` (what [`Display`](fmt::Display) writes).
    pub const fn name(self) -> &'static str {
        NAMES[self.index()].1
    }

    /// The short name: `m1` .. `m6` for the SKINNY-AEAD members, else the
    /// [`name`](Self::name). Sealed files' documents and `skinny seal
    /// --aead` use it.
    pub const fn short_name(self) -> &'static str {
        NAMES[self.index()].2
    }

    /// Every name [`FromStr`] reads, in the order of [`ALL`](Self::ALL),
    /// each scheme's name before its short name (each name once).
    pub fn accepted_names() -> impl Iterator<Item = &'static str> {
        NAMES.iter().flat_map(|&(_, name, short)| core::iter::once(name).chain((short != name).then_some(short)))
    }

    /// The place in [`ALL`](Self::ALL) (and in `NAMES`).
    const fn index(self) -> usize {
        match self {
            Scheme::RomulusN => 0,
            Scheme::RomulusM => 1,
            Scheme::SkinnyAead(m) => 1 + m.id() as usize,
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no scheme's (see [`Scheme::accepted_names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownScheme;

impl fmt::Display for UnknownScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown AEAD scheme (expected romulus-n, romulus-m, or skinny-aead-m1 .. skinny-aead-m6, short m1 .. m6)",
        )
    }
}

impl core::error::Error for UnknownScheme {}

impl FromStr for Scheme {
    type Err = UnknownScheme;

    /// Reads a [`name`](Scheme::name) or [`short_name`](Scheme::short_name),
    /// blanks around it ignored, in any ASCII case, `_` taken for `-`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let given = s.trim().as_bytes();
        let same = |name: &str| {
            name.len() == given.len()
                && name.bytes().zip(given).all(|(n, &g)| n == if g == b'_' { b'-' } else { g.to_ascii_lowercase() })
        };
        NAMES.into_iter().find(|&(_, name, short)| same(name) || same(short)).map(|n| n.0).ok_or(UnknownScheme)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schemes' parameters and numbers, written out once more; the
    /// numbers are sealed files' header bytes and never change.
    #[test]
    fn every_scheme_has_its_lengths_number_and_names() {
        let table = [
            (Scheme::RomulusN, 16, 16, 7, "romulus-n", "romulus-n"),
            (Scheme::RomulusM, 16, 16, 8, "romulus-m", "romulus-m"),
            (Scheme::M1, 16, 16, 1, "skinny-aead-m1", "m1"),
            (Scheme::M2, 12, 16, 2, "skinny-aead-m2", "m2"),
            (Scheme::M3, 16, 8, 3, "skinny-aead-m3", "m3"),
            (Scheme::M4, 12, 8, 4, "skinny-aead-m4", "m4"),
            (Scheme::M5, 12, 16, 5, "skinny-aead-m5", "m5"),
            (Scheme::M6, 12, 8, 6, "skinny-aead-m6", "m6"),
        ];
        assert_eq!(table.map(|t| t.0), Scheme::ALL);
        assert_eq!(NAMES.map(|n| n.0), Scheme::ALL);
        for (s, nonce, tag, id, name, short) in table {
            let got = (s.key_len(), s.nonce_len(), s.tag_len(), s.id(), s.name(), s.short_name());
            assert_eq!(got, (16, nonce, tag, id, name, short), "{s}");
            assert_eq!(s.short_tag(), tag == 8);
            assert_eq!(Scheme::from_id(id), Some(s));
            assert_eq!(s.aead_member().map(Member::id), (id <= 6).then_some(id));
            assert_eq!(s.to_string(), name);
            assert_eq!(name.parse(), Ok(s));
            assert_eq!(short.parse(), Ok(s));
        }
        assert_eq!(Scheme::from_id(0), None);
        assert_eq!(Scheme::from_id(9), None);
    }

    #[test]
    fn names_parse_in_any_case_with_underscores_and_blanks() {
        assert_eq!(" SKINNY_AEAD_M3\n".parse(), Ok(Scheme::M3));
        assert_eq!("M6".parse(), Ok(Scheme::M6));
        assert_eq!("Romulus_N".parse(), Ok(Scheme::RomulusN));
        for bad in ["", "m0", "m7", "romulus-t", "romulus-h", "skinny-aead-m", "aead-m1", "skinny-aead-m1x"] {
            assert_eq!(bad.parse::<Scheme>(), Err(UnknownScheme), "{bad:?}");
        }
    }

    #[test]
    fn the_accepted_names_are_every_name_and_short_name_once() {
        let names: Vec<_> = Scheme::accepted_names().collect();
        assert_eq!(names.len(), 14);
        for s in Scheme::ALL {
            assert!(names.contains(&s.name()) && names.contains(&s.short_name()), "{s}");
        }
        for n in &names {
            assert!(n.parse::<Scheme>().is_ok(), "{n}");
            assert_eq!(names.iter().filter(|m| *m == n).count(), 1, "{n}");
        }
    }
}
