//! The round tweakeys of the TK arrays that stay the same across calls,
//! expanded once; each call gives the others (TK1, or TK1 ‖ TK2, or all) and
//! their part is added in the rounds.
//!
//! The tweakey schedule is linear in each TK array, so the round tweakeys of a
//! whole tweakey are the XOR of each array's part. Schemes that change only the
//! first arrays per call (the tweakable ciphers: TK1; Romulus: TK1, the counter
//! and domain, or TK1 ‖ TK2 in its AD phase) need not expand the rest per call.
//! On [`Path::Ssse3Split`] the fixed part is stored through the linear layer and
//! split into nibbles, with the round constants, and each call's arrays are
//! added round by round beside the state's chain (TK1 by one shuffle per
//! register; TK2 and TK3 after their LFSRs, run on whole registers).

use super::{Path, PathUnavailable};
use crate::spec::tweakey::{load_tk, RoundTweakeys, TweakeyArray};
use crate::{InvalidRounds, Variant};
use zeroize::Zeroize;

/// Why a [`FixedTweakeyPart`] could not be built or used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TweakeyPartError {
    /// The fixed arrays were not a whole number of TK arrays (of
    /// `variant.block_bytes()` each) fewer than the variant has.
    FixedLength {
        /// The variant asked for.
        variant: Variant,
        /// The length given, in bytes.
        got: usize,
    },
    /// A round count outside 1 ..= the variant's full count.
    Rounds(InvalidRounds),
    /// A call's arrays did not have [`FixedTweakeyPart::per_call_bytes`].
    PerCallLength {
        /// The length expected.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A block was not one block long.
    BlockLength {
        /// The length expected.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// The path asked for is not available on this CPU.
    Path(PathUnavailable),
}

impl core::fmt::Display for TweakeyPartError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::FixedLength { variant, got } => write!(
                f,
                "{variant} has TK arrays of {} bytes and at most {} fixed ones; got {got} bytes",
                variant.block_bytes(),
                variant.tk_count() - 1
            ),
            Self::Rounds(e) => e.fmt(f),
            Self::PerCallLength { expected, got } => {
                write!(f, "the per-call TK arrays need {expected} bytes, got {got}")
            }
            Self::BlockLength { expected, got } => write!(f, "a block has {expected} bytes, got {got}"),
            Self::Path(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for TweakeyPartError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Rounds(e) => Some(e),
            Self::Path(e) => Some(e),
            _ => None,
        }
    }
}

/// The fixed part in the form the chosen path adds it. (The split form is the
/// larger; the crate has no allocator to box it, and a value holds one form.)
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Expanded {
    /// Through the linear layer, split, with the constants ([`Path::Ssse3Split`]).
    #[cfg(target_arch = "x86_64")]
    Split(super::split_x86::SplitRoundKeys),
    /// Through the linear layer, with the constants ([`Path::Avx512Vbmi`]).
    #[cfg(target_arch = "x86_64")]
    Vbmi(super::vbmi::VbmiRoundKeys),
    /// As round tweakeys, for every other path.
    Cells(RoundTweakeys),
}

/// SKINNY with the last TK arrays fixed and expanded once for a chosen number
/// of rounds; each call gives the first ones (TK1, or TK1 ‖ TK2, ...).
///
/// `FixedTweakeyPart::new(v, fixed, rounds)` then `encrypt_block(per_call,
/// block)` equals `Skinny::with_rounds(v, per_call ‖ fixed, rounds)` then
/// `encrypt_block(block)`. For the 128-bit variants on x86-64 with SSSE3 it
/// runs [`Path::Ssse3Split`] with the per-call arrays added in the rounds;
/// elsewhere (and for decryption) it builds the round tweakeys of each call
/// from the fixed part and runs the single-block path. Everything derived from
/// the tweakey is wiped when the value is dropped.
#[derive(Clone)]
pub struct FixedTweakeyPart {
    variant: Variant,
    rounds: usize,
    /// How many TK arrays each call gives (the first ones).
    per_call: usize,
    /// The fixed arrays in their slots (zero in the per-call slots).
    fixed: [TweakeyArray; 3],
    expanded: Expanded,
}

