//! The schemes against their one-block cost: how many block-cipher calls a
//! scheme makes per byte times what one call of its cipher costs alone
//! (`Skinny::encrypt_block` in a chain, the tweakey expanded once) is the
//! floor a one-message implementation can reach without running calls side by
//! side; the ratio is the share of that floor reached. Near 1 means the scheme
//! runs at its cipher's speed; a drop to a fraction means it lost its fast path
//! (a key schedule or the specification code back in every call). Above 1 is
//! possible where independent calls run interleaved (Romulus-H's two).

use super::{filled, Limit, Runner};
use skinny::{Skinny, Variant};
use skinny_hash::{SkinnyTk2Hash, SkinnyTk3Hash};
use skinny_romulus::aead::inout::InOutBuf;
use skinny_romulus::aead::{AeadInOut, KeyInit};
use skinny_romulus::digest::Digest;
use skinny_romulus::{RomulusH, RomulusM, RomulusN};
use std::hint::black_box;

// "Measured": the dev machine (an AMD EPYC VM, family 25 model 1, Zen 3:
// SSSE3, AVX2, no AVX-512), idle and under load; the runs are in
// runs/dev-2026-12-03-speed-guard/.

/// Bytes of a message, or of one update of a hash: long enough that the
/// per-message work (the nonce ‖ key expansion, the tag) is a few percent.
const MESSAGE_BYTES: usize = 16 * 1024;
/// SKINNY-tk2-Hash absorbs 4 bytes a permutation: a quarter as much keeps one
/// update near a millisecond.
const TK2_HASH_BYTES: usize = 4 * 1024;

/// Blocks of the one-block chain that is the floor's unit.
const CHAIN: usize = 64;

/// Romulus-N seal: 1 call per 16-byte block, plus the AD phase's one.
const ROMULUS_N: Limit = Limit {
    threshold: 0.5,
    floor: "each block's call on the single-block path with TK1 added in the rounds (nonce ‖ key expanded \
            once a message), plus rho: near 1; measured 0.91-0.93 (0.81-0.82 before 5bf6a74). A whole schedule each call (about two \
            blocks' cost) would give about 0.3, the specification code about 0.15",
};

/// Romulus-M seal: a MAC call per two blocks (TK2 = a message block: its
/// schedule each call) and an encryption call per block.
const ROMULUS_M: Limit = Limit {
    threshold: 0.5,
    floor: "1.5 calls a block, a third of them with a TK2 (a message block) of their own; measured 0.93-0.94 (0.87-0.89 before 5bf6a74)",
};

/// Romulus-H: two calls per 32 bytes, the whole tweakey new each time.
const ROMULUS_H: Limit = Limit {
    threshold: 0.8,
    floor: "two calls per 32 bytes under one fresh 384-bit tweakey; the two are independent, so run side by \
            side with the schedule in the rounds (single::encrypt_lanes) they pass 1: measured 1.62-1.63; \
            one call and one schedule at a time, as before encrypt_lanes, measured 0.54-0.55",
};

/// SKINNY-tk3-Hash: three SKINNY-128-384 calls per 16 bytes under the state
/// as tweakey.
const TK3_HASH: Limit = Limit {
    threshold: 0.7,
    floor: "three 56-round calls a permutation under one fresh tweakey, side by side (encrypt_lanes): \
            measured 1.34-1.40; one at a time after one schedule a permutation, as before, 0.47-0.49",
};

/// SKINNY-tk2-Hash: two SKINNY-128-256 calls per 4 bytes.
const TK2_HASH: Limit = Limit {
    threshold: 0.9,
    floor: "two 48-round calls a permutation under one fresh tweakey, 4 bytes absorbed, side by side \
            (encrypt_lanes): measured 1.86-1.89; one at a time, as before, 0.45-0.47",
};

/// A chain of `CHAIN` encryptions under one expanded tweakey: the unit cost.
fn one_block(v: Variant, rounds: usize) -> impl FnMut() {
    let cipher = Skinny::with_rounds(v, &filled(v.tweakey_bytes()), rounds).expect("a whole tweakey, valid rounds");
    let mut block = filled(16);
    move || {
        for _ in 0..CHAIN {
            cipher.encrypt_block(black_box(&mut block));
        }
    }
}

fn seal<'a, A: AeadInOut + KeyInit>(input: &'a [u8], out: &'a mut [u8]) -> impl FnMut() + use<'a, A> {
    let cipher = A::new_from_slice(&filled(16)).ok();
    let nonce = filled(16);
    move || {
        let (Some(cipher), Ok(nonce)) = (&cipher, nonce.as_slice().try_into()) else { return };
        let Ok(buf) = InOutBuf::new(input, &mut *out) else { return };
        black_box(cipher.encrypt_inout_detached(nonce, &[], buf).ok());
    }
}

pub fn run(r: &mut Runner) {
    r.set_unit("block-cipher calls");
    let blocks = MESSAGE_BYTES / 16;
    let input = filled(MESSAGE_BYTES);
    let mut out = vec![0u8; MESSAGE_BYTES];
    let mut plus = one_block(Variant::Skinny128_384, 40);
    let chain = CHAIN as f64;

    let calls = (blocks + 1) as f64;
    r.ratio(
        "Romulus-N seal / its SKINNY-128-384+ calls one block at a time, 16 KiB".into(),
        ROMULUS_N,
        (&mut seal::<RomulusN>(&input, &mut out), calls),
        (&mut plus, chain),
    );
    // The MAC: (a + m) / 2 pair calls and the final call; then one call a
    // block. An empty AD counts as one (padded) block.
    let ad_blocks = 1;
    let calls = ((ad_blocks + blocks) / 2 + 1 + blocks) as f64;
    r.ratio(
        "Romulus-M seal / its SKINNY-128-384+ calls one block at a time, 16 KiB".into(),
        ROMULUS_M,
        (&mut seal::<RomulusM>(&input, &mut out), calls),
        (&mut plus, chain),
    );

    let mut romulus_h = RomulusH::new();
    r.ratio(
        "Romulus-H / its SKINNY-128-384+ calls one block at a time, 16 KiB updates".into(),
        ROMULUS_H,
        (&mut || romulus_h.update(black_box(&input)), (MESSAGE_BYTES / 16) as f64),
        (&mut plus, chain),
    );

    let mut tk3 = SkinnyTk3Hash::new();
    r.ratio(
        "SKINNY-tk3-Hash / its SKINNY-128-384 calls one block at a time, 16 KiB updates".into(),
        TK3_HASH,
        (&mut || tk3.update(black_box(&input)), (3 * MESSAGE_BYTES / 16) as f64),
        (&mut one_block(Variant::Skinny128_384, 56), chain),
    );

    let mut tk2 = SkinnyTk2Hash::new();
    let short = &input[..TK2_HASH_BYTES];
    r.ratio(
        "SKINNY-tk2-Hash / its SKINNY-128-256 calls one block at a time, 4 KiB updates".into(),
        TK2_HASH,
        (&mut || tk2.update(black_box(short)), (2 * TK2_HASH_BYTES / 4) as f64),
        (&mut one_block(Variant::Skinny128_256, 48), chain),
    );
}
