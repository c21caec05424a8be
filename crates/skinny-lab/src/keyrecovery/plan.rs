//! Which cells each undone round computes and which round-tweakey cells that
//! takes: the part shared by the partial decryption and the counter.

use super::{GuessedCell, KeyRecoveryError, MAX_GUESS_BITS, MAX_PEELED};
use skinny::hazmat::spec::round::{ROUND_CONSTANTS, SHIFT_ROWS_INV};
use skinny::hazmat::spec::sbox::{S4_INV_TABLE, S8_INV_TABLE};
use skinny::hazmat::spec::CellWidth;
use skinny::hazmat::RoundTweakeys;
use skinny::Variant;

/// One cell computed while undoing a round.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    /// The cell of the state after the undone round's inverse.
    pub cell: u8,
    /// The round-tweakey cell added, as a slot of the guess; none for rows
    /// 2 and 3 or a key the caller leaves out.
    pub slot: Option<u8>,
    /// The round constant of the cell.
    pub constant: u8,
}

/// The cells to compute in each undone round and the guessed cells.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub variant: Variant,
    pub last_round: usize,
    /// `layers[k]`: the cells of the state `k + 1` rounds before the end
    /// (the last layer: the targets, in the caller's order).
    pub layers: Vec<Vec<Step>>,
    pub guessed: Vec<GuessedCell>,
    /// Bits in a cell.
    pub bits: u32,
    /// The inverse S-box, 256 entries for both widths (4-bit cells read the
    /// first 16): an index from a `u8` is always in bounds.
    pub inv: [u8; 256],
    /// Guessed cells of the deepest undone round (slots `0 .. inner`).
    pub inner: usize,
}

/// The cells of the state before MixColumns⁻¹ and ShiftRows⁻¹ that cell `i`
/// after them is the XOR of.
pub(super) fn sources(i: usize) -> impl Iterator<Item = usize> {
    let col = SHIFT_ROWS_INV[i] % 4;
    let rows: &'static [usize] = match i / 4 {
        0 => &[1],
        1 => &[1, 2, 3],
        2 => &[1, 3],
        _ => &[0, 3],
    };
    rows.iter().map(move |r| r * 4 + col)
}

/// Cell `i` of ShiftRows⁻¹(MixColumns⁻¹(`x`)).
#[inline(always)]
pub(super) fn unmixed(x: &[u8; 16], i: u8) -> u8 {
    let i = usize::from(i) & 15;
    let col = SHIFT_ROWS_INV[i] % 4;
    match i / 4 {
        0 => x[4 + col],
        1 => x[4 + col] ^ x[8 + col] ^ x[12 + col],
        2 => x[4 + col] ^ x[12 + col],
        _ => x[col] ^ x[12 + col],
    }
}

/// The constant AddConstants puts in `cell` in `round` (from 1).
fn constant(round: usize, cell: usize) -> u8 {
    let rc = ROUND_CONSTANTS[round - 1];
    match cell {
        0 => rc & 0xf,
        4 => rc >> 4,
        8 => 0x2,
        _ => 0,
    }
}

