//! The engines over many pieces: the CPU many-message engine (one small
//! batch of every scheme, one thread) and skinny-bulk's CPU backends in
//! every mode, both directions.

use crate::secret::{bytes, public, same, secret, secret_copy};
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use skinny_exec::Threads;
use skinny_many::{cpu, Batch, Scheme};

/// Seals a batch of six messages of every scheme (keys, AD and data secret),
/// then opens the result with one tag changed: five open, one is refused.
pub fn many_messages() {
    let one = Threads::from_count(Some(1));
    for (s, scheme) in Scheme::ALL.into_iter().enumerate() {
        let seed = 4000 + 100 * s as u64;
        let lengths = [0usize, 1, 16, 47, 64, 300];
        let keys: Vec<Vec<u8>> = (0..lengths.len()).map(|i| secret(seed + i as u64, 16)).collect();
        let nonces: Vec<Vec<u8>> =
            (0..lengths.len()).map(|i| bytes(seed + 10 + i as u64, scheme.nonce_len())).collect();
        let ads: Vec<Vec<u8>> = (0..lengths.len()).map(|i| secret(seed + 20 + i as u64, i * 5)).collect();
        let plains: Vec<Vec<u8>> = lengths.iter().enumerate().map(|(i, &n)| bytes(seed + 30 + i as u64, n)).collect();
        let mut batch = Batch::new(scheme);
        for i in 0..lengths.len() {
            batch.push(&keys[i], &nonces[i], &ads[i], &secret_copy(&plains[i])).expect("valid message");
        }
        let sealed = cpu::seal(one, &batch).expect("one thread");
        let mut opening = Batch::new(scheme);
        for i in 0..lengths.len() {
            let mut m = sealed.message(i).expect("sealed").to_vec();
            public(&m);
            if i == 3 {
                let last = m.len() - 1;
                m[last] ^= 1;
            }
            opening.push(&keys[i], &nonces[i], &ads[i], &m).expect("valid message");
        }
        let opened = cpu::open(one, &opening).expect("one thread");
        for (i, plain) in plains.iter().enumerate() {
            match opened.message(i) {
                Ok(m) => same(m, plain, "many: open"),
                Err(_) => assert_eq!(i, 3, "only the changed message fails"),
            }
        }
    }
}

/// Romulus-N and -M batches large enough for the lockstep shapes (groups of
/// mixed lengths with AD pairs, slots refilled and a tail), on one thread:
/// sealed, then opened with one tag changed.
pub fn many_lockstep() {
    let one = Threads::from_count(Some(1));
    for (s, scheme) in [Scheme::RomulusN, Scheme::RomulusM].into_iter().enumerate() {
        let seed = 4600 + 1000 * s as u64;
        let count = 300;
        let mut batch = Batch::new(scheme);
        let mut msgs = Vec::with_capacity(count);
        for i in 0..count {
            let (k, n) = (secret(seed + 3 * i as u64, 16), bytes(seed + 3 * i as u64 + 1, 16));
            let a = secret(seed + 3 * i as u64 + 2, (i * 7) % 40);
            let p = bytes(seed + 5000 + i as u64, (i * 13) % 90);
            batch.push(&k, &n, &a, &secret_copy(&p)).expect("valid message");
            msgs.push((k, n, a, p));
        }
        let sealed = cpu::seal(one, &batch).expect("one thread");
        let mut opening = Batch::new(scheme);
        for (i, (k, n, a, _)) in msgs.iter().enumerate() {
            let mut m = sealed.message(i).expect("sealed").to_vec();
            public(&m);
            if i == 77 {
                m[0] ^= 1;
            }
            opening.push(k, n, a, &m).expect("valid message");
        }
        let opened = cpu::open(one, &opening).expect("one thread");
        for (i, (_, _, _, plain)) in msgs.iter().enumerate() {
            match opened.message(i) {
                Ok(m) => same(m, plain, "many lockstep: open"),
                Err(_) => assert_eq!(i, 77, "only the changed message fails"),
            }
        }
    }
}

/// skinny-bulk's `cpu-serial` (specification code) and `cpu` (bitsliced and
/// single-block paths, threads) backends: every mode, both directions, a
/// secret key and data, without padding and (block modes) with PKCS#7, added
/// when encrypting and checked and removed (in constant time) when
/// decrypting; then a last block whose padding is wrong, refused.
pub fn bulk_modes() {
    bulk();
    bad_padding();
}

/// A last block that decrypts to a wrong padding (its last byte 0): refused
/// with `BadPadding`, nothing of the block released.
fn bad_padding() {
    let c = Skinny::new(Variant::Skinny128_256, &secret(5100, 32)).expect("tweakey length");
    let mut block = bytes(5101, 16);
    block[15] = 0;
    let mut buf = secret_copy(&block);
    let run = |dir, buf: &mut Vec<u8>, pad| {
        let p = Processor::builder(&c, Mode::Ecb, dir).padding(pad).build().expect("valid processor");
        p.finish_in_place(buf)
    };
    run(Direction::Encrypt, &mut buf, Padding::None).expect("one block");
    public(&buf);
    let refused = run(Direction::Decrypt, &mut buf, Padding::Pkcs7);
    assert!(matches!(refused, Err(skinny_bulk::Error::BadPadding)), "wrong padding refused");
    assert!(buf.is_empty(), "nothing released");
}

fn bulk() {
    for choice in [BackendChoice::CpuSerial, BackendChoice::Cpu] {
        let be = backend::open(choice, &Options::default()).expect("CPU backends open");
        for (i, v) in [Variant::Skinny128_256, Variant::Skinny64_128].into_iter().enumerate() {
            let bs = v.block_bytes();
            let c = Skinny::new(v, &secret(5000 + i as u64, v.tweakey_bytes())).expect("tweakey length");
            let iv = bytes(5010 + i as u64, bs);
            for mode in Mode::ALL {
                let pads: &[bool] = if mode.is_block_mode() { &[false, true] } else { &[false] };
                for &pad in pads {
                    // Whole blocks without padding; any length otherwise.
                    let len = if mode.is_block_mode() && !pad { 300 * bs } else { 300 * bs + 5 };
                    let plain = bytes(5020 + i as u64, len);
                    let run = |dir: Direction, pad: bool, input: &[u8]| -> Vec<u8> {
                        let mut b = Processor::builder(&c, mode, dir).backend(be.as_ref());
                        if mode != Mode::Ecb {
                            b = b.iv(&iv);
                        }
                        if mode.is_block_mode() {
                            b = b.padding(if pad { Padding::Pkcs7 } else { Padding::None });
                        }
                        let mut p = b.build().expect("valid processor");
                        let mut out = Vec::new();
                        p.update(input, &mut out).expect("update");
                        p.finish(&mut out).expect("finish");
                        out
                    };
                    let sealed = run(Direction::Encrypt, pad, &secret_copy(&plain));
                    public(&sealed);
                    let opened = run(Direction::Decrypt, pad, &sealed);
                    same(&opened, &plain, "bulk round trip");
                }
            }
        }
    }
}
