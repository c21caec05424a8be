//! The block engine: every SKINNY call of the mode goes through [`BlockEngine`].
//!
//! The mode (`mode.rs`) never calls the cipher itself. It hands the engine a
//! batch of blocks, each with its own [`BlockTweak`] (the LFSR counter and the
//! domain byte); the engine builds each block's tweakey from that tweak and the
//! message's nonce and key, and runs the cipher. The mode's engine,
//! [`BitslicedEngine`], builds the batch's TK1s and runs them all at once
//! through the bitsliced per-block-TK1 path of `skinny` ([`PerBlockTk1`]), and
//! calls too short for a batch one block at a time through [`SingleEngine`]
//! (the message's TK2/TK3 expanded once, each block's TK1 added);
//! [`SpecEngine`] expands one whole tweakey per block, the reference the
//! others are checked against. All are constant time; the tests check that the
//! mode gives the same bytes through each.

use core::cell::OnceCell;
use skinny::cipher::{Array, KeyInit, TweakBlockCipherDecrypt, TweakBlockCipherEncrypt};
use skinny::hazmat::bitsliced::{Direction, Path, PerBlockTk1};
use skinny::{TweakableSkinny128_256, TweakableSkinny128_384, Variant};
use zeroize::Zeroize;

/// Bytes in a SKINNY-128 block.
pub(crate) const BLOCK: usize = 16;

/// One block of data.
pub(crate) type Block = [u8; BLOCK];

/// How many blocks the mode hands the engine at a time (at most): the AVX-512
/// bitsliced batch (512 blocks), two AVX2 ones (256 each), eight portable ones
/// (64 each), so long inputs fill whole bitsliced batches on every path (with
/// 256, every AVX-512 batch would be half padding).
pub(crate) const BATCH: usize = 512;

/// Where the counter, domain byte, nonce and key sit in the tweakey.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// M1-M4, SKINNY-128-384: TK1 = 64-bit LFSR (little-endian) ‖ 0^56 ‖ domain;
    /// TK2 = nonce, zero-padded on the right to 128 bits; TK3 = key.
    Tk3,
    /// M5-M6, SKINNY-128-256: TK1 = 24-bit LFSR (little-endian) ‖ domain ‖
    /// 96-bit nonce; TK2 = key.
    Tk2,
}

impl Layout {
    /// The SKINNY variant this layout runs on.
    pub(crate) const fn variant(self) -> Variant {
        match self {
            Layout::Tk3 => Variant::Skinny128_384,
            Layout::Tk2 => Variant::Skinny128_256,
        }
    }

    /// Bits in the LFSR counter.
    pub(crate) const fn counter_bits(self) -> u32 {
        match self {
            Layout::Tk3 => 64,
            Layout::Tk2 => 24,
        }
    }

    /// The number of distinct counter values (the LFSR's period, 2^bits - 1):
    /// one domain never sees more blocks than this.
    pub(crate) const fn counter_period(self) -> u64 {
        match self {
            Layout::Tk3 => u64::MAX,
            Layout::Tk2 => (1 << 24) - 1,
        }
    }

    /// The tweakey with the counter and domain slots zero.
    pub(crate) fn base_tweakey(self, key: &[u8; 16], nonce: &[u8]) -> [u8; 48] {
        let mut tk = [0u8; 48];
        match self {
            Layout::Tk3 => {
                debug_assert!(nonce.len() <= 16);
                tk[16..16 + nonce.len()].copy_from_slice(nonce);
                tk[32..48].copy_from_slice(key);
            }
            Layout::Tk2 => {
                debug_assert_eq!(nonce.len(), 12);
                tk[4..16].copy_from_slice(nonce);
                tk[16..32].copy_from_slice(key);
            }
        }
        tk
    }

    /// Writes a block's counter and domain into its tweakey (or into its TK1
    /// alone: both live in the first 16 bytes).
    pub(crate) fn set_tweak(self, tk: &mut [u8], tweak: BlockTweak) {
        match self {
            Layout::Tk3 => {
                tk[..8].copy_from_slice(&tweak.counter.to_le_bytes());
                tk[15] = tweak.domain;
            }
            Layout::Tk2 => {
                tk[..3].copy_from_slice(&tweak.counter.to_le_bytes()[..3]);
                tk[3] = tweak.domain;
            }
        }
    }
}

/// The part of a block's tweakey that changes from block to block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BlockTweak {
    /// The LFSR counter (its value, not its index).
    pub(crate) counter: u64,
    /// The domain separation byte.
    pub(crate) domain: u8,
}

/// The LFSR counter of the mode: starts at 1; each step multiplies by x modulo
/// x^64 + x^4 + x^3 + x + 1 (M1-M4) or x^24 + x^4 + x^3 + x + 1 (M5, M6).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lfsr {
    state: u64,
    bits: u32,
}

impl Lfsr {
    pub(crate) const fn new(layout: Layout) -> Self {
        Self { state: 1, bits: layout.counter_bits() }
    }

