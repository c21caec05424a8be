//! `PerBlockTk1` (a TK1 per block, TK2..TKz shared) on the bitsliced paths against
//! the specification code, one key schedule per block: every variant, both
//! directions, the portable path and (where the CPU has it) AVX2 and AVX-512, reduced round
//! counts odd and even up to the full count, and lengths around the path's batch.
//! Every block gets its own random TK1 and the shared arrays are random, so a
//! shared array left out, a TK1 moved to the wrong cell or matched with a
//! neighbour's block shows up as a mismatch.

use skinny::hazmat::bitsliced::{Direction, Path, PerBlockTk1};
use skinny::{InvalidRounds, InvalidTweakeyLength, SetupError, Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

const ROUNDS: [usize; 6] = [1, 2, 3, 7, 16, 17];

/// Block counts for a batch of `b`: empty, one, around one batch, several with a tail.
fn lengths(b: usize) -> [usize; 6] {
    [0, 1, b - 1, b, b + 1, 3 * b + 5]
}

/// Each block through its own `Skinny::with_rounds`, under `tk1 ‖ tweakey[b..]`.
fn spec(v: Variant, rounds: usize, dir: Direction, data: &[u8], tk1s: &[u8], tweakey: &[u8]) -> Vec<u8> {
    let b = v.block_bytes();
    let mut out = data.to_vec();
    let mut tk = tweakey.to_vec();
    for (block, tk1) in out.chunks_exact_mut(b).zip(tk1s.chunks_exact(b)) {
        tk[..b].copy_from_slice(tk1);
        let c = Skinny::with_rounds(v, &tk, rounds).expect("valid parameters");
        match dir {
            Direction::Encrypt => c.encrypt_block(block),
            Direction::Decrypt => c.decrypt_block(block),
        }
    }
    out
}

fn check_path(path: Path, seed: u64) {
    let mut rng = Rng(seed);
    for v in Variant::ALL {
        let mut counts = ROUNDS.to_vec();
        counts.push(v.rounds());
        for rounds in counts {
            let tweakey = rng.bytes(v.tweakey_bytes());
            let cipher = PerBlockTk1::new(v, rounds, &tweakey).expect("valid").on_path(path).expect("path available");
            assert_eq!((cipher.variant(), cipher.rounds(), cipher.path()), (v, rounds, path));
            for blocks in lengths(path.batch_blocks()) {
                let data = rng.bytes(blocks * v.block_bytes());
                let tk1s = rng.bytes(blocks * v.block_bytes());
                for dir in [Direction::Encrypt, Direction::Decrypt] {
                    let mut got = data.clone();
                    cipher.crypt(dir, &mut got, &tk1s);
                    let want = spec(v, rounds, dir, &data, &tk1s, &tweakey);
                    assert_eq!(got, want, "{v} {path} {rounds} rounds {dir:?} {blocks} blocks");
                }
                let mut round_trip = data.clone();
                cipher.encrypt(&mut round_trip, &tk1s);
                cipher.decrypt(&mut round_trip, &tk1s);
                assert_eq!(round_trip, data, "{v} {path} {rounds} rounds, {blocks} blocks there and back");
            }
        }
    }
}

#[test]
fn portable_path_matches_the_specification() {
    check_path(Path::PortableU64, 11);
}

#[test]
fn avx2_path_matches_the_specification() {
    if !Path::Avx2.is_available() {
        eprintln!("skipped: this CPU has no AVX2");
        return;
    }
    check_path(Path::Avx2, 12);
}

#[test]
fn avx512_path_matches_the_specification() {
    if !Path::Avx512.is_available() {
        eprintln!("skipped: this CPU has no AVX-512F");
        return;
    }
    check_path(Path::Avx512, 14);
}

#[test]
fn the_tk1_of_the_given_tweakey_is_not_used() {
    let v = Variant::Skinny128_384;
    let mut rng = Rng(13);
    let mut tweakey = rng.bytes(v.tweakey_bytes());
    let tk1s = rng.bytes(4 * 16);
    let data = rng.bytes(4 * 16);
    let mut a = data.clone();
    PerBlockTk1::new(v, v.rounds(), &tweakey).expect("valid").encrypt(&mut a, &tk1s);
    tweakey[..16].fill(0xa5);
    let mut b = data.clone();
    PerBlockTk1::new(v, v.rounds(), &tweakey).expect("valid").encrypt(&mut b, &tk1s);
    assert_eq!(a, b);
    assert_ne!(a, data);
}

#[test]
fn bad_parameters_are_refused() {
    for v in Variant::ALL {
        let tk = vec![0u8; v.tweakey_bytes()];
        for bad in [0, v.rounds() + 1] {
            let e = PerBlockTk1::new(v, bad, &tk).expect_err("rounds out of range");
            assert_eq!(e, SetupError::Rounds(InvalidRounds { variant: v, got: bad }));
        }
        let e = PerBlockTk1::new(v, v.rounds(), &tk[1..]).expect_err("short tweakey");
        assert_eq!(e, SetupError::Tweakey(InvalidTweakeyLength { variant: v, got: tk.len() - 1 }));
        let cipher = PerBlockTk1::new(v, v.rounds(), &tk).expect("valid");
        assert_eq!(cipher.path(), Path::best());
        for path in Path::ALL {
            assert_eq!(cipher.clone().on_path(path).is_ok(), path.is_available(), "{path}");
        }
    }
}

#[test]
#[should_panic(expected = "one TK1 per block")]
fn a_tk1_buffer_of_the_wrong_length_panics() {
    let v = Variant::Skinny128_256;
    let cipher = PerBlockTk1::new(v, v.rounds(), &[0u8; 32]).expect("valid");
    let mut data = [0u8; 32];
    cipher.encrypt(&mut data, &[0u8; 48]);
}

/// The LFSR counter of SKINNY-AEAD, one step at a time (the reference for
/// `crypt_lfsr`'s bitsliced counters).
fn lfsr_step(c: u64, bits: u32) -> u64 {
    let top = (c >> (bits - 1)) & 1;
    let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
    ((c << 1) & mask) ^ (0x1b * top)
}

/// `crypt_lfsr` (base TK1 kept by `with_base_tk1`) against `crypt` (and the
/// specification) with the TK1s written out, base ⊕ counter in bytes 0..8,
/// under a tweakey whose TK1 is zero; `crypt` with TK1 offsets on the base
/// too. The 128-bit variants, both counter widths, both directions,
/// starts at 1 and far into the period (wrapping), lengths around the batch.
fn check_lfsr_path(path: Path, seed: u64) {
    let mut rng = Rng(seed);
    for v in [Variant::Skinny128_128, Variant::Skinny128_256, Variant::Skinny128_384] {
        for rounds in [1, 3, v.rounds()] {
            let mut tweakey = rng.bytes(v.tweakey_bytes());
            let base: [u8; 16] = tweakey[..16].try_into().expect("16 bytes");
            let cipher =
                PerBlockTk1::with_base_tk1(v, rounds, &tweakey).expect("valid").on_path(path).expect("path available");
            // The same tweakey with TK1 zero: `crypt` there with written-out TK1s.
            tweakey[..16].fill(0);
            let plain = PerBlockTk1::new(v, rounds, &tweakey).expect("valid").on_path(path).expect("path available");
            for bits in [24u32, 64] {
                let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
                for (k, blocks) in lengths(path.batch_blocks()).into_iter().enumerate() {
                    let start = if k % 2 == 0 { 1 } else { rng.next() & mask | 1 };
                    let data = rng.bytes(blocks * 16);
                    let mut tk1s = Vec::with_capacity(blocks * 16);
                    let mut c = start;
                    for _ in 0..blocks {
                        let mut tk1 = base;
                        for (t, b) in tk1[..8].iter_mut().zip(c.to_le_bytes()) {
                            *t ^= b;
                        }
                        tk1s.extend_from_slice(&tk1);
                        c = lfsr_step(c, bits);
                    }
                    for dir in [Direction::Encrypt, Direction::Decrypt] {
                        let mut got = data.clone();
                        let next = cipher.crypt_lfsr(dir, &mut got, start, bits);
                        let mut want = data.clone();
                        plain.crypt(dir, &mut want, &tk1s);
                        assert_eq!(want, spec(v, rounds, dir, &data, &tk1s, &tweakey));
                        assert_eq!(got, want, "{v} {path} {rounds} rounds {bits}-bit {dir:?} {blocks} blocks");
                        assert_eq!(next, c, "{v} {path} {bits}-bit counter after {blocks} blocks");
                        // `crypt` on the kept base: the written-out counters alone.
                        let offsets: Vec<u8> =
                            tk1s.chunks_exact(16).flat_map(|t| t.iter().zip(&base).map(|(x, y)| x ^ y)).collect();
                        let mut on_base = data.clone();
                        cipher.crypt(dir, &mut on_base, &offsets);
                        assert_eq!(on_base, got, "{v} {path} {rounds} rounds, TK1 offsets on the base");
                    }
                }
            }
        }
    }
}

#[test]
fn lfsr_tk1s_match_written_out_tk1s() {
    for (k, path) in Path::ALL.into_iter().enumerate() {
        if !path.is_available() {
            eprintln!("skipped: this CPU cannot run {path}");
            continue;
        }
        check_lfsr_path(path, 40 + k as u64);
    }
}

#[test]
#[should_panic(expected = "16-byte blocks only")]
fn lfsr_tk1s_need_16_byte_blocks() {
    let v = Variant::Skinny64_192;
    let cipher = PerBlockTk1::new(v, v.rounds(), &[0u8; 24]).expect("valid");
    cipher.crypt_lfsr(Direction::Encrypt, &mut [0u8; 16], 1, 64);
}
