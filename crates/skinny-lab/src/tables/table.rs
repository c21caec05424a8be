//! The table type every table function returns: 2, 3 or 4 indices, each
//! from 0 to 2^n - 1, in one flat row-major vector.

/// A table of 2, 3 or 4 indices, each an n-bit difference or mask (from 0 to
/// 2^n - 1), stored row-major (the last index varies fastest, numpy's "C"
/// order): the entry at `[i, j, k]` is `as_slice()[(i * 2^n + j) * 2^n + k]`.
///
/// The entry types are fixed: `u16` for counts (DDT, BCT, UBCT, LBCT, EBCT:
/// at most 2^n = 256), `i32` for signed tables (LAT, DLCT, DDLCT).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table<T> {
    bits: u32,
    rank: usize,
    cells: Vec<T>,
}

impl<T: Copy> Table<T> {
    /// A table of `rank` indices of `bits` bits each, all entries `fill`.
    pub(crate) fn filled(bits: u32, rank: usize, fill: T) -> Self {
        Self { bits, rank, cells: vec![fill; 1usize << (bits as usize * rank)] }
    }

    /// The cells, to fill in place.
    pub(crate) fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// The S-box width n: each index runs over `0..2^n`.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// The length of each axis, 2^n.
    pub fn side(&self) -> usize {
        1 << self.bits
    }

    /// The number of indices (2, 3 or 4).
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The shape, `[2^n; rank]` as a vector.
    pub fn shape(&self) -> Vec<usize> {
        vec![self.side(); self.rank]
    }

    /// Every entry, row-major.
    pub fn as_slice(&self) -> &[T] {
        &self.cells
    }

    /// The entries as a vector, row-major (no copy).
    pub fn into_vec(self) -> Vec<T> {
        self.cells
    }

    /// The entry at `index` (one value per axis), or `None` when `index` has
    /// the wrong number of values or one of them is out of range.
    pub fn get(&self, index: &[usize]) -> Option<T> {
        self.offset(index).map(|o| self.cells[o])
    }

    /// The entries whose leading indices are `leading` (one fewer than the
    /// rank), over the last index: a row of a DDT, a line of a UBCT. `None`
    /// when `leading` has the wrong length or a value out of range.
    pub fn row(&self, leading: &[usize]) -> Option<&[T]> {
        if leading.len() + 1 != self.rank {
            return None;
        }
        let side = self.side();
        let mut start = 0usize;
        for &i in leading {
            if i >= side {
                return None;
            }
            start = start * side + i;
        }
        let start = start * side;
        Some(&self.cells[start..start + side])
    }

    /// The entries in row-major order with their indices, for scans and
    /// exports; `index` has `rank` values.
    pub fn iter_indexed(&self) -> impl Iterator<Item = (Vec<usize>, T)> + '_ {
        let (side, rank, bits) = (self.side(), self.rank, self.bits);
        self.cells.iter().enumerate().map(move |(o, &v)| {
            let index = (0..rank).rev().map(|axis| (o >> (axis as u32 * bits)) & (side - 1)).collect();
            (index, v)
        })
    }

    fn offset(&self, index: &[usize]) -> Option<usize> {
        if index.len() != self.rank {
            return None;
        }
        let side = self.side();
        index.iter().try_fold(0usize, |o, &i| (i < side).then_some(o * side + i))
    }
}