impl FixedTweakeyPart {
    /// Expands the fixed arrays `fixed` (the last `fixed.len() / block` TK
    /// arrays of `variant`, possibly none) for `rounds` rounds.
    ///
    /// # Errors
    /// [`TweakeyPartError::FixedLength`] or [`TweakeyPartError::Rounds`].
    pub fn new(variant: Variant, fixed: &[u8], rounds: usize) -> Result<Self, TweakeyPartError> {
        let block = variant.block_bytes();
        let count = variant.tk_count();
        if !fixed.len().is_multiple_of(block) || fixed.len() / block >= count {
            return Err(TweakeyPartError::FixedLength { variant, got: fixed.len() });
        }
        if !(1..=variant.rounds()).contains(&rounds) {
            return Err(TweakeyPartError::Rounds(InvalidRounds { variant, got: rounds }));
        }
        let width = variant.cell_width();
        let per_call = count - fixed.len() / block;
        let mut arrays = [[0u8; 16]; 3];
        for (z, slot) in arrays.iter_mut().enumerate().take(count).skip(per_call) {
            *slot = load_tk(width, fixed, z - per_call);
        }
        let expanded = Self::expand(variant, rounds, per_call, &arrays);
        Ok(Self { variant, rounds, per_call, fixed: arrays, expanded })
    }

    fn expand(variant: Variant, rounds: usize, per_call: usize, arrays: &[TweakeyArray; 3]) -> Expanded {
        #[cfg(target_arch = "x86_64")]
        if variant.cell_width() == crate::CellWidth::Byte {
            match Path::best_for(crate::CellWidth::Byte) {
                Path::Avx512Vbmi => return Expanded::Vbmi(super::vbmi::VbmiRoundKeys::expand(arrays, rounds)),
                Path::Ssse3Split => return Expanded::Split(super::split_x86::SplitRoundKeys::expand(arrays, rounds)),
                _ => {}
            }
        }
        let mut rtk = RoundTweakeys::zero(rounds);
        for (z, tk) in arrays.iter().enumerate().take(variant.tk_count()).skip(per_call) {
            let mut tk = *tk;
            rtk.xor_schedule_of(variant.cell_width(), z, &mut tk);
            tk.zeroize();
        }
        Expanded::Cells(rtk)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The number of rounds.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// Bytes of TK arrays each call gives (TK1, or TK1 ‖ TK2, ...).
    pub fn per_call_bytes(&self) -> usize {
        self.per_call * self.variant.block_bytes()
    }

    /// Checks a call's lengths and reads its arrays into their slots.
    fn arrays(&self, per_call: &[u8], block: &[u8]) -> Result<[TweakeyArray; 3], TweakeyPartError> {
        let expected = self.per_call_bytes();
        if per_call.len() != expected {
            return Err(TweakeyPartError::PerCallLength { expected, got: per_call.len() });
        }
        let expected = self.variant.block_bytes();
        if block.len() != expected {
            return Err(TweakeyPartError::BlockLength { expected, got: block.len() });
        }
        let mut arrays = [[0u8; 16]; 3];
        for (z, slot) in arrays.iter_mut().enumerate().take(self.per_call) {
            *slot = load_tk(self.variant.cell_width(), per_call, z);
        }
        Ok(arrays)
    }

    /// The whole round tweakeys of one call.
    fn schedule(&self, arrays: &[TweakeyArray; 3]) -> RoundTweakeys {
        let width = self.variant.cell_width();
        let mut rtk = match &self.expanded {
            Expanded::Cells(fixed) => fixed.clone(),
            #[cfg(target_arch = "x86_64")]
            Expanded::Split(_) | Expanded::Vbmi(_) => {
                let mut rtk = RoundTweakeys::zero(self.rounds);
                for (z, tk) in self.fixed.iter().enumerate().take(self.variant.tk_count()).skip(self.per_call) {
                    let mut tk = *tk;
                    rtk.xor_schedule_of(width, z, &mut tk);
                    tk.zeroize();
                }
                rtk
            }
        };
        for (z, tk) in arrays.iter().enumerate().take(self.per_call) {
            let mut tk = *tk;
            rtk.xor_schedule_of(width, z, &mut tk);
            tk.zeroize();
        }
        rtk
    }

    /// Encrypts one block in place under the per-call arrays `per_call`
    /// followed by the fixed ones.
    ///
    /// # Errors
    /// [`TweakeyPartError::PerCallLength`] or [`TweakeyPartError::BlockLength`]
    /// (nothing written).
    pub fn encrypt_block(&self, per_call: &[u8], block: &mut [u8]) -> Result<(), TweakeyPartError> {
        #[cfg(target_arch = "x86_64")]
        match &self.expanded {
            Expanded::Split(keys) => return self.encrypt_split(keys, per_call, block),
            Expanded::Vbmi(keys) => return self.encrypt_vbmi(keys, per_call, block),
            Expanded::Cells(_) => {}
        }
        let mut arrays = self.arrays(per_call, block)?;
        let rtk = self.schedule(&arrays);
        arrays.zeroize();
        super::encrypt_block(self.variant.cell_width(), &rtk, block);
        Ok(())
    }

    /// A call's lengths checked for the register paths (8-bit cells, so the
    /// arrays are the bytes as given): the per-call arrays and the block.
    #[cfg(target_arch = "x86_64")]
    fn call_arrays<'a>(
        &self,
        per_call: &'a [u8],
        block: &'a mut [u8],
    ) -> Result<(&'a [[u8; 16]], &'a mut [u8; 16]), TweakeyPartError> {
        let expected = self.per_call_bytes();
        if per_call.len() != expected {
            return Err(TweakeyPartError::PerCallLength { expected, got: per_call.len() });
        }
        let got = block.len();
        let block: &mut [u8; 16] = block.try_into().map_err(|_| TweakeyPartError::BlockLength { expected: 16, got })?;
        Ok((per_call.as_chunks::<16>().0, block))
    }