impl Plan {
    /// `targets` in order; `keyed(t)`: whether target `t` takes its key cell in
    /// the deepest undone round (rows 0 and 1 only).
    pub fn new(
        variant: Variant,
        last_round: usize,
        peeled: usize,
        targets: &[usize],
        keyed: impl Fn(usize) -> bool,
    ) -> Result<Self, KeyRecoveryError> {
        if !(1..=variant.rounds()).contains(&last_round) {
            return Err(KeyRecoveryError::LastRound { variant, last_round });
        }
        let max = MAX_PEELED.min(last_round);
        if !(1..=max).contains(&peeled) {
            return Err(KeyRecoveryError::Peeled { max, got: peeled });
        }
        if targets.is_empty() {
            return Err(KeyRecoveryError::NoTargets);
        }
        let mut seen = [false; 16];
        for &t in targets {
            if t >= 16 {
                return Err(KeyRecoveryError::Cell(t));
            }
            if seen[t] {
                return Err(KeyRecoveryError::DuplicateCell(t));
            }
            seen[t] = true;
        }
        // needed[k]: the cells of the state k + 1 rounds before the end.
        let mut needed = vec![[false; 16]; peeled];
        needed[peeled - 1] = seen;
        for k in (0..peeled - 1).rev() {
            for i in 0..16 {
                if needed[k + 1][i] {
                    for s in sources(i) {
                        needed[k][s] = true;
                    }
                }
            }
        }
        // Round undone to reach layer k: last_round - k.
        let deepest = last_round + 1 - peeled;
        let mut guessed = Vec::new();
        for (k, layer) in needed.iter().enumerate().rev() {
            let round = last_round - k;
            for (cell, &on_path) in layer.iter().enumerate().take(8) {
                let takes_key = if round == deepest {
                    targets.iter().position(|&t| t == cell).is_some_and(&keyed)
                } else {
                    on_path
                };
                if takes_key {
                    guessed.push(GuessedCell { round, cell });
                }
            }
        }
        let bits: u32 = match variant.cell_width() {
            CellWidth::Nibble => 4,
            CellWidth::Byte => 8,
        };
        let total = bits.saturating_mul(u32::try_from(guessed.len()).unwrap_or(u32::MAX));
        if total > MAX_GUESS_BITS {
            return Err(KeyRecoveryError::TooManyGuesses { bits: total, max: MAX_GUESS_BITS });
        }
        let slot_of = |round: usize, cell: usize| {
            guessed.iter().position(|g| g.round == round && g.cell == cell).map(|p| p as u8)
        };
        let mut layers = Vec::with_capacity(peeled);
        for (k, layer) in needed.iter().enumerate() {
            let round = last_round - k;
            let cells: Vec<usize> =
                if k == peeled - 1 { targets.to_vec() } else { (0..16).filter(|&i| layer[i]).collect() };
            layers.push(
                cells
                    .into_iter()
                    .map(|cell| Step { cell: cell as u8, slot: slot_of(round, cell), constant: constant(round, cell) })
                    .collect(),
            );
        }
        let mut inv = [0u8; 256];
        match variant.cell_width() {
            CellWidth::Nibble => inv[..16].copy_from_slice(&S4_INV_TABLE),
            CellWidth::Byte => inv.copy_from_slice(&S8_INV_TABLE),
        }
        let inner = guessed.iter().filter(|g| g.round == deepest).count();
        Ok(Plan { variant, last_round, layers, guessed, bits, inv, inner })
    }

    /// The number of guesses.
    pub fn guesses(&self) -> u64 {
        1u64 << (self.bits as usize * self.guessed.len())
    }

    /// The value of slot `slot` in `guess`.
    #[inline(always)]
    pub fn slot_value(&self, guess: u64, slot: u8) -> u8 {
        ((guess >> (self.bits * u32::from(slot))) as u8) & (((1u16 << self.bits) - 1) as u8)
    }

    /// The guess that `tweakey` (the master tweakey) makes.
    pub fn guess_of(&self, tweakey: &[u8]) -> Result<u64, KeyRecoveryError> {
        let v = self.variant;
        if tweakey.len() != v.tweakey_bytes() {
            return Err(KeyRecoveryError::Length {
                what: "the tweakey",
                expected: format!("{} bytes for {v}", v.tweakey_bytes()),
                got: tweakey.len(),
            });
        }
        let rtk = RoundTweakeys::expand_rounds(v, tweakey, self.last_round);
        let cells = rtk.as_cells();
        let mut guess = 0u64;
        for (j, g) in self.guessed.iter().enumerate() {
            guess |= u64::from(cells[g.round - 1][g.cell]) << (self.bits as usize * j);
        }
        Ok(guess)
    }

    /// The cells of `block` (8 or 16 bytes), as the specification spreads them.
    #[inline(always)]
    pub fn cells_of(&self, block: &[u8]) -> [u8; 16] {
        let mut s = [0u8; 16];
        skinny::hazmat::spec::unpack_cells(self.variant.cell_width(), block, &mut s);
        s
    }

    /// Undoes the outer rounds (all but the deepest) of `c` under `guess`:
    /// the state one round before the targets, in the cells they need.
    #[inline(always)]
    pub fn outer(&self, c: &[u8; 16], guess: u64) -> [u8; 16] {
        let mut x = *c;
        for layer in &self.layers[..self.layers.len() - 1] {
            let mut next = [0u8; 16];
            for step in layer {
                let key = step.slot.map_or(0, |s| self.slot_value(guess, s));
                next[usize::from(step.cell) & 15] = self.inv[usize::from(unmixed(&x, step.cell) ^ key ^ step.constant)];
            }
            x = next;
        }
        x
    }

    /// Checks a batch of blocks: whole blocks of this variant, at most
    /// `u32::MAX` of them.
    pub fn blocks(&self, what: &'static str, bytes: &[u8]) -> Result<usize, KeyRecoveryError> {
        let bb = self.variant.block_bytes();
        if !bytes.len().is_multiple_of(bb) || bytes.len() / bb > u32::MAX as usize {
            return Err(KeyRecoveryError::Length {
                what,
                expected: format!("whole {bb}-byte blocks of {}, at most 2^32 - 1 of them", self.variant),
                got: bytes.len(),
            });
        }
        Ok(bytes.len() / bb)
    }
}
