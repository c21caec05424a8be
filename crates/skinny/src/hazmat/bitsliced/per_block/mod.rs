//! Per-block tweakeys: every block of a batch has its own tweakey, and the
//! tweakey schedule runs on the fly in bitsliced form, next to the rounds.
//!
//! Each TK array of the batch (a block-sized value) is transposed exactly like the
//! data, so `tks[z][cell][bit]` is the slice of bit `bit` of cell `cell` of
//! TK(z+1) over the whole batch. A round XORs the first two rows of
//! TK1 ⊕ TK2 ⊕ TK3 into the state, slice by slice, plus the round constants c0
//! (cell 0) and c1 (cell 4) as masks made from the public round number
//! (module `round_key`); between the rounds the schedule moves and steps the
//! sliced arrays (module `schedule`); module `batch` runs the batches.
//!
//! A second keying, [`BlockKeys::Tk1`], gives each block its own TK1 only and
//! shares TK2..TKz (a key, and a nonce in SKINNY-AEAD) between all blocks. The
//! schedule is linear in each TK array, so a round tweakey is the shared
//! arrays' contribution (precomputed masks, with the round constants folded in,
//! exactly as for one tweakey) XOR TK1's, which needs no LFSR: only TK1 is
//! transposed and moved by `P`. That is 16 bytes a block to gather and
//! transpose instead of up to 48, and one TK array's slices a round.
//!
//! A third, [`BlockKeys::Lfsr`], is SKINNY-AEAD's: the whole tweakey (TK1
//! included, as a base) is in the shared masks and block `i`'s TK1 differs
//! from the base only by an LFSR counter in its first 8 bytes, which is made
//! in bitsliced form per batch instead of being read (see
//! `lfsr_counter::crypt_blocks_lfsr`).

mod batch;
mod lfsr_counter;
mod round_key;
mod schedule;
mod tk1;
mod tweakeys;

pub(crate) use batch::{crypt_blocks_for, crypt_blocks_in, BlockKeys, PerBlockWord};
pub(crate) use lfsr_counter::crypt_blocks_lfsr;
pub(crate) use lfsr_counter::lfsr_advance;
#[cfg(test)]
pub(crate) use lfsr_counter::lfsr_step;
pub(crate) use round_key::FixedKeys;
pub(crate) use schedule::{step, Tks, TK1_CELLS};
pub use tk1::PerBlockTk1;
pub use tweakeys::PerBlockTweakeys;
