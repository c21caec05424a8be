//! The mode's engine: batches of blocks through `skinny`'s bitsliced
//! per-block-TK1 path, short calls through the single-block engine.

use super::single::SingleEngine;
use super::{BlockEngine, BATCH};
use crate::tweakey::{Block, BlockTweak, Layout, Lfsr, BLOCK};
use core::cell::OnceCell;
use skinny::hazmat::bitsliced::{Direction, Path, PerBlockTk1};
use zeroize::Zeroize;

/// The cipher `make` builds, on `path`: in a frame of its own, so that
/// without `alloc` (where skinny keeps its 14 KiB of masks inline) the value's
/// moves are on the stack only while it is built. With `alloc` the masks are
/// on skinny's heap and the value is small.
#[inline(never)]
fn held(make: &dyn Fn() -> Result<PerBlockTk1, skinny::SetupError>, path: Path) -> PerBlockTk1 {
    make()
        .unwrap_or_else(|_| unreachable!("the layout's tweakey and rounds fit the variant"))
        .on_path(path)
        .unwrap_or_else(|_| unreachable!("the path was chosen among the available ones"))
}

/// Calls of fewer blocks go one block at a time ([`SingleEngine`]): see the
/// measurements in `BitslicedEngine::on_path`.
const SMALL_CALL_BLOCKS: usize = 12;

/// The engine on the bitsliced per-block-TK1 path of `skinny`
/// ([`PerBlockTk1`], AVX-512 or AVX2 when the CPU has it, else portable
/// `u64`). In every member only TK1 changes from block to block (it holds the
/// counter and domain, and in M5/M6 the nonce too); TK2 and TK3 (the nonce and
/// the key, or the key) are the same for the whole message. So their round
/// tweakeys are expanded once per message into bitsliced masks. The mode's
/// runs of whole blocks ([`BlockEngine::crypt_run`]) go further: within a run
/// TK1 differs from block to block only by the counter, so the base TK1 (the
/// domain, and the nonce in M5/M6) goes into the masks too, one cipher per
/// domain, and `skinny` makes the counters in bitsliced form
/// ([`PerBlockTk1::crypt_lfsr`]). Other calls build each block's 16-byte TK1
/// (the base tweakey's TK1 with the block's counter and domain written in,
/// exactly as `SpecEngine` builds it), which is transposed.
///
/// A bitsliced call costs a whole batch (64 to 512 blocks) however few blocks it
/// holds, so calls of fewer than `small` blocks (the mode's pad and tag blocks,
/// a partial AD block) go through [`SingleEngine`] instead, and the masks are only
/// built at the first call that needs them (a short message never does). The
/// choice depends on the number of blocks only, a public length; both codes are
/// constant time. The TK1 scratch is wiped after every call; the masks when the
/// engine is dropped.
///
/// The three ciphers' masks are up to 14 KiB each: with `alloc` skinny keeps
/// them on the heap, so that a seal or open needs a few KiB of stack (see
/// docs/architecture.md, *Stack use*); without it, in the engine.
pub(crate) struct BitslicedEngine {
    single: SingleEngine,
    cipher: OnceCell<PerBlockTk1>,
    /// The ciphers of [`BlockEngine::crypt_run`], one per domain byte (a
    /// message uses two: its blocks' and its AD's), each with the base TK1
    /// (nonce and domain, counter zero) in its masks; built on first use.
    runs: [OnceCell<(u8, PerBlockTk1)>; 2],
    path: Path,
    small: usize,
}

impl BitslicedEngine {
    /// The engine for one message: `nonce` is 12 or 16 bytes (12 for `Tk2`).
    pub(crate) fn new(layout: Layout, key: &[u8; 16], nonce: &[u8]) -> Self {
        Self::on_path(layout, key, nonce, Path::best())
    }

    fn on_path(layout: Layout, key: &[u8; 16], nonce: &[u8], path: Path) -> Self {
        // A bitsliced call costs a whole batch however few blocks it holds,
        // and the message's first one also builds the masks; one block on the
        // single-block engine costs a fixed time. Measured on the dev VM
        // (SKINNY-128-384, one thread): a batch 5.4 us on AVX-512 (512 blocks)
        // and 4.8 us portable (64), the masks 1.5 us, a single block 0.62 us:
        // even at about 11 blocks on every path.
        Self {
            single: SingleEngine::new(layout, key, nonce),
            cipher: OnceCell::new(),
            runs: [OnceCell::new(), OnceCell::new()],
            path,
            small: SMALL_CALL_BLOCKS,
        }
    }

    /// The same engine with every call, however short, on the bitsliced path
    /// (the tests use it to cover the single-block calls).
    #[cfg(test)]
    pub(crate) fn always_bitsliced(layout: Layout, key: &[u8; 16], nonce: &[u8]) -> Self {
        Self { small: 0, ..Self::new(layout, key, nonce) }
    }