    /// The counter whose current value is `value` (the value some number of
    /// steps from 1; the GPU path skips whole runs of blocks at once, the
    /// bitsliced engine takes the value after its run from `skinny`).
    pub(crate) const fn at(layout: Layout, value: u64) -> Self {
        Self { state: value, bits: layout.counter_bits() }
    }

    /// The current value.
    pub(crate) const fn value(&self) -> u64 {
        self.state
    }

    /// One step. Branch-free (the counter is public anyway).
    pub(crate) fn step(&mut self) {
        let top = (self.state >> (self.bits - 1)) & 1;
        let mask = if self.bits == 64 { u64::MAX } else { (1u64 << self.bits) - 1 };
        self.state = ((self.state << 1) & mask) ^ (0x1b * top);
    }
}

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

    /// Encrypts (or, with `decrypt`, decrypts) the whole blocks of `data` in
    /// place, block `i` under the counter `counter` stepped `i` times and
    /// `domain`; leaves `counter` stepped once per block. The mode's runs of
    /// full blocks (a message's, the AD's) come through here. By default the
    /// tweaks are written out and the blocks go through
    /// [`BlockEngine::encrypt`]/[`BlockEngine::decrypt`] a mode batch at a time.
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    fn crypt_run(&self, counter: &mut Lfsr, domain: u8, data: &mut [u8], decrypt: bool) {
        assert_eq!(data.len() % BLOCK, 0, "whole blocks");
        let mut tweaks = [BlockTweak::default(); BATCH];
        let mut blocks = [[0u8; BLOCK]; BATCH];
        for chunk in data.chunks_mut(BATCH * BLOCK) {
            let n = chunk.len() / BLOCK;
            for ((t, b), c) in tweaks.iter_mut().zip(blocks.iter_mut()).zip(chunk.chunks_exact(BLOCK)) {
                *t = BlockTweak { counter: counter.value(), domain };
                counter.step();
                b.copy_from_slice(c);
            }
            if decrypt {
                self.decrypt(&tweaks[..n], &mut blocks[..n]);
            } else {
                self.encrypt(&tweaks[..n], &mut blocks[..n]);
            }
            chunk.copy_from_slice(blocks[..n].as_flattened());
        }
        blocks.zeroize();
    }
}

/// The reference engine (tests): per block, the tweakey is
/// assembled and expanded ([`Skinny::new`]), then one block is encrypted.
/// Every copy of key material (tweakeys, round tweakeys) is wiped after use.
#[cfg(test)]
pub(crate) struct SpecEngine {
    layout: Layout,
    base: [u8; 48],
}

#[cfg(test)]
impl SpecEngine {
    /// The engine for one message: `nonce` is 12 or 16 bytes (12 for `Tk2`).
    pub(crate) fn new(layout: Layout, key: &[u8; 16], nonce: &[u8]) -> Self {
        Self { layout, base: layout.base_tweakey(key, nonce) }
    }

    fn run(&self, tweaks: &[BlockTweak], blocks: &mut [Block], encrypt: bool) {
        assert_eq!(tweaks.len(), blocks.len(), "one tweak per block");
        let variant = self.layout.variant();
        let len = variant.tweakey_bytes();
        let mut tk = self.base;
        for (tweak, block) in tweaks.iter().zip(blocks.iter_mut()) {
            self.layout.set_tweak(&mut tk, *tweak);
            // `Skinny` wipes its round tweakeys when dropped.
            let cipher = skinny::Skinny::new(variant, &tk[..len])
                .unwrap_or_else(|_| unreachable!("the layout's tweakey has the variant's length"));
            if encrypt {
                cipher.encrypt_block(block);
            } else {
                cipher.decrypt_block(block);
            }
        }
        tk.zeroize();
    }
}

#[cfg(test)]
impl BlockEngine for SpecEngine {
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, true);
    }

    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, false);
    }
}

#[cfg(test)]
impl Drop for SpecEngine {
    fn drop(&mut self) {
        self.base.zeroize();
    }
}

/// One block at a time on `skinny`'s single-block code (constant time, built
/// for latency), for calls too short to fill a bitsliced batch. In every
/// member only TK1 changes from block to block, so TK2 and TK3 (the nonce and
/// the key, or the key) are expanded once per message by `skinny`'s tweakable
/// types; a block then costs its TK1's schedule (a cell permutation a round,
/// no LFSR) and the rounds, where [`SpecEngine`] runs the whole schedule of all
/// three arrays for every block (on the dev VM a 256-byte message took 20 µs
/// that way).
pub(crate) struct SingleEngine {
    layout: Layout,
    /// The message's tweakey with counter and domain zero (TK1 ‖ TK2 ‖ TK3).
    base: [u8; 48],
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

