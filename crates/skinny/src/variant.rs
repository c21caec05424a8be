//! The six members of the family and their parameters.

use crate::spec::CellWidth;
use core::fmt;
use core::str::FromStr;

/// One of the six SKINNY variants: SKINNY-n-t with an n-bit block and a t-bit tweakey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// 64-bit block, 64-bit tweakey (TK1), 32 rounds.
    Skinny64_64,
    /// 64-bit block, 128-bit tweakey (TK1, TK2), 36 rounds.
    Skinny64_128,
    /// 64-bit block, 192-bit tweakey (TK1, TK2, TK3), 40 rounds.
    Skinny64_192,
    /// 128-bit block, 128-bit tweakey (TK1), 40 rounds.
    Skinny128_128,
    /// 128-bit block, 256-bit tweakey (TK1, TK2), 48 rounds.
    Skinny128_256,
    /// 128-bit block, 384-bit tweakey (TK1, TK2, TK3), 56 rounds.
    Skinny128_384,
}

impl Variant {
    /// All six, in the specification's order.
    pub const ALL: [Variant; 6] = [
        Variant::Skinny64_64,
        Variant::Skinny64_128,
        Variant::Skinny64_192,
        Variant::Skinny128_128,
        Variant::Skinny128_256,
        Variant::Skinny128_384,
    ];

    /// The lower-case name used on the command line, e.g. `skinny-128-256`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Skinny64_64 => "skinny-64-64",
            Variant::Skinny64_128 => "skinny-64-128",
            Variant::Skinny64_192 => "skinny-64-192",
            Variant::Skinny128_128 => "skinny-128-128",
            Variant::Skinny128_256 => "skinny-128-256",
            Variant::Skinny128_384 => "skinny-128-384",
        }
    }

    /// The cell size.
    pub const fn cell_width(self) -> CellWidth {
        match self {
            Variant::Skinny64_64 | Variant::Skinny64_128 | Variant::Skinny64_192 => CellWidth::Nibble,
            _ => CellWidth::Byte,
        }
    }

    /// How many TK arrays the tweakey holds (1, 2 or 3).
    pub const fn tk_count(self) -> usize {
        match self {
            Variant::Skinny64_64 | Variant::Skinny128_128 => 1,
            Variant::Skinny64_128 | Variant::Skinny128_256 => 2,
            Variant::Skinny64_192 | Variant::Skinny128_384 => 3,
        }
    }

    /// Bytes in a block: 8 or 16.
    pub const fn block_bytes(self) -> usize {
        self.cell_width().block_bytes()
    }

    /// Bytes in the whole tweakey (TK1 || TK2 || TK3): 8 to 48.
    pub const fn tweakey_bytes(self) -> usize {
        self.block_bytes() * self.tk_count()
    }

    /// Number of rounds.
    pub const fn rounds(self) -> usize {
        match self {
            Variant::Skinny64_64 => 32,
            Variant::Skinny64_128 => 36,
            Variant::Skinny64_192 => 40,
            Variant::Skinny128_128 => 40,
            Variant::Skinny128_256 => 48,
            Variant::Skinny128_384 => 56,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given is not one of the six variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant;

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown SKINNY variant (expected one of skinny-64-64, skinny-64-128, skinny-64-192, skinny-128-128, skinny-128-256, skinny-128-384)")
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Accepts the CLI names (`skinny-128-256`), case-insensitively, with `_` for `-`.
    /// Compares byte by byte, so it needs no allocation (works without `alloc`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let given = s.trim().as_bytes();
        let same = |name: &str| {
            name.len() == given.len()
                && name.bytes().zip(given).all(|(n, &g)| n == if g == b'_' { b'-' } else { g.to_ascii_lowercase() })
        };
        Variant::ALL.into_iter().find(|v| same(v.name())).ok_or(UnknownVariant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_in_any_case_with_underscores() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
        }
        assert_eq!(" SKINNY_128_256\n".parse::<Variant>(), Ok(Variant::Skinny128_256));
        assert_eq!("Skinny-64-64".parse::<Variant>(), Ok(Variant::Skinny64_64));
        for bad in ["", "skinny", "skinny-128-2566", "skinny-128-25", "skinny 128 256", "skinny-128-256x"] {
            assert_eq!(bad.parse::<Variant>(), Err(UnknownVariant), "{bad:?}");
        }
    }
}