    /// [`BitslicedEngine::always_bitsliced`] on the portable `u64` path (64-block
    /// batches, four per mode batch), whatever the CPU has.
    #[cfg(test)]
    pub(crate) fn always_portable(layout: Layout, key: &[u8; 16], nonce: &[u8]) -> Self {
        Self { small: 0, ..Self::on_path(layout, key, nonce, Path::PortableU64) }
    }

    /// The per-block-TK1 cipher whose base TK1 is the message's with `domain`
    /// written in and the counter zero, its masks built on first use.
    fn run_cipher(&self, domain: u8, build: impl Fn() -> PerBlockTk1) -> Option<&PerBlockTk1> {
        for slot in &self.runs {
            let (d, cipher) = slot.get_or_init(|| (domain, build()));
            if *d == domain {
                return Some(cipher);
            }
        }
        None
    }

    /// The per-block-TK1 cipher, its masks built on first use.
    fn cipher(&self) -> &PerBlockTk1 {
        self.cipher.get_or_init(|| {
            let variant = self.single.layout.variant();
            held(
                &|| PerBlockTk1::new(variant, variant.rounds(), &self.single.base[..variant.tweakey_bytes()]),
                self.path,
            )
        })
    }

    // Out of line: its 8 KiB of TK1s are on the stack only while it runs.
    #[inline(never)]
    fn run(&self, tweaks: &[BlockTweak], blocks: &mut [Block], dir: Direction) {
        assert_eq!(tweaks.len(), blocks.len(), "one tweak per block");
        if blocks.len() < self.small {
            self.single.run(tweaks, blocks, dir);
            return;
        }
        let cipher = self.cipher();
        let layout = self.single.layout;
        let base_tk1 = &self.single.base[..BLOCK];
        let mut scratch = [0u8; BATCH * BLOCK];
        for (tweaks, blocks) in tweaks.chunks(BATCH).zip(blocks.chunks_mut(BATCH)) {
            let tk1s = &mut scratch[..tweaks.len() * BLOCK];
            for (tweak, tk1) in tweaks.iter().zip(tk1s.chunks_exact_mut(BLOCK)) {
                tk1.copy_from_slice(base_tk1);
                layout.set_tweak(tk1, *tweak);
            }
            let data = blocks.as_flattened_mut();
            match dir {
                Direction::Encrypt => cipher.encrypt(data, tk1s),
                Direction::Decrypt => cipher.decrypt(data, tk1s),
            }
        }
        scratch.zeroize();
    }
}

impl BlockEngine for BitslicedEngine {
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, Direction::Encrypt);
    }

    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, Direction::Decrypt);
    }

    /// The run's TK1s are the base TK1 with `domain` written in and the
    /// counter XORed into its first bytes (where the base has zeros), so the
    /// whole run goes to [`PerBlockTk1::crypt_lfsr`] on a cipher whose masks
    /// hold that base (one per domain, kept for the message), which makes the
    /// counters in bitsliced form: no per-block tweak, TK1 or copy of the
    /// data. Short runs go block by block through [`SingleEngine`], as short
    /// calls of [`BlockEngine::encrypt`] do.
    fn crypt_run(&self, counter: &mut Lfsr, domain: u8, data: &mut [u8], dir: Direction) {
        assert_eq!(data.len() % BLOCK, 0, "whole blocks");
        if data.len() / BLOCK < self.small {
            // Fewer than `small` blocks: one chunk of at most that many.
            let mut tweaks = [BlockTweak::default(); SMALL_CALL_BLOCKS];
            let blocks = data.as_chunks_mut::<BLOCK>().0;
            for chunk in blocks.chunks_mut(SMALL_CALL_BLOCKS) {
                for t in &mut tweaks[..chunk.len()] {
                    *t = BlockTweak { counter: counter.value(), domain };
                    counter.step();
                }
                self.single.run(&tweaks[..chunk.len()], chunk, dir);
            }
            return;
        }
        let layout = self.single.layout;
        let build = || {
            let variant = layout.variant();
            let mut tweakey = self.single.base;
            layout.set_tweak(&mut tweakey, BlockTweak { counter: 0, domain });
            let cipher = held(
                &|| PerBlockTk1::with_base_tk1(variant, variant.rounds(), &tweakey[..variant.tweakey_bytes()]),
                self.path,
            );
            tweakey.zeroize();
            cipher
        };
        let (start, bits) = (counter.value(), layout.counter_bits());
        let next = match self.run_cipher(domain, build) {
            Some(cipher) => cipher.crypt_lfsr(dir, data, start, bits),
            // A third domain (the mode has two runs a message): built for the call.
            None => build().crypt_lfsr(dir, data, start, bits),
        };
        *counter = Lfsr::at(layout, next);
    }
}
