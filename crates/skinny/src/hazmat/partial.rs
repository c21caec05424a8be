//! Rounds `s ..= s + r - 1` of SKINNY on their own, for cryptanalysis: a
//! distinguisher that covers the middle of the cipher runs round `s`'s
//! constants and round `s`'s tweakey state, not round 1's.
//!
//! Rounds are numbered from 1 as in the specification: round `s` adds the
//! `s`-th round constant and the first two rows of the tweakey state after
//! `s - 1` steps of the schedule. The tweakey of a call is given either as the
//! master tweakey ([`TweakeyAt::Master`], advanced here by `s - 1` steps) or as
//! round `s`'s state itself ([`TweakeyAt::Start`]); [`advance_tweakey`] and
//! [`rewind_tweakey`] go between the two (the schedule is a permutation of
//! tweakey states, and linear, so differences move the same way).
//!
//! - [`encrypt_rounds`] / [`decrypt_rounds`]: one block through the
//!   specification code (the reference).
//! - [`partial_cipher`]: the same rounds as a [`Skinny`], so every backend
//!   (single-block, bitsliced, [`crate::BitslicedSkinny`]) runs them: round
//!   `s`'s constants differ from round 1's only in cells 0 and 4, which lie in
//!   the rows the round tweakey covers, so the difference is folded into the
//!   round tweakeys.
//!
//! Key material: the tweakeys and the ciphers made here are secret as any
//! other; scratch copies are wiped.

use crate::hazmat::spec::round::{self, ROUND_CONSTANTS};
use crate::hazmat::spec::tweakey::{lfsr_tk2, lfsr_tk3, load_tk, RoundTweakeys, TweakeyArray, PT};
use crate::hazmat::spec::{pack_cells, unpack_cells, CellWidth};
use crate::{Skinny, Variant};
use zeroize::Zeroize;

/// Where the tweakey given to a partial-round call sits in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TweakeyAt {
    /// The master tweakey (the state before round 1).
    #[default]
    Master,
    /// The tweakey state of the start round (after `start - 1` steps).
    Start,
}

impl TweakeyAt {
    /// `master` or `start`.
    pub const fn name(self) -> &'static str {
        match self {
            TweakeyAt::Master => "master",
            TweakeyAt::Start => "start",
        }
    }
}

/// Why a partial-round call refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PartialRoundsError {
    /// A tweakey that is not `variant.tweakey_bytes()` long.
    TweakeyLength {
        /// The variant.
        variant: Variant,
        /// The length given.
        got: usize,
    },
    /// A block that is not `variant.block_bytes()` long.
    BlockLength {
        /// The variant.
        variant: Variant,
        /// The length given.
        got: usize,
    },
    /// Rounds outside the cipher: `start >= 1`, `rounds >= 1` and
    /// `start + rounds - 1 <= variant.rounds()` are needed.
    Rounds {
        /// The variant.
        variant: Variant,
        /// The start round asked for (from 1).
        start: usize,
        /// The rounds asked for.
        rounds: usize,
    },
}

impl core::fmt::Display for PartialRoundsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            PartialRoundsError::TweakeyLength { variant, got } => {
                write!(f, "{variant} needs a tweakey of {} bytes, got {got}", variant.tweakey_bytes())
            }
            PartialRoundsError::BlockLength { variant, got } => {
                write!(f, "{variant} has {}-byte blocks, got {got}", variant.block_bytes())
            }
            PartialRoundsError::Rounds { variant, start, rounds } => write!(
                f,
                "{variant} has rounds 1 to {}: {rounds} rounds from round {start} do not fit",
                variant.rounds()
            ),
        }
    }
}

impl core::error::Error for PartialRoundsError {}

/// Checks that rounds `start ..= start + rounds - 1` lie in `variant`'s.
pub fn check_rounds(variant: Variant, start: usize, rounds: usize) -> Result<(), PartialRoundsError> {
    let fits = start >= 1 && rounds >= 1 && start.checked_add(rounds - 1).is_some_and(|end| end <= variant.rounds());
    if fits {
        Ok(())
    } else {
        Err(PartialRoundsError::Rounds { variant, start, rounds })
    }
}

