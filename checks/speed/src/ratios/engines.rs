//! Engines against their simpler siblings: lockstep batches
//! (`skinny::hazmat::bitsliced::Lockstep`) on each path and against a tweakey
//! per block (`PerBlockTweakeys`, what they replace for Romulus-N), and the
//! many-message engine (`skinny-many`, one worker thread) against one message
//! per call through `skinny-romulus`.

use super::bitsliced::available;
use super::{filled, Limit, Runner};
use skinny::hazmat::bitsliced::{Lockstep, Path, PerBlockTweakeys};
use skinny::Variant;
use skinny_many::cpu::{self, Tuning};
use skinny_many::{Batch, Scheme};
use skinny_romulus::aead::inout::InOutBuf;
use skinny_romulus::aead::{AeadInOut, KeyInit};
use skinny_romulus::{RomulusM, RomulusN};
use std::hint::black_box;

// "Measured": the dev machine (an AMD EPYC VM, family 25 model 1, Zen 3:
// SSSE3, AVX2, no AVX-512), idle and under load; the runs are in
// runs/dev-2026-12-03-speed-guard/.

/// SKINNY-128-384+: Romulus's cipher, 40 rounds.
const VARIANT: Variant = Variant::Skinny128_384;
const ROUNDS: usize = 40;

/// A lockstep call on a SIMD path against portable-u64, per lane.
const LOCKSTEP_SIMD_OVER_PORTABLE: [Limit; 2] = [
    Limit {
        threshold: 1.5,
        floor: "AVX2: 4x the lanes of u64, the same rounds; measured 2.7-3.9x (two speeds, one per process)",
    },
    Limit {
        threshold: 2.0,
        floor: "AVX-512: 8x the lanes of u64 and three-input logic: 5-8x expected, as the shared-key path",
    },
];

/// A lockstep call (state kept sliced, TK2 ‖ TK3 expanded once) against the
/// same blocks through per-block tweakeys on the same path.
const LOCKSTEP_OVER_PER_BLOCK: Limit = Limit {
    threshold: 1.3,
    floor: "no transposition and no tweakey schedule a call: the rounds alone against rounds, the bitsliced \
            schedule of three TK arrays and the transposition of data and tweakeys (per-block tweakeys run at \
            0.45x the shared-key speed); measured 2.3-3.0x on AVX2",
};

/// Messages in a timed batch of short messages: four AVX2 batches, two
/// AVX-512 ones.
const MESSAGES: usize = 1024;
/// A gateway's frame: the size the engine's targets are stated for.
const MESSAGE_BYTES: usize = 64;
/// Long messages, where a group's once-a-message work (the expansion of
/// nonce ‖ key, the AD call's own table) is spread over 64 calls: one AVX-512
/// batch, two AVX2 ones.
const LONG_MESSAGES: usize = 512;
const LONG_MESSAGE_BYTES: usize = 1024;

/// The engine (Romulus-N in lockstep groups) against one message per call.
const MANY_OVER_ONE_PER_CALL: Limit = Limit {
    threshold: 2.0,
    floor: "a lockstep batch of messages (a TK1 per lane, nonce and key expanded once a message) against one \
            latency-bound chain at a time: measured 3.2-3.7x on AVX2 and 5.2-5.3x on one H200-host core \
            (2.0-2.4x on AVX2 before the groups took messages of any shape and the batch was cut into ranges)",
};

/// Lockstep groups against the lane engine, the same Romulus-N messages.
const GROUPS_OVER_LANES: Limit = Limit {
    threshold: 1.2,
    floor: "a group's call is 2.3-3.0x a lane batch's (lockstep against per-block tweakeys above), less its \
            slicing in and out and TK1 slicing each step: measured 1.6x on AVX2, 1.9-2.0x on one H200-host \
            core (1.19-1.24x before the groups kept their buffers and moved whole blocks as fixed copies)",
};

/// Romulus-M's lockstep slots against one message per call.
const LANES_OVER_ONE_PER_CALL: Limit = Limit {
    threshold: 1.6,
    floor: "Romulus-M in lockstep slots (nonce and key expanded once a message, a table a step for the MAC's \
            pairs) against one latency-bound chain at a time: measured 2.4-2.6x on AVX2, 3.0x on one \
            H200-host core (1.6-2.0x on AVX2 with the lane engine's per-block tweakeys)",
};

pub fn run(r: &mut Runner) {
    lockstep(r);
    many(r);
}

