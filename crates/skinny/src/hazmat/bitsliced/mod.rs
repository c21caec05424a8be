//! Bitsliced SKINNY: many blocks at once, constant time.
//!
//! A batch of blocks is transposed so that one machine word holds the same bit of
//! every block (module `transpose`); the round function then works on whole
//! words with XOR, AND, OR and NOT only (modules `sbox`, `round`); the round
//! tweakeys, the same for every block, are spread into all-ones/all-zero masks
//! (module `keys`) before the batches run (module `batch`). Nothing branches on
//! or indexes by secret data.
//!
//! Three code paths (module `paths`, one file each) share that code through one
//! word abstraction (module `word`):
//! - [`Path::PortableU64`]: `u64` slices, 64 blocks a batch, every target;
//! - [`Path::Avx2`]: 256-bit slices, 256 blocks a batch, x86-64 with AVX2 found
//!   at run time (`cpufeatures`: one CPUID query, cached in a static, with or
//!   without `std`);
//! - [`Path::Avx512`]: 512-bit slices, 512 blocks a batch, x86-64 with AVX-512F
//!   found at run time the same way; its three-input logic instruction makes
//!   each S-box gate one operation.
//!
//! [`crate::Skinny::encrypt_blocks`] picks [`Path::best`];
//! [`crate::Skinny::encrypt_blocks_with`] runs a chosen path, so tests can force
//! a slower path on any machine and compare them.
//!
//! [`PerBlockTweakeys`] runs the same rounds with a tweakey of its own for every
//! block, [`PerBlockTk1`] with a TK1 of its own: the tweakeys are transposed like
//! the data and the tweakey schedule runs in bitsliced form between the rounds
//! (module `per_block`, the schedule itself in `per_block::schedule`), again with
//! bitwise operations only. See `docs/cpu-bitsliced.md` for the operation counts
//! and speeds.
//!
//! [`Lockstep`] keeps a batch of lanes sliced across many calls, every lane
//! with its own TK2..TKz (expanded once into sliced round tweakeys) and all
//! lanes sharing TK1 (masks per round): Romulus over many messages of one
//! shape (module `lockstep`).

// Index loops over cells and bits read like the specification's formulas.
#![allow(clippy::needless_range_loop)]

mod batch;
mod keys;
mod lockstep;
mod paths;
mod per_block;
mod round;
mod sbox;
mod transpose;
mod word;
mod work;

#[cfg(test)]
mod tests;

pub use batch::Direction;
pub use keys::round_key_bits;
pub(crate) use keys::SlicedTweakeys;
pub use lockstep::{Lockstep, LockstepError};
pub(crate) use paths::crypt;
pub use paths::{Path, PathUnavailable};
pub use per_block::{PerBlockTk1, PerBlockTweakeys};
