//! What an experiment is as the lab kernels take it ([`KernelQuery`]), and
//! the per-experiment part of their `__constant__` tables.

use super::layout::TweakeyLayout;
use super::source::LabExperiment;
use crate::cells::{CellCondition, CellPattern};
use crate::error::LabError;
use crate::xor::xor;
use skinny::Variant;

/// The experiment's differences (lengths: a block, or the whole tweakey).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelQuery {
    /// A hit when `(E_K(P) ^ E_{K^dk}(P ^ dp)) & dc_mask == dc & dc_mask`
    /// and the difference meets `cells` (if given).
    Differential {
        /// Plaintext difference.
        dp: Vec<u8>,
        /// Ciphertext difference.
        dc: Vec<u8>,
        /// Which ciphertext bits count.
        dc_mask: Vec<u8>,
        /// Tweakey difference.
        dk: Vec<u8>,
        /// The ciphertext difference's cells: zero, non-zero or free.
        cells: Option<CellPattern>,
    },
    /// The related-tweakey boomerang: K2 = K1^dk1, K3 = K1^dk2, K4 = K2^dk2,
    /// a return when `D_K3(E_K1(P) ^ dc) ^ D_K4(E_K2(P ^ dp) ^ dc) == dp`.
    Boomerang {
        /// Plaintext difference.
        dp: Vec<u8>,
        /// Ciphertext difference.
        dc: Vec<u8>,
        /// Tweakey difference of the upper trail.
        dk1: Vec<u8>,
        /// Tweakey difference of the lower trail.
        dk2: Vec<u8>,
    },
    /// A hit when the parity of `(E_K(P) ^ E_{K^dk}(P ^ dp)) & mask` is 0.
    DifferentialLinear {
        /// Plaintext difference.
        dp: Vec<u8>,
        /// The output linear mask.
        mask: Vec<u8>,
        /// Tweakey difference.
        dk: Vec<u8>,
    },
    /// A hit when `parity(in_mask & P) == parity(out_mask & E_K(P))`.
    Linear {
        /// The input linear mask.
        in_mask: Vec<u8>,
        /// The output linear mask.
        out_mask: Vec<u8>,
    },
}

/// The per-experiment tables, as bytes (blocks) and word lists.
pub(crate) struct QueryTables {
    pub(crate) dp: Vec<u8>,
    pub(crate) dc: Vec<u8>,
    pub(crate) target: Vec<u8>,
    pub(crate) mask: Vec<u8>,
    pub(crate) in_mask: Vec<u8>,
    /// Tweakey words negated at the start, and after the last round.
    pub(crate) init: Vec<u32>,
    pub(crate) fin: Vec<u32>,
    /// The cells whose difference must be zero, and non-zero (bit c: cell c).
    pub(crate) cells_zero: u16,
    pub(crate) cells_nonzero: u16,
}

impl KernelQuery {
    pub(crate) fn experiment(&self) -> LabExperiment {
        match self {
            KernelQuery::Differential { .. } => LabExperiment::Differential,
            KernelQuery::Boomerang { .. } => LabExperiment::Boomerang,
            KernelQuery::DifferentialLinear { .. } => LabExperiment::DifferentialLinear,
            KernelQuery::Linear { .. } => LabExperiment::Linear,
        }
    }

    /// The tables for `v` and `rounds`, the lengths checked.
    pub(crate) fn tables(&self, v: Variant, rounds: usize, layout: &TweakeyLayout) -> Result<QueryTables, LabError> {
        let block = v.block_bytes();
        let tk = v.tweakey_bytes();
        let check = |what: &'static str, x: &[u8], expected: usize| {
            if x.len() == expected {
                Ok(())
            } else {
                Err(LabError::Length { what, variant: v, expected, got: x.len() })
            }
        };
        let zero = vec![0u8; block];
        let mut t = QueryTables {
            dp: zero.clone(),
            dc: zero.clone(),
            target: zero.clone(),
            mask: zero.clone(),
            in_mask: zero,
            init: Vec::new(),
            fin: Vec::new(),
            cells_zero: 0,
            cells_nonzero: 0,
        };
        match self {
            KernelQuery::Differential { dp, dc, dc_mask, dk, cells } => {
                check("dp", dp, block)?;
                check("dc", dc, block)?;
                check("dc_mask", dc_mask, block)?;
                check("dk", dk, tk)?;
                t.dp = dp.clone();
                t.target = dc.iter().zip(dc_mask).map(|(d, m)| d & m).collect();
                t.mask = dc_mask.clone();
                t.init = layout.scheduled_words(dk, 0);
                let p = cells.unwrap_or(CellPattern::FREE);
                t.cells_zero = p.cells_that_are(CellCondition::Zero);
                t.cells_nonzero = p.cells_that_are(CellCondition::NonZero);
            }
            KernelQuery::Boomerang { dp, dc, dk1, dk2 } => {
                check("dp", dp, block)?;
                check("dc", dc, block)?;
                check("dk1", dk1, tk)?;
                check("dk2", dk2, tk)?;
                t.init = layout.scheduled_words(&xor(dk1, dk2), 0);
                t.fin = layout.scheduled_words(dk2, rounds);
                (t.dp, t.dc, t.target, t.mask) = (dp.clone(), dc.clone(), dp.clone(), vec![0xff; block]);
            }
            KernelQuery::DifferentialLinear { dp, mask, dk } => {
                check("dp", dp, block)?;
                check("mask", mask, block)?;
                check("dk", dk, tk)?;
                (t.dp, t.mask) = (dp.clone(), mask.clone());
                t.init = layout.scheduled_words(dk, 0);
            }
            KernelQuery::Linear { in_mask, out_mask } => {
                check("in_mask", in_mask, block)?;
                check("out_mask", out_mask, block)?;
                (t.in_mask, t.mask) = (in_mask.clone(), out_mask.clone());
            }
        }
        Ok(t)
    }
}
