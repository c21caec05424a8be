//! A characteristic's exact probability (or correlation) from the S-box
//! tables, round by round, with the first round that cannot happen and why.
//!
//! A differential round from the input difference `a` (before SubCells) to
//! the next state's `d`: AddConstants adds nothing to a difference,
//! AddRoundTweakey adds the round tweakey difference to the first two rows,
//! ShiftRows and MixColumns are linear and invertible, so the S-box output
//! difference is `b = SR⁻¹(MC⁻¹(d)) ⊕ ΔRTK`, unique; the round holds with
//! probability `Π_cells DDT[a_i][b_i] / 2^n` (the cells' S-boxes independent
//! given the difference), and the characteristic with the product over
//! rounds: the Markov-cipher estimate with independent uniform round keys,
//! exact for the key average where the round keys are (see docs/lab.md for
//! where SKINNY's are not).
//!
//! A linear round from the mask `α` to the next state's `γ`: a mask `γ` on
//! the output of the linear layer L = MC ∘ SR is the mask `Lᵀ γ` on its
//! input, so the S-box output mask is `β = SR⁻¹(MCᵀ(γ))`; the round's
//! correlation is `Π_cells LAT[α_i][β_i] / 2^(n−1)` and the trail's the
//! product (its sign also flips with the round tweakey and constant bits
//! under the masks: the value here is the tables' product, its magnitude
//! exact for every key).

use super::exact::{merge_into, ExactValue, Product};
use super::{block, cells, half_block, DifferentialCharacteristic, LinearCharacteristic};
use crate::characteristic::CharacteristicError;
use crate::tables::{ddt, lat, Sbox};
use skinny::hazmat::spec::round::{mix_columns_inv, shift_rows_inv, State};
use skinny::hazmat::spec::CellWidth;
use skinny::Variant;

/// One round of a characteristic through the tables.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundStep {
    /// The cipher's round (from 1).
    pub round: usize,
    /// The S-box input difference (mask): the characteristic's state before the round.
    pub sbox_input: Vec<u8>,
    /// The S-box output difference (mask) the next state implies.
    pub sbox_output: Vec<u8>,
    /// The round tweakey difference (half a block; zero for a linear one).
    pub round_tweakey: Vec<u8>,
    /// Active S-boxes (a nonzero input).
    pub active: usize,
    /// log2 of the round's probability (|correlation|); `None` when it is 0.
    pub log2: Option<f64>,
    /// The round's probability (correlation) exactly.
    pub exact: ExactValue,
}

/// The first round a characteristic cannot pass, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Impossible {
    /// The cipher's round (from 1).
    pub round: usize,
    /// The cell (0 to 15, row by row) whose S-box cannot make the
    /// transition; `None` for a tweakey schedule mismatch.
    pub cell: Option<usize>,
    /// Why, in one sentence.
    pub reason: String,
}

impl core::fmt::Display for Impossible {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "round {}: {}", self.round, self.reason)
    }
}

/// A characteristic evaluated: every round up to the first impossible one.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The rounds evaluated, in order (up to and including an impossible one).
    pub steps: Vec<RoundStep>,
    /// log2 of the probability (of |correlation|); `None` when impossible.
    pub log2: Option<f64>,
    /// The probability (correlation, signed) exactly; `None` when impossible.
    pub exact: Option<ExactValue>,
    /// The first round that cannot happen, if any.
    pub impossible: Option<Impossible>,
}

impl Evaluation {
    /// log2 of the predicted probability of each round prefix (1 round, 2
    /// rounds, ..), as far as the characteristic is possible.
    pub fn prefix_log2(&self) -> Vec<f64> {
        self.steps
            .iter()
            .map_while(|s| s.log2)
            .scan(0.0, |acc, l| {
                *acc += l;
                Some(*acc)
            })
            .collect()
    }
}

fn sbox(variant: Variant) -> Sbox {
    match variant.cell_width() {
        CellWidth::Nibble => Sbox::s4(),
        CellWidth::Byte => Sbox::s8(),
    }
}

fn cell_bits(width: CellWidth) -> u32 {
    match width {
        CellWidth::Nibble => 4,
        CellWidth::Byte => 8,
    }
}

/// What a round check found in one cell.
enum CellVerdict {
    Entry(i64),
    Impossible(String),
}

/// Walks the rounds: `round_output(i)` gives round i's S-box output and round
/// tweakey difference, or an impossibility before the S-boxes; `cell(a, b)`
/// the table's verdict on one S-box.
fn walk(
    variant: Variant,
    start_round: usize,
    states: &[Vec<u8>],
    denominator_bits: u32,
    round_output: impl Fn(usize) -> Result<(State, [u8; 8]), String>,
    cell: impl Fn(u8, u8) -> CellVerdict,
) -> Evaluation {
    let width = variant.cell_width();
    let mut total = Product::one();
    let mut log2_total = 0.0f64;
    let mut steps = Vec::new();
    for (i, state) in states.iter().enumerate().take(states.len() - 1) {
        let round = start_round + i;
        let input = cells(width, state);
        let (output, rtk) = match round_output(i) {
            Ok(x) => x,
            Err(reason) => {
                let impossible = Some(Impossible { round, cell: None, reason });
                return Evaluation { steps, log2: None, exact: None, impossible };
            }
        };
        let mut product = Product::one();
        let mut log2 = 0.0f64;
        let mut failed = None;
        for c in 0..16 {
            match cell(input[c], output[c]) {
                CellVerdict::Entry(e) => {
                    product.times(e, denominator_bits);
                    log2 += (e.unsigned_abs() as f64).log2() - f64::from(denominator_bits);
                }
                CellVerdict::Impossible(why) => {
                    failed = Some(Impossible { round, cell: Some(c), reason: format!("cell {c}: {why}") });
                    product.times(0, denominator_bits);
                    break;
                }
            }
        }
        steps.push(RoundStep {
            round,
            sbox_input: state.clone(),
            sbox_output: block(width, &output),
            round_tweakey: half_block(width, &rtk),
            active: input.iter().filter(|&&a| a != 0).count(),
            log2: failed.is_none().then_some(log2),
            exact: product.exact(),
        });
        if let Some(impossible) = failed {
            return Evaluation { steps, log2: None, exact: None, impossible: Some(impossible) };
        }
        log2_total += log2;
        merge_into(&mut total, &product);
    }
    Evaluation { steps, log2: Some(log2_total), exact: Some(total.exact()), impossible: None }
}

