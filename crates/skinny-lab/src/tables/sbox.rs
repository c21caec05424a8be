//! The S-box the tables are computed for: a checked permutation of `0..2^n`
//! with its inverse, and why one is refused.

use skinny::hazmat::spec::sbox::{S4_INV_TABLE, S4_TABLE, S8_INV_TABLE, S8_TABLE};

/// The largest S-box the tables take: 8 bits (256 entries), SKINNY's S8.
pub const MAX_BITS: u32 = 8;

/// The most entries a full table may have ([`ebct`](super::ebct) refuses more):
/// 2^24, 32 MiB of `u16`. UBCT and LBCT of an 8-bit S-box are exactly this size.
pub const MAX_ENTRIES: usize = 1 << 24;

/// Why an S-box, an index or a table was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// A table that is not 2^n entries long for n from 1 to 8.
    #[error("an S-box has 2^n entries for n from 1 to 8 (2, 4, .., 256), not {0}")]
    Size(usize),
    /// An entry out of range, or one value twice.
    #[error("the S-box is not a permutation of 0..{size}: {reason}")]
    NotPermutation {
        /// The table's length.
        size: usize,
        /// The first fault found (a value out of range or a repeated value).
        reason: String,
    },
    /// A difference or mask with bits beyond the S-box's width.
    #[error("index {index:#x} is out of range for a {bits}-bit S-box (0 to {:#x})", (1usize << bits) - 1)]
    Index {
        /// The index given.
        index: usize,
        /// The S-box's width.
        bits: u32,
    },
    /// A full table over [`MAX_ENTRIES`] entries.
    #[error("the full {table} of a {bits}-bit S-box has 2^{log2_entries} entries, over the limit of 2^24: compute slices or entries instead")]
    TooLarge {
        /// Which table.
        table: &'static str,
        /// The S-box's width.
        bits: u32,
        /// log2 of the number of entries.
        log2_entries: u32,
    },
    /// An export that needs a two-index table given one of another rank.
    #[error("{what} is written for tables of 2 indices only, not {rank}")]
    Rank {
        /// Which export.
        what: &'static str,
        /// The rank of the table given.
        rank: usize,
    },
}

/// A permutation of `0..2^n` (n from 1 to 8) with its inverse: the S-box
/// every table function takes. Built once ([`Sbox::new`] checks it), so the
/// table functions have nothing left to refuse but indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sbox {
    bits: u32,
    forward: Vec<u8>,
    inverse: Vec<u8>,
}

impl Sbox {
    /// The S-box whose value at `x` is `table[x]`. Refused unless `table` has
    /// 2^n entries (n from 1 to 8) and holds every value of `0..2^n` once.
    pub fn new(table: &[u8]) -> Result<Self, TableError> {
        let size = table.len();
        if !size.is_power_of_two() || !(2..=1 << MAX_BITS).contains(&size) {
            return Err(TableError::Size(size));
        }
        let mut inverse = vec![0u8; size];
        let mut seen = vec![false; size];
        for (x, &y) in table.iter().enumerate() {
            let y = usize::from(y);
            if y >= size {
                let reason = format!("S({x:#x}) = {y:#x} is out of range");
                return Err(TableError::NotPermutation { size, reason });
            }
            if seen[y] {
                let reason = format!("the value {y:#x} appears twice");
                return Err(TableError::NotPermutation { size, reason });
            }
            seen[y] = true;
            // x < size <= 256: the cast keeps every bit.
            inverse[y] = x as u8;
        }
        Ok(Self { bits: size.trailing_zeros(), forward: table.to_vec(), inverse })
    }

    /// SKINNY's 4-bit S-box S4 (SKINNY-64), from the core crate's table.
    pub fn s4() -> Self {
        Self { bits: 4, forward: S4_TABLE.to_vec(), inverse: S4_INV_TABLE.to_vec() }
    }

    /// SKINNY's 8-bit S-box S8 (SKINNY-128), from the core crate's table.
    pub fn s8() -> Self {
        Self { bits: 8, forward: S8_TABLE.to_vec(), inverse: S8_INV_TABLE.to_vec() }
    }

    /// Its width n in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Its number of entries, 2^n.
    pub fn size(&self) -> usize {
        self.forward.len()
    }

    /// The table: `table()[x]` = S(x).
    pub fn table(&self) -> &[u8] {
        &self.forward
    }

    /// The inverse's table: `inverse()[S(x)]` = x.
    pub fn inverse(&self) -> &[u8] {
        &self.inverse
    }

    /// S(x) for `x` below [`size`](Self::size).
    #[inline]
    pub(crate) fn s(&self, x: usize) -> usize {
        usize::from(self.forward[x])
    }

    /// S⁻¹(y) for `y` below [`size`](Self::size).
    #[inline]
    pub(crate) fn s_inv(&self, y: usize) -> usize {
        usize::from(self.inverse[y])
    }

    /// `index` if it is below 2^n, else [`TableError::Index`].
    pub(crate) fn check(&self, index: usize) -> Result<usize, TableError> {
        if index < self.size() {
            Ok(index)
        } else {
            Err(TableError::Index { index, bits: self.bits })
        }
    }
}
