//! The formulations for words with three-input operations, on every machine.

use super::batch::{crypt_blocks, Direction};
use super::keys::SlicedTweakeys;
use super::per_block::{crypt_blocks_for, lfsr_step, BlockKeys};
use super::word::TernaryU64;
use crate::spec::tweakey::RoundTweakeys;
use crate::spec::{self, CellWidth};
use crate::{Skinny, Variant};

fn bytes(n: usize, seed: u64) -> alloc_free::Bytes {
    alloc_free::Bytes::new(n, seed)
}

/// Fixed-size buffers (the crate is `no_std` without `alloc`).
mod alloc_free {
    pub(super) struct Bytes {
        buf: [u8; 3 * 64 * 48],
        len: usize,
    }
    impl Bytes {
        pub(super) fn new(len: usize, mut seed: u64) -> Self {
            let mut buf = [0u8; 3 * 64 * 48];
            for b in &mut buf[..len] {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *b = (seed >> 56) as u8;
            }
            Self { buf, len }
        }
        pub(super) fn get(&mut self) -> &mut [u8] {
            &mut self.buf[..self.len]
        }
    }
}

/// The formulations for words with three-input operations, run on plain
/// `u64` arithmetic ([`TernaryU64`]), against the specification code: shared
/// and per-block tweakeys, both directions, every variant, full and reduced
/// rounds, a whole batch plus a padded tail. Runs on every machine.
#[test]
fn ternary_formulations_match_the_specification() {
    for (k, v) in Variant::ALL.into_iter().enumerate() {
        let (bs, tb) = (v.block_bytes(), v.tweakey_bytes());
        for rounds in [1, 2, 7, v.rounds()] {
            let blocks = 64 + 9;
            let mut key = bytes(tb, 100 + k as u64);
            let c = Skinny::with_rounds(v, key.get(), rounds).unwrap();
            let keys = SlicedTweakeys::new(&c.rtk);
            let mut data = bytes(blocks * bs, 200 + k as u64);
            let mut want = bytes(blocks * bs, 200 + k as u64);
            for b in want.get().chunks_exact_mut(bs) {
                spec::encrypt_block(v.cell_width(), &c.rtk, b);
            }
            let d = data.get();
            match v.cell_width() {
                CellWidth::Nibble => crypt_blocks::<TernaryU64, 4>(&keys, rounds, Direction::Encrypt, d),
                CellWidth::Byte => crypt_blocks::<TernaryU64, 8>(&keys, rounds, Direction::Encrypt, d),
            }
            assert_eq!(d, want.get(), "{v} {rounds} rounds, shared tweakey, encryption");
            match v.cell_width() {
                CellWidth::Nibble => crypt_blocks::<TernaryU64, 4>(&keys, rounds, Direction::Decrypt, d),
                CellWidth::Byte => crypt_blocks::<TernaryU64, 8>(&keys, rounds, Direction::Decrypt, d),
            }
            assert_eq!(d, bytes(blocks * bs, 200 + k as u64).get(), "{v} {rounds} rounds, shared, decryption");

            let mut tks = bytes(blocks * tb, 300 + k as u64);
            let tks = tks.get();
            let mut want = bytes(blocks * bs, 400 + k as u64);
            for (b, tk) in want.get().chunks_exact_mut(bs).zip(tks.chunks_exact(tb)) {
                Skinny::with_rounds(v, tk, rounds).unwrap().encrypt_block(b);
            }
            let mut data = bytes(blocks * bs, 400 + k as u64);
            let d = data.get();
            let z = v.tk_count();
            crypt_blocks_for::<TernaryU64>(
                v.cell_width(),
                rounds,
                Direction::Encrypt,
                d,
                BlockKeys::Whole { tk_count: z, tweakeys: tks },
            );
            assert_eq!(d, want.get(), "{v} {rounds} rounds, per-block tweakeys, encryption");
            crypt_blocks_for::<TernaryU64>(
                v.cell_width(),
                rounds,
                Direction::Decrypt,
                d,
                BlockKeys::Whole { tk_count: z, tweakeys: tks },
            );
            assert_eq!(d, bytes(blocks * bs, 400 + k as u64).get(), "{v} {rounds} rounds, per-block, decryption");
        }
    }
}

/// The LFSR-counter keying (SKINNY-AEAD's, `PerBlockTk1::crypt_lfsr`) with
/// the three-input formulations on plain `u64` ([`TernaryU64`]: the
/// counter rows use `xor3`, the transposition bit selects), against the
/// per-block-TK1 keying with the TK1s written out. Runs on every machine.
#[test]
fn ternary_lfsr_counters_match_written_out_tk1s() {
    for (k, v) in [Variant::Skinny128_256, Variant::Skinny128_384].into_iter().enumerate() {
        for (bits, start) in [(24u32, 1u64), (64, 1), (24, 0xab_cdef), (64, 0x8000_0000_0000_0001)] {
            let rounds = v.rounds();
            let blocks = 64 + 9;
            let mut tweakey = bytes(v.tweakey_bytes(), 500 + k as u64);
            let tweakey = tweakey.get();
            let with_base = SlicedTweakeys::new(&RoundTweakeys::expand_rounds(v, tweakey, rounds));
            let mut tk1s = bytes(blocks * 16, 0);
            let tk1s = tk1s.get();
            let mut c = start;
            for tk1 in tk1s.chunks_exact_mut(16) {
                tk1.copy_from_slice(&tweakey[..16]);
                for (t, b) in tk1.iter_mut().zip(c.to_le_bytes()) {
                    *t ^= b;
                }
                c = if bits == 24 { lfsr_step::<24>(c) } else { lfsr_step::<64>(c) };
            }
            tweakey[..16].fill(0);
            let without = SlicedTweakeys::new(&RoundTweakeys::expand_rounds(v, tweakey, rounds));
            for dir in [Direction::Encrypt, Direction::Decrypt] {
                let mut got = bytes(blocks * 16, 600 + k as u64);
                let mut want = bytes(blocks * 16, 600 + k as u64);
                let (got, want) = (got.get(), want.get());
                let lfsr = BlockKeys::Lfsr { shared: &with_base, start, bits };
                crypt_blocks_for::<TernaryU64>(CellWidth::Byte, rounds, dir, got, lfsr);
                let tk1 = BlockKeys::Tk1 { shared: &without, tk1: tk1s };
                crypt_blocks_for::<TernaryU64>(CellWidth::Byte, rounds, dir, want, tk1);
                assert_eq!(got, want, "{v} {bits}-bit counter from {start:#x}, {dir:?}");
            }
        }
    }
}
