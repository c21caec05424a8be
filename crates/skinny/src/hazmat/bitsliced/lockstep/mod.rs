//! [`Lockstep`]: a batch of lanes (one block each) that stays in bitsliced
//! form across many cipher calls, every lane with its own TK2..TKz and all
//! lanes sharing TK1.
//!
//! The shape of Romulus run on many messages of one shape at once: TK1 (the
//! block counter and domain) depends on the position in the message only, so
//! it is the same for every lane of a group, while TK2 ‖ TK3 (nonce ‖ key) is
//! per message and fixed for most of its calls. So:
//! - the lanes' TK2..TKz are expanded once ([`Lockstep::expand`]) into sliced
//!   round tweakeys (64 slices a round, the round constants folded in), which
//!   every call of the rounds reads instead of transposing and stepping a
//!   schedule;
//! - TK1's round tweakey is a handful of masks per round, the same for every
//!   lane (its schedule is the cell permutation alone); with its bytes 8..16
//!   zero, the odd rounds add nothing for it;
//! - the state stays sliced between calls: the caller slices blocks in and
//!   out ([`Lockstep::slice_in`], [`Lockstep::slice_out`]) only where data
//!   enters or leaves, and does the mode's linear work on the slices.
//!
//! No allocation (the crate has none): the caller owns every buffer.
//! Layout of a sliced array of blocks ([`Lockstep::state_bytes`] bytes): 128
//! slices of [`Lockstep::slice_bytes`] bytes, slice `8·c + b` holding bit `b`
//! of byte `c` of every lane's block. Inside a slice the lanes are in the
//! path's order, the same for every array of one [`Lockstep`], so XORs and
//! moves of whole slices act lane by lane. Round tweakeys: `rounds` times 64
//! slices ([`Lockstep::tweakey_table_bytes`]). Both secret where their
//! inputs are: the caller wipes them.

// The sliced work itself; `paths` runs it under each ISA (importing it from
// here, not from this module, keeps `paths` and the public type apart).
pub(crate) mod engine;

use super::paths::{lockstep, Path, PathUnavailable};
use crate::{InvalidRounds, Variant};
use engine::Op;

/// Why [`Lockstep::new`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockstepError {
    /// Lockstep batches take variants with 16-byte blocks and a TK2
    /// (SKINNY-128-256 and SKINNY-128-384).
    Variant(Variant),
    /// The round count is out of range.
    Rounds(InvalidRounds),
}

impl core::fmt::Display for LockstepError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LockstepError::Variant(v) => write!(f, "{v} has no lockstep batches (16-byte blocks and a TK2 needed)"),
            LockstepError::Rounds(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for LockstepError {}

/// Lockstep batches of one variant, round count and bitsliced path (see the
/// module docs). Holds no key material.
///
/// ```
/// use skinny::hazmat::bitsliced::Lockstep;
/// use skinny::{Skinny, Variant};
///
/// let v = Variant::Skinny128_384;
/// let ls = Lockstep::new(v, 40).unwrap();
/// let n = ls.lanes();
/// // Every lane its own TK2 ‖ TK3; TK1 shared.
/// let rest: Vec<u8> = (0..32 * n).map(|i| (i * 7) as u8).collect();
/// let mut table = vec![0u8; ls.tweakey_table_bytes()];
/// ls.expand(&rest, &mut table);
/// let blocks: Vec<u8> = (0..16 * n).map(|i| i as u8).collect();
/// let mut state = vec![0u8; ls.state_bytes()];
/// ls.slice_in(&blocks, &mut state);
/// let tk1 = [5u8; 16];
/// ls.encrypt(&mut state, &tk1, &table);
/// let mut out = vec![0u8; 16 * n];
/// ls.slice_out(&state, &mut out);
/// // Lane 3 against the single-block cipher.
/// let tweakey = [&tk1[..], &rest[96..128]].concat();
/// let mut block = [0u8; 16];
/// block.copy_from_slice(&blocks[48..64]);
/// Skinny::with_rounds(v, &tweakey, 40).unwrap().encrypt_block(&mut block);
/// assert_eq!(out[48..64], block);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lockstep {
    variant: Variant,
    rounds: usize,
    path: Path,
}

