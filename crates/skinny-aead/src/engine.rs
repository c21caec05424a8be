//! The block engine: every SKINNY call of the mode goes through [`BlockEngine`].
//!
//! The mode (`mode.rs`) never calls the cipher itself. It hands the engine a
//! batch of blocks, each with its own [`BlockTweak`] (the LFSR counter and the
//! domain byte); the engine builds each block's tweakey from that tweak and the
//! message's nonce and key, and runs the cipher. The mode's engine,
//! `BitslicedEngine` (`bitsliced.rs`), builds the batch's TK1s and runs them
//! all at once through the bitsliced per-block-TK1 path of `skinny`, and calls
//! too short for a batch one block at a time through `SingleEngine`
//! (`single.rs`: the message's TK2/TK3 expanded once, each block's TK1 added);
//! `SpecEngine` (`spec.rs`, tests only) expands one whole tweakey per block,
//! the reference the others are checked against. All are constant time; the
//! tests check that the mode gives the same bytes through each.

use crate::tweakey::{Block, BlockTweak, Lfsr, BLOCK};
use skinny::hazmat::bitsliced::Direction;
use zeroize::Zeroize;

pub(crate) mod bitsliced;
pub(crate) mod single;
#[cfg(test)]
pub(crate) mod spec;

/// How many blocks the mode hands the engine at a time (at most): the AVX-512
/// bitsliced batch (512 blocks), two AVX2 ones (256 each), eight portable ones
/// (64 each), so long inputs fill whole bitsliced batches on every path (with
/// 256, every AVX-512 batch would be half padding).
pub(crate) const BATCH: usize = 512;

/// Blocks at a time of the default [`BlockEngine::crypt_run`], whose engines
/// go one block at a time anyway (the single-block engine, the tests'): 2 KiB
/// of tweaks and blocks on the stack rather than a whole mode batch's 16 KiB.
const WRITTEN_OUT: usize = 64;

/// Runs SKINNY on a batch of blocks, each under its own tweak, for one message
/// (one key and nonce). The seam for faster code: the mode calls nothing else.
pub(crate) trait BlockEngine {
    /// Encrypts `blocks[i]` in place under `tweaks[i]`.
    ///
    /// # Panics
    /// If the lengths differ.
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]);

    /// Decrypts `blocks[i]` in place under `tweaks[i]`.
    ///
    /// # Panics
    /// If the lengths differ.
    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]);

    /// Encrypts or decrypts (`dir`) the whole blocks of `data` in place, block
    /// `i` under the counter `counter` stepped `i` times and `domain`; leaves
    /// `counter` stepped once per block. The mode's runs of full blocks (a
    /// message's, the AD's) come through here. By default the tweaks are
    /// written out and the blocks go through
    /// [`BlockEngine::encrypt`]/[`BlockEngine::decrypt`] [`WRITTEN_OUT`]
    /// blocks at a time.
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    fn crypt_run(&self, counter: &mut Lfsr, domain: u8, data: &mut [u8], dir: Direction) {
        assert_eq!(data.len() % BLOCK, 0, "whole blocks");
        let mut tweaks = [BlockTweak::default(); WRITTEN_OUT];
        let mut blocks = [[0u8; BLOCK]; WRITTEN_OUT];
        for chunk in data.chunks_mut(WRITTEN_OUT * BLOCK) {
            let n = chunk.len() / BLOCK;
            for ((t, b), c) in tweaks.iter_mut().zip(blocks.iter_mut()).zip(chunk.chunks_exact(BLOCK)) {
                *t = BlockTweak { counter: counter.value(), domain };
                counter.step();
                b.copy_from_slice(c);
            }
            match dir {
                Direction::Encrypt => self.encrypt(&tweaks[..n], &mut blocks[..n]),
                Direction::Decrypt => self.decrypt(&tweaks[..n], &mut blocks[..n]),
            }
            chunk.copy_from_slice(blocks[..n].as_flattened());
        }
        blocks.zeroize();
    }
}
