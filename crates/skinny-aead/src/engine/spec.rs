//! The reference engine (tests only): per block, the tweakey is assembled and
//! expanded (`Skinny::new`), then one block is encrypted. Every copy of key
//! material (tweakeys, round tweakeys) is wiped after use.

use super::BlockEngine;
use crate::tweakey::{Block, BlockTweak, Layout};
use skinny::hazmat::bitsliced::Direction;
use zeroize::Zeroize;

/// The reference engine: one whole key schedule per block.
pub(crate) struct SpecEngine {
    layout: Layout,
    base: [u8; 48],
}

impl SpecEngine {
    /// The engine for one message: `nonce` is 12 or 16 bytes (12 for `Tk2`).
    pub(crate) fn new(layout: Layout, key: &[u8; 16], nonce: &[u8]) -> Self {
        Self { layout, base: layout.base_tweakey(key, nonce) }
    }

    fn run(&self, tweaks: &[BlockTweak], blocks: &mut [Block], dir: Direction) {
        assert_eq!(tweaks.len(), blocks.len(), "one tweak per block");
        let variant = self.layout.variant();
        let len = variant.tweakey_bytes();
        let mut tk = self.base;
        for (tweak, block) in tweaks.iter().zip(blocks.iter_mut()) {
            self.layout.set_tweak(&mut tk, *tweak);
            // `Skinny` wipes its round tweakeys when dropped.
            let cipher = skinny::Skinny::new(variant, &tk[..len])
                .unwrap_or_else(|_| unreachable!("the layout's tweakey has the variant's length"));
            match dir {
                Direction::Encrypt => cipher.encrypt_block(block),
                Direction::Decrypt => cipher.decrypt_block(block),
            }
        }
        tk.zeroize();
    }
}

impl BlockEngine for SpecEngine {
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, Direction::Encrypt);
    }

    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, Direction::Decrypt);
    }
}

impl Drop for SpecEngine {
    fn drop(&mut self) {
        self.base.zeroize();
    }
}