impl Lockstep {
    /// `rounds` rounds of `variant` (1 ..= `variant.rounds()`) on
    /// [`Path::best`].
    ///
    /// # Errors
    /// [`LockstepError`] for a variant without 16-byte blocks and a TK2, or a
    /// round count out of range.
    pub fn new(variant: Variant, rounds: usize) -> Result<Self, LockstepError> {
        if variant.block_bytes() != 16 || variant.tk_count() < 2 {
            return Err(LockstepError::Variant(variant));
        }
        if !(1..=variant.rounds()).contains(&rounds) {
            return Err(LockstepError::Rounds(InvalidRounds { variant, got: rounds }));
        }
        Ok(Self { variant, rounds, path: Path::best() })
    }

    /// The same on a chosen path (tests force [`Path::PortableU64`] with it).
    ///
    /// # Errors
    /// [`PathUnavailable`] if this CPU cannot run `path`.
    pub fn on_path(self, path: Path) -> Result<Self, PathUnavailable> {
        if !path.is_available() {
            return Err(PathUnavailable(path));
        }
        Ok(Self { path, ..self })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The rounds run.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The bitsliced path used.
    pub fn path(&self) -> Path {
        self.path
    }

    /// Lanes (blocks) of a batch: the path's batch.
    pub fn lanes(&self) -> usize {
        self.path.batch_blocks()
    }

    /// Bytes of one slice: one bit of every lane.
    pub fn slice_bytes(&self) -> usize {
        self.lanes() / 8
    }

    /// Bytes of a sliced array of blocks: 128 slices.
    pub fn state_bytes(&self) -> usize {
        128 * self.slice_bytes()
    }

    /// Bytes of the lanes' sliced round tweakeys: 64 slices a round.
    pub fn tweakey_table_bytes(&self) -> usize {
        64 * self.slice_bytes() * self.rounds
    }

    /// Bytes of one lane's TK2..TKz in [`Lockstep::expand`]'s input.
    pub fn lane_tweakey_bytes(&self) -> usize {
        self.variant.tweakey_bytes() - 16
    }

    /// Slices `blocks` (up to [`Lockstep::lanes`] 16-byte blocks, block `i`
    /// into lane `i`; missing lanes get zero blocks) into `state`.
    ///
    /// # Panics
    /// If `blocks` is not whole blocks or more than a batch, or `state` is not
    /// [`Lockstep::state_bytes`] long.
    pub fn slice_in(&self, blocks: &[u8], state: &mut [u8]) {
        assert!(blocks.len().is_multiple_of(16) && blocks.len() <= 16 * self.lanes(), "up to a batch of blocks");
        assert_eq!(state.len(), self.state_bytes(), "a whole sliced state");
        self.run(Op::SliceIn { blocks, state });
    }

    /// Writes lanes `0 .. blocks.len() / 16` of `state` out as blocks (the
    /// inverse of [`Lockstep::slice_in`]).
    ///
    /// # Panics
    /// As [`Lockstep::slice_in`].
    pub fn slice_out(&self, state: &[u8], blocks: &mut [u8]) {
        assert!(blocks.len().is_multiple_of(16) && blocks.len() <= 16 * self.lanes(), "up to a batch of blocks");
        assert_eq!(state.len(), self.state_bytes(), "a whole sliced state");
        self.run(Op::SliceOut { state, blocks });
    }

    /// Expands every lane's TK2..TKz (`rest`: [`Lockstep::lane_tweakey_bytes`]
    /// a lane, lane `i` at `i` times that, up to a batch; missing lanes get
    /// zeros) into `table`: round `r`'s rows 0–1 of TK2 ⊕ .. ⊕ TKz and the
    /// round constants, sliced. Constant time.
    ///
    /// # Panics
    /// If `rest` is not whole lanes or more than a batch, or `table` is not
    /// [`Lockstep::tweakey_table_bytes`] long.
    pub fn expand(&self, rest: &[u8], table: &mut [u8]) {
        let t = self.lane_tweakey_bytes();
        assert!(rest.len().is_multiple_of(t) && rest.len() <= t * self.lanes(), "up to a batch of lanes");
        assert_eq!(table.len(), self.tweakey_table_bytes(), "a whole table");
        let tk_count = self.variant.tk_count();
        self.run(Op::Expand { tk_count, rounds: self.rounds, rest, out: table });
    }

    /// Encrypts every lane of the sliced `state` in place, lane `i` under the
    /// tweakey `tk1 ‖ (lane i's TK2..TKz)`, those expanded into `table` by
    /// [`Lockstep::expand`]. Constant time in the state and the table; TK1 is
    /// taken as public (whether its second half is zero picks the cheaper odd
    /// rounds, as in Romulus, where it is).
    ///
    /// # Panics
    /// If `state` or `table` have the wrong length.
    pub fn encrypt(&self, state: &mut [u8], tk1: &[u8; 16], table: &[u8]) {
        assert_eq!(state.len(), self.state_bytes(), "a whole sliced state");
        assert_eq!(table.len(), self.tweakey_table_bytes(), "a whole table");
        self.run(Op::Encrypt { rounds: self.rounds, tk1, tweakeys: table, state });
    }

    /// Bytes of every lane's TK1 first half in sliced form (64 slices of
    /// [`Lockstep::slice_bytes`]): what [`Lockstep::slice_tk1`] writes and
    /// [`Lockstep::encrypt_lane_tk1`] reads.
    pub fn tk1_slices_bytes(&self) -> usize {
        self.state_bytes() / 2
    }

    /// Slices every lane's TK1 first half (`halves`: 8 bytes a lane, lane `i`
    /// at `8·i`, up to a batch; missing lanes get zeros) into `tk1`, for
    /// [`Lockstep::encrypt_lane_tk1`]. Constant time.
    ///
    /// # Panics
    /// If `halves` is not whole lanes or more than a batch, or `tk1` is not
    /// [`Lockstep::tk1_slices_bytes`] long.
    pub fn slice_tk1(&self, halves: &[u8], tk1: &mut [u8]) {
        assert!(halves.len().is_multiple_of(8) && halves.len() <= 8 * self.lanes(), "up to a batch of halves");
        assert_eq!(tk1.len(), self.tk1_slices_bytes(), "64 whole slices");
        self.run(Op::SliceTk1 { halves, out: tk1 });
    }

    /// Encrypts every lane of the sliced `state` in place, lane `i` under its
    /// own TK1 (first half: lane `i` of `tk1`, from [`Lockstep::slice_tk1`];
    /// second half zero) ‖ its TK2..TKz from `table` ([`Lockstep::expand`]).
    /// For lanes at different positions of their messages (Romulus's TK1 is
    /// a counter and a domain in its first half). Constant time in the state,
    /// `tk1` and the table; no slower than [`Lockstep::encrypt`]: the shared
    /// TK1's masks become loads of the lanes' slices.
    ///
    /// # Panics
    /// If `state`, `tk1` or `table` have the wrong length.
    pub fn encrypt_lane_tk1(&self, state: &mut [u8], tk1: &[u8], table: &[u8]) {
        assert_eq!(state.len(), self.state_bytes(), "a whole sliced state");
        assert_eq!(tk1.len(), self.tk1_slices_bytes(), "64 whole slices");
        assert_eq!(table.len(), self.tweakey_table_bytes(), "a whole table");
        self.run(Op::EncryptLaneTk1 { rounds: self.rounds, tk1, tweakeys: table, state });
    }

    fn run(&self, op: Op<'_>) {
        lockstep(self.path, op);
    }
}