    fn run(&self, tweaks: &[BlockTweak], blocks: &mut [Block], encrypt: bool) {
        assert_eq!(tweaks.len(), blocks.len(), "one tweak per block");
        let mut tk1 = Array::<u8, _>::default();
        for (tweak, block) in tweaks.iter().zip(blocks.iter_mut()) {
            tk1.copy_from_slice(&self.base[..BLOCK]);
            self.layout.set_tweak(&mut tk1, *tweak);
            let block = block.into();
            match (&self.cipher, encrypt) {
                (Tweakable::Tk3(c), true) => c.encrypt_block(&tk1, block),
                (Tweakable::Tk3(c), false) => c.decrypt_block(&tk1, block),
                (Tweakable::Tk2(c), true) => c.encrypt_block(&tk1, block),
                (Tweakable::Tk2(c), false) => c.decrypt_block(&tk1, block),
            }
        }
        tk1.zeroize();
    }
}

impl BlockEngine for SingleEngine {
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, true);
    }

    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, false);
    }
}

impl Drop for SingleEngine {
    fn drop(&mut self) {
        // The tweakable cipher wipes its round tweakeys itself.
        self.base.zeroize();
    }
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
/// exactly as [`SpecEngine`] builds it), which is transposed.
///
/// A bitsliced call costs a whole batch (64 to 512 blocks) however few blocks it
/// holds, so calls of fewer than `small` blocks (the mode's pad and tag blocks,
/// a partial AD block) go through [`SingleEngine`] instead, and the masks are only
/// built at the first call that needs them (a short message never does). The
/// choice depends on the number of blocks only, a public length; both codes are
/// constant time. The TK1 scratch is wiped after every call; the masks when the
/// engine is dropped.
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
            let tweakey = &self.single.base[..variant.tweakey_bytes()];
            PerBlockTk1::new(variant, variant.rounds(), tweakey)
                .unwrap_or_else(|_| unreachable!("the layout's tweakey and rounds fit the variant"))
                .on_path(self.path)
                .unwrap_or_else(|_| unreachable!("the path was chosen among the available ones"))
        })
    }

    fn run(&self, tweaks: &[BlockTweak], blocks: &mut [Block], encrypt: bool) {
        assert_eq!(tweaks.len(), blocks.len(), "one tweak per block");
        if blocks.len() < self.small {
            self.single.run(tweaks, blocks, encrypt);
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
            if encrypt {
                cipher.encrypt(data, tk1s);
            } else {
                cipher.decrypt(data, tk1s);
            }
        }
        scratch.zeroize();
    }
}

impl BlockEngine for BitslicedEngine {
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, true);
    }

    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        self.run(tweaks, blocks, false);
    }

    /// The run's TK1s are the base TK1 with `domain` written in and the
    /// counter XORed into its first bytes (where the base has zeros), so the
    /// whole run goes to [`PerBlockTk1::crypt_lfsr`] on a cipher whose masks
    /// hold that base (one per domain, kept for the message), which makes the
    /// counters in bitsliced form: no per-block tweak, TK1 or copy of the
    /// data. Short runs go block by block through [`SingleEngine`], as short
    /// calls of [`BlockEngine::encrypt`] do.
    fn crypt_run(&self, counter: &mut Lfsr, domain: u8, data: &mut [u8], decrypt: bool) {
        assert_eq!(data.len() % BLOCK, 0, "whole blocks");
        if data.len() / BLOCK < self.small {
            let mut tweaks = [BlockTweak::default(); BATCH];
            let blocks = data.as_chunks_mut::<BLOCK>().0;
            for chunk in blocks.chunks_mut(BATCH) {
                for t in &mut tweaks[..chunk.len()] {
                    *t = BlockTweak { counter: counter.value(), domain };
                    counter.step();
                }
                self.single.run(&tweaks[..chunk.len()], chunk, !decrypt);
            }
            return;
        }
        let layout = self.single.layout;
        let build = || {
            let variant = layout.variant();
            let mut tweakey = self.single.base;
            layout.set_tweak(&mut tweakey, BlockTweak { counter: 0, domain });
            let cipher = PerBlockTk1::with_base_tk1(variant, variant.rounds(), &tweakey[..variant.tweakey_bytes()])
                .unwrap_or_else(|_| unreachable!("the layout's tweakey and rounds fit the variant"))
                .on_path(self.path)
                .unwrap_or_else(|_| unreachable!("the path was chosen among the available ones"));
            tweakey.zeroize();
            cipher
        };
        let dir = if decrypt { Direction::Decrypt } else { Direction::Encrypt };
        let (start, bits) = (counter.value(), layout.counter_bits());
        let next = match self.run_cipher(domain, build) {
            Some(cipher) => cipher.crypt_lfsr(dir, data, start, bits),
            // A third domain (the mode has two runs a message): built for the call.
            None => build().crypt_lfsr(dir, data, start, bits),
        };
        *counter = Lfsr::at(layout, next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lfsr_24_wraps_with_feedback() {
        let mut l = Lfsr::new(Layout::Tk2);
        for _ in 0..23 {
            l.step();
        }
        assert_eq!(l.value(), 1 << 23);
        l.step();
        assert_eq!(l.value(), 0x1b);
    }

    #[test]
    fn lfsr_64_wraps_with_feedback() {
        let mut l = Lfsr::new(Layout::Tk3);
        for _ in 0..63 {
            l.step();
        }
        assert_eq!(l.value(), 1 << 63);
        l.step();
        assert_eq!(l.value(), 0x1b);
    }
}