/// MixColumns' transpose: a mask on its output as a mask on its input
/// (`(a0⊕a2⊕a3, a0, a1⊕a2, a0⊕a2)` has the transpose
/// `(v0⊕v1⊕v3, v2, v0⊕v2⊕v3, v0)`).
pub(crate) fn mix_columns_transpose(s: &mut State) {
    for c in 0..4 {
        let (v0, v1, v2, v3) = (s[c], s[4 + c], s[8 + c], s[12 + c]);
        s[c] = v0 ^ v1 ^ v3;
        s[4 + c] = v2;
        s[8 + c] = v0 ^ v2 ^ v3;
        s[12 + c] = v0;
    }
}

impl DifferentialCharacteristic {
    /// The exact probability from the DDT, round by round: each round's
    /// S-box output difference from the next state (MixColumns and ShiftRows
    /// undone, the round tweakey difference derived by the schedule added),
    /// each S-box's DDT entry, the product. Stops at the first round that
    /// cannot happen: a listed round tweakey difference that is not the
    /// schedule's, or an S-box transition of DDT entry 0.
    ///
    /// # Errors
    /// What [`Self::check`] refuses.
    pub fn evaluate(&self) -> Result<Evaluation, CharacteristicError> {
        self.check()?;
        let width = self.variant.cell_width();
        let n = cell_bits(width);
        let table = ddt(&sbox(self.variant));
        let rtk = self.round_tweakey_cells();
        let mismatch = self.first_schedule_mismatch();
        let round_output = |i: usize| {
            if let Some(m) = mismatch.as_ref().filter(|m| m.round == self.start_round + i) {
                return Err(format!(
                    "the round tweakey difference listed, {}, is not the schedule's, {}",
                    hex::encode(&m.given),
                    hex::encode(&m.derived)
                ));
            }
            let mut s = cells(width, &self.states[i + 1]);
            mix_columns_inv(&mut s);
            shift_rows_inv(&mut s);
            for (x, k) in s.iter_mut().zip(&rtk[i]) {
                *x ^= k;
            }
            Ok((s, rtk[i]))
        };
        let cell = |a: u8, b: u8| {
            // Cells are below 2^n: the table has the entry.
            let e = table.get(&[usize::from(a), usize::from(b)]).unwrap_or(0);
            if e > 0 {
                CellVerdict::Entry(i64::from(e))
            } else if a == 0 {
                CellVerdict::Impossible(format!("no difference enters the S-box, but {b:#x} leaves it"))
            } else {
                CellVerdict::Impossible(format!("DDT[{a:#x}][{b:#x}] = 0: the S-box never takes {a:#x} to {b:#x}"))
            }
        };
        Ok(walk(self.variant, self.start_round, &self.states, n, round_output, cell))
    }
}

impl LinearCharacteristic {
    /// The correlation from the LAT, round by round: each round's S-box
    /// output mask `SR⁻¹(MCᵀ(γ))` from the next mask `γ`, each S-box's
    /// correlation `LAT[α][β] / 2^(n−1)`, the product. The sign is the
    /// tables' (the key and constant bits under the masks flip it per key);
    /// the magnitude is exact. Stops at the first S-box of LAT entry 0.
    ///
    /// # Errors
    /// What [`Self::check`] refuses.
    pub fn evaluate(&self) -> Result<Evaluation, CharacteristicError> {
        self.check()?;
        let width = self.variant.cell_width();
        let n = cell_bits(width);
        let table = lat(&sbox(self.variant));
        let round_output = |i: usize| {
            let mut s = cells(width, &self.masks[i + 1]);
            mix_columns_transpose(&mut s);
            shift_rows_inv(&mut s);
            Ok((s, [0u8; 8]))
        };
        let cell = |a: u8, b: u8| {
            let e = table.get(&[usize::from(a), usize::from(b)]).unwrap_or(0);
            if e != 0 {
                CellVerdict::Entry(i64::from(e))
            } else if a == 0 {
                CellVerdict::Impossible(format!("no mask enters the S-box, but {b:#x} leaves it"))
            } else {
                CellVerdict::Impossible(format!(
                    "LAT[{a:#x}][{b:#x}] = 0: the approximation {a:#x} -> {b:#x} has correlation 0"
                ))
            }
        };
        Ok(walk(self.variant, self.start_round, &self.masks, n - 1, round_output, cell))
    }
}
