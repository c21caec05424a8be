//! Every mode, variant and CPU backend through the streaming processor, against the
//! textbook definitions, with random keys, IVs, lengths and chunkings.

mod textbook;

use proptest::prelude::*;
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, Backend, BackendChoice};
use skinny_bulk::mode::{Direction, Mode, Processor};
use skinny_bulk::Error;

fn run(
    be: &dyn Backend,
    c: &Skinny,
    mode: Mode,
    dir: Direction,
    iv: Option<&[u8]>,
    pad: bool,
    data: &[u8],
    cuts: &[usize],
) -> Result<Vec<u8>, Error> {
    let mut p = Processor::new(c, mode, dir, iv, pad, be)?;
    let mut out = Vec::new();
    let mut pos = 0;
    for &cut in cuts {
        let end = (pos + cut).min(data.len());
        p.update(&data[pos..end], &mut out)?;
        pos = end;
    }
    p.update(&data[pos..], &mut out)?;
    p.finish(&mut out)?;
    Ok(out)
}

fn expected(c: &Skinny, mode: Mode, iv: &[u8], pad: bool, data: &[u8]) -> Vec<u8> {
    let bs = c.block_bytes();
    match mode {
        Mode::Ecb => textbook::ecb(c, true, &if pad { textbook::pkcs7(data, bs) } else { data.to_vec() }),
        Mode::Cbc => textbook::cbc_encrypt(c, iv, &if pad { textbook::pkcs7(data, bs) } else { data.to_vec() }),
        Mode::Ctr => textbook::ctr(c, iv, data),
        Mode::Cfb => textbook::cfb(c, true, iv, data),
        Mode::Ofb => textbook::ofb(c, iv, data),
    }
}

fn backends() -> Vec<Box<dyn Backend>> {
    vec![backend::open(BackendChoice::CpuSerial, None).unwrap(), backend::open(BackendChoice::Cpu, Some(3)).unwrap()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    #[test]
    fn processor_matches_textbook_and_round_trips(
        vi in 0usize..6,
        mi in 0usize..5,
        key in proptest::collection::vec(any::<u8>(), 48),
        iv in proptest::collection::vec(any::<u8>(), 16),
        len in prop_oneof![0usize..80, 0usize..3000],
        seed in any::<u8>(),
        cuts in proptest::collection::vec(0usize..200, 0..6),
        pad in any::<bool>(),
    ) {
        let variant = Variant::ALL[vi];
        let mode = Mode::ALL[mi];
        let bs = variant.block_bytes();
        let c = Skinny::new(variant, &key[..variant.tweakey_bytes()]).unwrap();
        let iv = &iv[..bs];
        let ivo = if mode.needs_iv() { Some(iv) } else { None };
        let mut len = len;
        if mode.is_block_mode() && !pad { len -= len % bs; }
        let data: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(31) ^ seed).collect();
        let want = expected(&c, mode, iv, pad, &data);
        for be in backends() {
            let got = run(be.as_ref(), &c, mode, Direction::Encrypt, ivo, pad, &data, &cuts).unwrap();
            prop_assert_eq!(&got, &want, "{} {} {} encrypt", be.name(), variant, mode);
            let back = run(be.as_ref(), &c, mode, Direction::Decrypt, ivo, pad, &got, &cuts).unwrap();
            prop_assert_eq!(&back, &data, "{} {} {} decrypt", be.name(), variant, mode);
        }
    }
}

#[test]
fn ctr_counter_wraps_at_the_block_width() {
    for variant in [Variant::Skinny64_128, Variant::Skinny128_256] {
        let bs = variant.block_bytes();
        let c = Skinny::new(variant, &vec![9u8; variant.tweakey_bytes()]).unwrap();
        let mut iv = vec![0xffu8; bs];
        iv[0] = 0x12;
        iv[bs - 1] = 0xfd; // low half about to carry into the high half
        let all_ones = vec![0xffu8; bs]; // wraps to zero
        for iv in [iv, all_ones] {
            let data = vec![0x5au8; 9 * bs + 3];
            for be in backends() {
                let got =
                    run(be.as_ref(), &c, Mode::Ctr, Direction::Encrypt, Some(&iv), true, &data, &[bs + 1, 2 * bs])
                        .unwrap();
                assert_eq!(got, textbook::ctr(&c, &iv, &data), "{} {variant}", be.name());
            }
        }
    }
}

#[test]
fn bad_inputs_are_refused_with_clear_errors() {
    let c = Skinny::new(Variant::Skinny128_256, &[1u8; 32]).unwrap();
    let be = backend::open(BackendChoice::CpuSerial, None).unwrap();
    let be = be.as_ref();
    assert!(matches!(Processor::new(&c, Mode::Ctr, Direction::Encrypt, None, true, be), Err(Error::IvRequired { .. })));
    assert!(matches!(
        Processor::new(&c, Mode::Ecb, Direction::Encrypt, Some(&[0; 16]), true, be),
        Err(Error::IvNotAllowed)
    ));
    assert!(matches!(
        Processor::new(&c, Mode::Cbc, Direction::Encrypt, Some(&[0; 8]), true, be),
        Err(Error::IvLength { got: 8, .. })
    ));
    // Not whole blocks without padding, or for padded decryption.
    assert!(matches!(
        run(be, &c, Mode::Ecb, Direction::Encrypt, None, false, &[0; 17], &[]),
        Err(Error::NotWholeBlocks { len: 17, .. })
    ));
    assert!(matches!(
        run(be, &c, Mode::Cbc, Direction::Decrypt, Some(&[0; 16]), true, &[0; 33], &[]),
        Err(Error::NotWholeBlocks { len: 33, .. })
    ));
    // Bad padding: garbage ciphertext almost never unpads.
    let ct = run(be, &c, Mode::Ecb, Direction::Encrypt, None, false, &[7u8; 16], &[]).unwrap();
    let mut bad = 0;
    for k in 0..8u8 {
        let c2 = Skinny::new(Variant::Skinny128_256, &[k + 2; 32]).unwrap();
        if matches!(run(be, &c2, Mode::Ecb, Direction::Decrypt, None, true, &ct, &[]), Err(Error::BadPadding)) {
            bad += 1;
        }
    }
    assert!(bad >= 6, "wrong keys should mostly fail to unpad ({bad}/8)");
    assert!(matches!(run(be, &c, Mode::Ecb, Direction::Decrypt, None, true, &[], &[]), Err(Error::BadPadding)));
}

#[test]
fn cpu_output_is_the_same_for_every_thread_count() {
    let c = Skinny::new(Variant::Skinny128_384, &[3u8; 48]).unwrap();
    let data: Vec<u8> = (0..300_000u32).map(|i| (i * 7) as u8).collect();
    let one = backend::open(BackendChoice::Cpu, Some(1)).unwrap();
    let want = run(one.as_ref(), &c, Mode::Ctr, Direction::Encrypt, Some(&[0xee; 16]), true, &data, &[]).unwrap();
    for t in 2..=8 {
        let be = backend::open(BackendChoice::Cpu, Some(t)).unwrap();
        for mode in [Mode::Ctr, Mode::Ecb] {
            let iv = if mode.needs_iv() { Some(&[0xee; 16][..]) } else { None };
            let got = run(be.as_ref(), &c, mode, Direction::Encrypt, iv, true, &data, &[]).unwrap();
            let base = run(one.as_ref(), &c, mode, Direction::Encrypt, iv, true, &data, &[]).unwrap();
            assert_eq!(got, base, "{t} threads {mode}");
        }
    }
    assert_eq!(want, textbook::ctr(&c, &[0xee; 16], &data));
}
