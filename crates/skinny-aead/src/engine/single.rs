//! One block at a time on `skinny`'s single-block code, for the mode's calls
//! too short to fill a bitsliced batch.

use super::BlockEngine;
use crate::tweakey::{Block, BlockTweak, Layout, BLOCK};
use skinny::cipher::{Array, KeyInit, TweakBlockCipherDecrypt, TweakBlockCipherEncrypt};
use skinny::hazmat::bitsliced::Direction;
use skinny::{TweakableSkinny128_256, TweakableSkinny128_384};
use zeroize::Zeroize;

/// One block at a time on `skinny`'s single-block code (constant time, built
/// for latency), for calls too short to fill a bitsliced batch. In every
/// member only TK1 changes from block to block, so TK2 and TK3 (the nonce and
/// the key, or the key) are expanded once per message by `skinny`'s tweakable
/// types; a block then costs its TK1's schedule (a cell permutation a round,
/// no LFSR) and the rounds, where `SpecEngine` runs the whole schedule of all
/// three arrays for every block (on the dev VM a 256-byte message took 20 µs
/// that way).
pub(crate) struct SingleEngine {
    pub(super) layout: Layout,
    /// The message's tweakey with counter and domain zero (TK1 ‖ TK2 ‖ TK3).
    pub(super) base: [u8; 48],
    cipher: Tweakable,
}

/// The tweakable cipher of a layout, keyed with TK2 (‖ TK3).
enum Tweakable {
    Tk3(TweakableSkinny128_384),
    Tk2(TweakableSkinny128_256),
}

impl SingleEngine {
    /// The engine for one message: `nonce` is 12 or 16 bytes (12 for `Tk2`).
    pub(crate) fn new(layout: Layout, key: &[u8; 16], nonce: &[u8]) -> Self {
        let base = layout.base_tweakey(key, nonce);
        let cipher = match layout {
            // Cannot fail: the ranges have the keys' lengths.
            Layout::Tk3 => Tweakable::Tk3(TweakableSkinny128_384::new(
                (&base[BLOCK..48]).try_into().unwrap_or_else(|_| unreachable!("32 bytes")),
            )),
            Layout::Tk2 => Tweakable::Tk2(TweakableSkinny128_256::new(
                (&base[BLOCK..32]).try_into().unwrap_or_else(|_| unreachable!("16 bytes")),
            )),
        };
        Self { layout, base, cipher }
    }

    /// `blocks[i]` through the cipher (`dir`) under `tweaks[i]`.
    pub(super) fn run(&self, tweaks: &[BlockTweak], blocks: &mut [Block], dir: Direction) {
        assert_eq!(tweaks.len(), blocks.len(), "one tweak per block");
        let mut tk1 = Array::<u8, _>::default();
        for (tweak, block) in tweaks.iter().zip(blocks.iter_mut()) {
            tk1.copy_from_slice(&self.base[..BLOCK]);
            self.layout.set_tweak(&mut tk1, *tweak);
            let block = block.into();
            match (&self.cipher, dir) {
                (Tweakable::Tk3(c), Direction::Encrypt) => c.encrypt_block(&tk1, block),
                (Tweakable::Tk3(c), Direction::Decrypt) => c.decrypt_block(&tk1, block),
                (Tweakable::Tk2(c), Direction::Encrypt) => c.encrypt_block(&tk1, block),
                (Tweakable::Tk2(c), Direction::Decrypt) => c.decrypt_block(&tk1, block),
            }
        }
        tk1.zeroize();
    }
}

impl BlockEngine for SingleEngine {
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, Direction::Encrypt);
    }

    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, Direction::Decrypt);
    }
}

impl Drop for SingleEngine {
    fn drop(&mut self) {
        // The tweakable cipher wipes its round tweakeys itself.
        self.base.zeroize();
    }
}
