//! Cell patterns: a truncated-difference condition on the 16 cells of an
//! output difference, each zero, non-zero or free.
//!
//! The text form is 16 characters, one a cell in the specification's order
//! (cell 0 first, row by row), each `0` (the cell's difference is zero), `x`
//! (non-zero) or `*` (free); spaces between them are ignored, so
//! `0000 x000 **** 0000` reads as `0000x000****0000` (the form written back).

use core::fmt;
use core::str::FromStr;
use skinny::hazmat::spec::{unpack_cells, CellWidth};

/// What one cell's difference must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellCondition {
    /// Zero (`0`).
    Zero,
    /// Non-zero (`x`).
    NonZero,
    /// Anything (`*`).
    Free,
}

impl CellCondition {
    /// The character of the text form.
    pub fn symbol(self) -> char {
        match self {
            CellCondition::Zero => '0',
            CellCondition::NonZero => 'x',
            CellCondition::Free => '*',
        }
    }

    /// Whether a cell whose difference is `d` meets the condition.
    pub fn holds(self, d: u8) -> bool {
        match self {
            CellCondition::Zero => d == 0,
            CellCondition::NonZero => d != 0,
            CellCondition::Free => true,
        }
    }
}

/// A condition on each of the 16 cells of a difference (cell 0 first, the
/// specification's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellPattern {
    cells: [CellCondition; 16],
}

impl CellPattern {
    /// Every cell free: every difference matches.
    pub const FREE: CellPattern = CellPattern { cells: [CellCondition::Free; 16] };

    /// The pattern of these conditions, cell 0 first.
    pub fn new(cells: [CellCondition; 16]) -> Self {
        Self { cells }
    }

    /// The conditions, cell 0 first.
    pub fn cells(&self) -> &[CellCondition; 16] {
        &self.cells
    }

    /// Whether `diff` (one block of a variant with cells of `width`) meets
    /// every cell's condition.
    pub fn matches(&self, width: CellWidth, diff: &[u8]) -> bool {
        let mut cells = [0u8; 16];
        unpack_cells(width, diff, &mut cells);
        self.cells.iter().zip(cells).all(|(c, d)| c.holds(d))
    }

    /// Whether the difference of the blocks `a` and `b` meets the pattern
    /// (without building it).
    pub(crate) fn matches_pair(&self, width: CellWidth, a: &[u8], b: &[u8]) -> bool {
        let (mut x, mut y) = ([0u8; 16], [0u8; 16]);
        unpack_cells(width, a, &mut x);
        unpack_cells(width, b, &mut y);
        self.cells.iter().zip(x.iter().zip(y)).all(|(c, (x, y))| c.holds(x ^ y))
    }

    /// The cells with condition `which`, as bit `c` for cell `c`.
    pub fn cells_that_are(&self, which: CellCondition) -> u16 {
        self.cells.iter().enumerate().filter(|(_, &c)| c == which).fold(0, |m, (i, _)| m | 1 << i)
    }
}

/// Why a text is not a cell pattern.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CellPatternError {
    /// A character other than `0`, `x`, `*` or a space.
    #[error("cell pattern: {got:?} (character {at}) is not 0, x or *")]
    Character {
        /// The character.
        got: char,
        /// Its place in the text, from 1.
        at: usize,
    },
    /// Not 16 cells.
    #[error("cell pattern: 16 cells of 0, x or *, got {0}")]
    Cells(usize),
}

impl FromStr for CellPattern {
    type Err = CellPatternError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut cells = Vec::with_capacity(16);
        for (i, ch) in s.chars().enumerate() {
            cells.push(match ch {
                '0' => CellCondition::Zero,
                'x' | 'X' => CellCondition::NonZero,
                '*' => CellCondition::Free,
                ' ' => continue,
                got => return Err(CellPatternError::Character { got, at: i + 1 }),
            });
        }
        let n = cells.len();
        let cells: [CellCondition; 16] = cells.try_into().map_err(|_| CellPatternError::Cells(n))?;
        Ok(Self { cells })
    }
}

impl fmt::Display for CellPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cells.iter().try_for_each(|c| write!(f, "{}", c.symbol()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_text_is_refused() {
        let p: CellPattern = "0000 x000 **** 0000".parse().unwrap();
        assert_eq!(p.to_string(), "0000x000****0000");
        assert_eq!(p.to_string().parse::<CellPattern>(), Ok(p));
        assert_eq!(p.cells_that_are(CellCondition::NonZero), 1 << 4);
        assert_eq!(p.cells_that_are(CellCondition::Free), 0x0f00);
        assert_eq!("0000".parse::<CellPattern>(), Err(CellPatternError::Cells(4)));
        assert_eq!("0".repeat(17).parse::<CellPattern>(), Err(CellPatternError::Cells(17)));
        assert_eq!("000a000000000000".parse::<CellPattern>(), Err(CellPatternError::Character { got: 'a', at: 4 }));
        assert_eq!("*".repeat(16).parse::<CellPattern>(), Ok(CellPattern::FREE));
    }

    #[test]
    fn cells_are_read_in_the_specification_s_order() {
        // Cell 0 is the high nibble of byte 0 with 4-bit cells, byte 0 with 8-bit ones.
        let p: CellPattern = "x000000000000000".parse().unwrap();
        assert!(p.matches(CellWidth::Nibble, &[0x10, 0, 0, 0, 0, 0, 0, 0]));
        assert!(!p.matches(CellWidth::Nibble, &[0x01, 0, 0, 0, 0, 0, 0, 0]));
        let mut b = [0u8; 16];
        b[0] = 0x80;
        assert!(p.matches(CellWidth::Byte, &b));
        b[15] = 1;
        assert!(!p.matches(CellWidth::Byte, &b));
        assert!(CellPattern::FREE.matches(CellWidth::Byte, &b));
    }
}