/// The inverse of [`lfsr_tk2`].
pub const fn lfsr_tk2_inv(width: CellWidth, y: u8) -> u8 {
    match width {
        CellWidth::Nibble => (y >> 1) | (((y ^ (y >> 3)) & 1) << 3),
        CellWidth::Byte => (y >> 1) | (((y ^ (y >> 6)) & 1) << 7),
    }
}

/// The inverse of [`lfsr_tk3`].
pub const fn lfsr_tk3_inv(width: CellWidth, y: u8) -> u8 {
    match width {
        CellWidth::Nibble => ((y << 1) & 0xe) | (((y >> 3) ^ (y >> 2)) & 1),
        CellWidth::Byte => (y << 1) | (((y >> 7) ^ (y >> 5)) & 1),
    }
}

/// One step of TK`z+1`'s schedule (`z` = 0, 1, 2), forward or undone.
fn step_array(width: CellWidth, z: usize, tk: &mut TweakeyArray, forward: bool) {
    let mut next = [0u8; 16];
    if forward {
        for (n, &from) in next.iter_mut().zip(PT.iter()) {
            *n = tk[from];
        }
        for cell in next.iter_mut().take(8) {
            *cell = match z {
                1 => lfsr_tk2(width, *cell),
                2 => lfsr_tk3(width, *cell),
                _ => *cell,
            };
        }
    } else {
        for cell in tk.iter_mut().take(8) {
            *cell = match z {
                1 => lfsr_tk2_inv(width, *cell),
                2 => lfsr_tk3_inv(width, *cell),
                _ => *cell,
            };
        }
        for (i, &from) in PT.iter().enumerate() {
            next[from] = tk[i];
        }
    }
    *tk = next;
    next.zeroize();
}

/// `tweakey` moved `steps` schedule steps forward or back, in place.
fn move_tweakey(variant: Variant, tweakey: &mut [u8], steps: usize, forward: bool) -> Result<(), PartialRoundsError> {
    if tweakey.len() != variant.tweakey_bytes() {
        return Err(PartialRoundsError::TweakeyLength { variant, got: tweakey.len() });
    }
    let width = variant.cell_width();
    let bb = width.block_bytes();
    for z in 0..variant.tk_count() {
        let mut tk = load_tk(width, tweakey, z);
        // TK1 has period 16, and every LFSR has a period dividing 15 or 16·15:
        // the count is taken as given (at most a few hundred steps in use).
        for _ in 0..steps {
            step_array(width, z, &mut tk, forward);
        }
        pack_cells(width, &tk, &mut tweakey[z * bb..(z + 1) * bb]);
        tk.zeroize();
    }
    Ok(())
}

/// Advances `tweakey` (TK1 ‖ TK2 ‖ TK3) by `steps` steps of the schedule, in
/// place: the master tweakey advanced by `s - 1` steps is round `s`'s state.
/// Linear, so it moves a tweakey difference the same way.
///
/// # Errors
/// [`PartialRoundsError::TweakeyLength`].
pub fn advance_tweakey(variant: Variant, tweakey: &mut [u8], steps: usize) -> Result<(), PartialRoundsError> {
    move_tweakey(variant, tweakey, steps, true)
}

/// Undoes [`advance_tweakey`]: round `s`'s state rewound by `s - 1` steps is
/// the master tweakey.
///
/// # Errors
/// [`PartialRoundsError::TweakeyLength`].
pub fn rewind_tweakey(variant: Variant, tweakey: &mut [u8], steps: usize) -> Result<(), PartialRoundsError> {
    move_tweakey(variant, tweakey, steps, false)
}

/// The round tweakeys of rounds `start ..` (`rounds` of them) for a tweakey
/// given `at`, checked.
fn start_schedule(
    variant: Variant,
    tweakey: &[u8],
    at: TweakeyAt,
    start: usize,
    rounds: usize,
) -> Result<RoundTweakeys, PartialRoundsError> {
    check_rounds(variant, start, rounds)?;
    if tweakey.len() != variant.tweakey_bytes() {
        return Err(PartialRoundsError::TweakeyLength { variant, got: tweakey.len() });
    }
    let mut state = [0u8; 48];
    let state = &mut state[..tweakey.len()];
    state.copy_from_slice(tweakey);
    if at == TweakeyAt::Master {
        advance_tweakey(variant, state, start - 1)?;
    }
    let rtk = RoundTweakeys::expand_rounds(variant, state, rounds);
    state.zeroize();
    Ok(rtk)
}