fn lockstep(r: &mut Runner) {
    r.set_unit("blocks");
    let paths = available(r, "lockstep");
    let engine = |path: Path| {
        Lockstep::new(VARIANT, ROUNDS).expect("SKINNY-128-384, 40 rounds").on_path(path).expect("found available")
    };
    let tk1 = [5u8; 16];
    // Each path's buffers: its own lane count, table and sliced state.
    let buffers = |ls: &Lockstep| {
        let rest = filled(ls.lane_tweakey_bytes() * ls.lanes());
        let mut table = vec![0u8; ls.tweakey_table_bytes()];
        ls.expand(&rest, &mut table);
        let mut state = vec![0u8; ls.state_bytes()];
        ls.slice_in(&filled(16 * ls.lanes()), &mut state);
        (rest, table, state)
    };
    let portable = engine(Path::PortableU64);
    let (_, p_table, mut p_state) = buffers(&portable);
    for &path in &paths {
        let i = match path {
            Path::PortableU64 => continue,
            Path::Avx2 => 0,
            Path::Avx512 => 1,
        };
        let ls = engine(path);
        let (_, table, mut state) = buffers(&ls);
        r.ratio(
            format!("lockstep {path} / portable-u64, SKINNY-128-384+ encrypt"),
            LOCKSTEP_SIMD_OVER_PORTABLE[i],
            (&mut || ls.encrypt(black_box(&mut state), &tk1, &table), ls.lanes() as f64),
            (&mut || portable.encrypt(black_box(&mut p_state), &tk1, &p_table), portable.lanes() as f64),
        );
    }
    let best = engine(Path::best());
    let (rest, table, mut state) = buffers(&best);
    let lanes = best.lanes();
    let per_block = PerBlockTweakeys::new(VARIANT, ROUNDS).expect("40 rounds").on_path(best.path()).expect("available");
    let tweakeys: Vec<u8> =
        rest.chunks_exact(best.lane_tweakey_bytes()).flat_map(|r| tk1.iter().chain(r)).copied().collect();
    let mut blocks = filled(16 * lanes);
    r.ratio(
        format!("lockstep {} / per-block tweakeys, SKINNY-128-384+ encrypt", best.path()),
        LOCKSTEP_OVER_PER_BLOCK,
        (&mut || best.encrypt(black_box(&mut state), &tk1, &table), lanes as f64),
        (&mut || per_block.encrypt(black_box(&mut blocks), &tweakeys), lanes as f64),
    );
}

/// `count` messages of `bytes` under `scheme`, each with its own key and
/// nonce, no AD.
fn batch(scheme: Scheme, count: usize, bytes: usize) -> Option<Batch> {
    let mut b = Batch::with_capacity(scheme, count, count * bytes);
    let data = filled(bytes);
    for i in 0..count {
        let key = filled(16 + i)[i..].to_vec();
        let nonce = filled(32 + i)[i + 16..].to_vec();
        b.push(&key, &nonce, &[], &data).ok()?;
    }
    Some(b)
}

/// Seals every message of `b` one call each through the single-message type
/// (`out`: one message's length).
fn one_per_call<A: AeadInOut + KeyInit>(b: &Batch, out: &mut [u8]) {
    let keys = b.flat().keys;
    for (i, key) in keys.chunks_exact(16).enumerate() {
        let Ok(cipher) = A::new_from_slice(key) else { continue };
        let Ok(nonce) = b.nonce(i).try_into() else { continue };
        let data = b.data(i);
        let Some(out) = out.get_mut(..data.len()) else { continue };
        out.copy_from_slice(data);
        black_box(cipher.encrypt_inout_detached(nonce, &[], InOutBuf::from(&mut *out)).ok());
    }
}

fn many(r: &mut Runner) {
    r.set_unit("messages");
    let pool = match skinny_exec::worker_pool(1) {
        Ok(pool) => pool,
        Err(e) => return r.skip(format!("many-message engine: no worker thread ({e})")),
    };
    let (Some(n), Some(m), Some(long)) = (
        batch(Scheme::RomulusN, MESSAGES, MESSAGE_BYTES),
        batch(Scheme::RomulusM, MESSAGES, MESSAGE_BYTES),
        batch(Scheme::RomulusN, LONG_MESSAGES, LONG_MESSAGE_BYTES),
    ) else {
        return r.skip("many-message engine: a batch was refused".into());
    };
    let groups = Tuning::default();
    let lanes = Tuning { lockstep: false, ..groups };
    // One message per call runs on the engine's worker thread too, so that
    // both sides of a ratio share a thread and its core (on a busy VM the two
    // cores need not run alike).
    let mut out = vec![0u8; MESSAGE_BYTES];
    let count = MESSAGES as f64;
    r.ratio(
        "many-message groups / one message per call, Romulus-N 64 B seal, 1 thread".into(),
        MANY_OVER_ONE_PER_CALL,
        (&mut || drop(black_box(cpu::seal_tuned(&pool, &n, groups))), count),
        (&mut || pool.install(|| one_per_call::<RomulusN>(&n, &mut out)), count),
    );
    let long_count = LONG_MESSAGES as f64;
    r.ratio(
        "many-message groups / lanes, Romulus-N 1 KiB seal, 1 thread".into(),
        GROUPS_OVER_LANES,
        (&mut || drop(black_box(cpu::seal_tuned(&pool, &long, groups))), long_count),
        (&mut || drop(black_box(cpu::seal_tuned(&pool, &long, lanes))), long_count),
    );
    r.ratio(
        "many-message slots / one message per call, Romulus-M 64 B seal, 1 thread".into(),
        LANES_OVER_ONE_PER_CALL,
        (&mut || drop(black_box(cpu::seal_tuned(&pool, &m, groups))), count),
        (&mut || pool.install(|| one_per_call::<RomulusM>(&m, &mut out)), count),
    );
}