    /// [`FixedTweakeyPart::encrypt_block`] on [`Path::Ssse3Split`].
    #[cfg(target_arch = "x86_64")]
    fn encrypt_split(
        &self,
        keys: &super::split_x86::SplitRoundKeys,
        per_call: &[u8],
        block: &mut [u8],
    ) -> Result<(), TweakeyPartError> {
        use super::split_x86::PerCallTk3;
        match self.call_arrays(per_call, block)? {
            ([tk1], block) => keys.encrypt_tk1(tk1, block),
            ([tk1, tk2], block) => keys.encrypt_arrays(&[*tk1, *tk2, [0; 16]], PerCallTk3::Fixed, block),
            ([tk1, tk2, tk3], block) => keys.encrypt_arrays(&[*tk1, *tk2, *tk3], PerCallTk3::Given, block),
            _ => unreachable!("one to three arrays per call"),
        }
        Ok(())
    }

    /// [`FixedTweakeyPart::encrypt_block`] on [`Path::Avx512Vbmi`].
    #[cfg(target_arch = "x86_64")]
    fn encrypt_vbmi(
        &self,
        keys: &super::vbmi::VbmiRoundKeys,
        per_call: &[u8],
        block: &mut [u8],
    ) -> Result<(), TweakeyPartError> {
        match self.call_arrays(per_call, block)? {
            ([tk1], block) => keys.encrypt_tk1(tk1, block),
            ([tk1, tk2], block) => keys.encrypt_arrays(&[*tk1, *tk2, [0; 16]], 2, block),
            ([tk1, tk2, tk3], block) => keys.encrypt_arrays(&[*tk1, *tk2, *tk3], 3, block),
            _ => unreachable!("one to three arrays per call"),
        }
        Ok(())
    }

    /// [`FixedTweakeyPart::encrypt_block`] on `path` (for tests and
    /// benchmarks; paths other than the one the fixed part was expanded for
    /// build each call's round tweakeys first).
    ///
    /// # Errors
    /// As [`FixedTweakeyPart::encrypt_block`], and [`TweakeyPartError::Path`].
    pub fn encrypt_block_with(&self, path: Path, per_call: &[u8], block: &mut [u8]) -> Result<(), TweakeyPartError> {
        if !path.is_available() {
            return Err(TweakeyPartError::Path(PathUnavailable(path)));
        }
        #[cfg(target_arch = "x86_64")]
        if (path == Path::Ssse3Split && matches!(self.expanded, Expanded::Split(_)))
            || (path == Path::Avx512Vbmi && matches!(self.expanded, Expanded::Vbmi(_)))
        {
            return self.encrypt_block(per_call, block);
        }
        let mut arrays = self.arrays(per_call, block)?;
        let rtk = self.schedule(&arrays);
        arrays.zeroize();
        super::encrypt_block_with(path, self.variant.cell_width(), &rtk, block).map_err(TweakeyPartError::Path)
    }

    /// Decrypts one block in place (the inverse of
    /// [`FixedTweakeyPart::encrypt_block`]).
    ///
    /// # Errors
    /// As [`FixedTweakeyPart::encrypt_block`].
    pub fn decrypt_block(&self, per_call: &[u8], block: &mut [u8]) -> Result<(), TweakeyPartError> {
        let mut arrays = self.arrays(per_call, block)?;
        let rtk = self.schedule(&arrays);
        arrays.zeroize();
        super::decrypt_block(self.variant.cell_width(), &rtk, block);
        Ok(())
    }
}

impl Drop for FixedTweakeyPart {
    fn drop(&mut self) {
        self.fixed.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for FixedTweakeyPart {}

impl core::fmt::Debug for FixedTweakeyPart {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "FixedTweakeyPart {{ variant: {}, rounds: {}, per_call: {}, .. }}",
            self.variant, self.rounds, self.per_call
        )
    }
}