/// Encrypts `block` through rounds `start ..= start + rounds - 1` with the
/// specification code (round `start`'s constants onwards), under `tweakey`
/// given `at` the master or at round `start`.
///
/// # Errors
/// [`PartialRoundsError`] for lengths or rounds out of range.
pub fn encrypt_rounds(
    variant: Variant,
    tweakey: &[u8],
    at: TweakeyAt,
    start: usize,
    rounds: usize,
    block: &mut [u8],
) -> Result<(), PartialRoundsError> {
    crypt_rounds(variant, tweakey, at, start, rounds, block, true)
}

/// Decrypts `block` through the same rounds as [`encrypt_rounds`], undone
/// from the last.
///
/// # Errors
/// As [`encrypt_rounds`].
pub fn decrypt_rounds(
    variant: Variant,
    tweakey: &[u8],
    at: TweakeyAt,
    start: usize,
    rounds: usize,
    block: &mut [u8],
) -> Result<(), PartialRoundsError> {
    crypt_rounds(variant, tweakey, at, start, rounds, block, false)
}

fn crypt_rounds(
    variant: Variant,
    tweakey: &[u8],
    at: TweakeyAt,
    start: usize,
    rounds: usize,
    block: &mut [u8],
    encrypt: bool,
) -> Result<(), PartialRoundsError> {
    if block.len() != variant.block_bytes() {
        return Err(PartialRoundsError::BlockLength { variant, got: block.len() });
    }
    let rtk = start_schedule(variant, tweakey, at, start, rounds)?;
    let width = variant.cell_width();
    let mut s = [0u8; 16];
    unpack_cells(width, block, &mut s);
    let keys = rtk.as_cells().iter().enumerate();
    // Round `start + j` (from 1) uses constant index `start - 1 + j`.
    if encrypt {
        for (j, k) in keys {
            round::round(width, &mut s, start - 1 + j, k);
        }
    } else {
        for (j, k) in keys.rev() {
            round::round_inv(width, &mut s, start - 1 + j, k);
        }
    }
    pack_cells(width, &s, block);
    s.zeroize();
    Ok(())
}

/// Rounds `start ..= start + rounds - 1` under `tweakey` (given `at`) as a
/// [`Skinny`] of `rounds` rounds, which every backend runs: the constants of
/// rounds `start ..` are folded into its round tweakeys (cells 0 and 4).
/// With `start == 1` it is [`Skinny::with_rounds`].
///
/// # Errors
/// [`PartialRoundsError`] for a tweakey length or rounds out of range.
pub fn partial_cipher(
    variant: Variant,
    tweakey: &[u8],
    at: TweakeyAt,
    start: usize,
    rounds: usize,
) -> Result<Skinny, PartialRoundsError> {
    let mut rtk = start_schedule(variant, tweakey, at, start, rounds)?;
    for j in 0..rounds {
        // The backends add constant j; round start + j wants start - 1 + j.
        let d = ROUND_CONSTANTS[j] ^ ROUND_CONSTANTS[start - 1 + j];
        let mut cells = [0u8; 8];
        cells[0] = d & 0xf;
        cells[4] = d >> 4;
        rtk.xor_round(j, &cells);
    }
    Ok(Skinny::from_parts(variant, rtk))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lfsr_inverses_undo_the_lfsrs() {
        for (width, top) in [(CellWidth::Nibble, 16u16), (CellWidth::Byte, 256)] {
            for x in 0..top {
                let x = x as u8;
                assert_eq!(lfsr_tk2_inv(width, lfsr_tk2(width, x)), x, "{width:?} {x}");
                assert_eq!(lfsr_tk3_inv(width, lfsr_tk3(width, x)), x, "{width:?} {x}");
            }
        }
    }

    #[test]
    fn rounds_must_fit() {
        let v = Variant::Skinny64_64;
        assert!(check_rounds(v, 1, 32).is_ok());
        assert!(check_rounds(v, 32, 1).is_ok());
        assert!(check_rounds(v, 0, 1).is_err());
        assert!(check_rounds(v, 1, 0).is_err());
        assert!(check_rounds(v, 2, 32).is_err());
        assert!(check_rounds(v, usize::MAX, 2).is_err());
    }
}
