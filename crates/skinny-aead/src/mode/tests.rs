//! The mode against its reference: any engine behind the seam, every member,
//! lengths around blocks and batches, the M5/M6 length limit.

use super::*;
use crate::engine::bitsliced::BitslicedEngine;
use crate::engine::single::SingleEngine;
use crate::engine::spec::SpecEngine;
use core::cell::Cell;
use std::{vec, vec::Vec};

/// Another engine behind the same trait: the spec engine one block per call,
/// counting calls and checking the batch sizes. The mode must give the same
/// bytes through it: the seam is all the mode knows of the cipher.
struct OneByOne {
    inner: SpecEngine,
    calls: Cell<usize>,
}

impl BlockEngine for OneByOne {
    fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        assert!(!blocks.is_empty() && blocks.len() <= BATCH);
        for (t, b) in tweaks.iter().zip(blocks.iter_mut()) {
            self.calls.set(self.calls.get() + 1);
            self.inner.encrypt(core::slice::from_ref(t), core::slice::from_mut(b));
        }
    }

    fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
        assert!(!blocks.is_empty() && blocks.len() <= BATCH);
        for (t, b) in tweaks.iter().zip(blocks.iter_mut()) {
            self.calls.set(self.calls.get() + 1);
            self.inner.decrypt(core::slice::from_ref(t), core::slice::from_mut(b));
        }
    }
}

#[test]
fn any_engine_behind_the_seam() {
    let m = Member::M1;
    let key = [5u8; 16];
    let nonce = [6u8; 16];
    let spec = SpecEngine::new(m.layout(), &key, &nonce);
    let one = OneByOne { inner: SpecEngine::new(m.layout(), &key, &nonce), calls: Cell::new(0) };
    let ad = [7u8; 40];
    let mut a = [9u8; 16 * 20 + 3];
    let mut b = a;
    let ta = seal(m, &spec, &ad, a.as_mut_slice().into()).unwrap();
    let tb = seal(m, &one, &ad, b.as_mut_slice().into()).unwrap();
    assert_eq!((a, ta), (b, tb));
    // 20 full blocks, the pad, the tag block, 3 AD blocks.
    assert_eq!(one.calls.get(), 20 + 1 + 1 + 3);
    open(m, &one, &ad, b.as_mut_slice().into(), &tb).unwrap();
    assert_eq!(b, [9u8; 16 * 20 + 3]);
}

/// xorshift64*: test inputs without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn fill(&mut self, buf: &mut [u8]) {
        for b in buf {
            *b = self.next() as u8;
        }
    }
}

/// The bitsliced engine (as the crate uses it, and with every call on the
/// bitsliced path, single blocks included, on the best and the portable
/// path) gives the spec engine's bytes on
/// random messages of many lengths (within a batch, across batch and block
/// boundaries), every member, and opens what it sealed.
#[test]
fn bitsliced_engine_matches_spec_engine() {
    let mut rng = Rng(0x5eed_0123_4567_89ab);
    let mut lens: Vec<usize> = (0..=40).collect();
    lens.extend([63, 64, 65, 255, 256, 257, 4095, 4096, 4097, 4111, 4112, 4113, 4127, 5000]);
    // Around the 512-block mode batch (8 KiB) and two of them.
    lens.extend([8191, 8192, 8193, 8207, 8208, 8209, 16383, 16384, 16400]);
    for _ in 0..8 {
        lens.push((rng.next() % 5001) as usize);
    }
    for (k, m) in Member::ALL.into_iter().enumerate() {
        let nonce_len = if m.prefix() & 0x10 != 0 { 12 } else { 16 };
        for (j, &len) in lens.iter().enumerate() {
            let mut key = [0u8; 16];
            let mut nonce = [0u8; 16];
            rng.fill(&mut key);
            rng.fill(&mut nonce);
            let nonce = &nonce[..nonce_len];
            // AD lengths: 0, a partial block, whole blocks, across a batch.
            let ad_len = [0, 1, 15, 16, 17, 48, 4100, 33][(j + k) % 8];
            let mut ad = vec![0u8; ad_len];
            rng.fill(&mut ad);
            let mut msg = vec![0u8; len];
            rng.fill(&mut msg);

            let spec = SpecEngine::new(m.layout(), &key, nonce);
            let mut want = msg.clone();
            let want_tag = seal(m, &spec, &ad, want.as_mut_slice().into()).unwrap();
            for engine in [
                BitslicedEngine::new(m.layout(), &key, nonce),
                BitslicedEngine::always_bitsliced(m.layout(), &key, nonce),
                BitslicedEngine::always_portable(m.layout(), &key, nonce),
            ] {
                let mut got = msg.clone();
                let tag = seal(m, &engine, &ad, got.as_mut_slice().into()).unwrap();
                assert_eq!((&got, tag), (&want, want_tag), "member {k}, {len} bytes, AD {ad_len}");
                open(m, &engine, &ad, got.as_mut_slice().into(), &tag[..m.tag_len()]).unwrap();
                assert_eq!(got, msg, "member {k}, {len} bytes, AD {ad_len}");
            }
            // Every call one block at a time (the short calls' engine), on
            // the whole message too.
            let single = SingleEngine::new(m.layout(), &key, nonce);
            let mut got = msg.clone();
            let tag = seal(m, &single, &ad, got.as_mut_slice().into()).unwrap();
            assert_eq!((&got, tag), (&want, want_tag), "single: member {k}, {len} bytes, AD {ad_len}");
            open(m, &single, &ad, got.as_mut_slice().into(), &tag[..m.tag_len()]).unwrap();
            assert_eq!(got, msg, "single: member {k}, {len} bytes, AD {ad_len}");
        }
    }
}

#[test]
fn lengths_m5_limit() {
    let m = Member::M5;
    let period = (1usize << 24) - 1;
    // full blocks + 2 counters must fit in the period.
    assert!(m.check_lengths((period - 2) * BLOCK, 0).is_ok());
    assert!(m.check_lengths((period - 1) * BLOCK, 0).is_err());
    assert!(m.check_lengths(0, period * BLOCK).is_ok());
    assert!(m.check_lengths(0, period * BLOCK + 1).is_err());
    let m1 = Member::M1;
    assert!(m1.check_lengths(usize::MAX, usize::MAX).is_ok());
}
