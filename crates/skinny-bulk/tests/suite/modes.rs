//! Every mode, variant and CPU backend through every way in (the streaming
//! processor, in place, the io adapters, the overlapped pipe), against the
//! textbook definitions, with random keys, IVs, lengths and chunkings.

use proptest::prelude::*;
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, Backend, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use skinny_bulk::stream::{self, CryptReader, CryptWriter, PipeOptions, StreamError};
use skinny_bulk::Error;
use skinny_test_support::run::{processor, run};
use skinny_test_support::textbook;
use std::io::{Read, Write};

/// The ways a message goes through a processor.
#[derive(Clone, Copy, Debug)]
enum Api {
    /// `update` at the cuts, then `finish`.
    Update,
    /// `apply_in_place` on whole-block pieces at the cuts, then `finish_in_place`.
    InPlace,
    /// The `io::Write` adapter, written at the cuts.
    Writer,
    /// The `io::Read` adapter, read in pieces of the cuts' sizes.
    Reader,
    /// The overlapped pipe with small buffers (many of them per message).
    Pipe,
}

const APIS: [Api; 5] = [Api::Update, Api::InPlace, Api::Writer, Api::Reader, Api::Pipe];

fn unwrap_io(e: std::io::Error) -> Error {
    match e.into_inner().map(|inner| inner.downcast::<Error>()) {
        Some(Ok(e)) => *e,
        other => panic!("not a bulk error: {other:?}"),
    }
}

fn unwrap_stream(e: StreamError) -> Error {
    match e {
        StreamError::Cipher(e) => e,
        other => panic!("not a bulk error: {other:?}"),
    }
}

#[allow(clippy::too_many_arguments)]
fn run_via(
    api: Api,
    be: &dyn Backend,
    c: &Skinny,
    mode: Mode,
    dir: Direction,
    iv: Option<&[u8]>,
    pad: bool,
    data: &[u8],
    cuts: &[usize],
) -> Result<Vec<u8>, Error> {
    let mut p = processor(be, c, mode, dir, iv, pad)?;
    let bs = c.block_bytes();
    match api {
        Api::Update => run(be, c, mode, dir, iv, pad, data, cuts),
        Api::InPlace => {
            let mut buf = data.to_vec();
            let mut pos = 0;
            // The last block of a padded message must reach finish_in_place,
            // which checks its padding.
            let unpads = mode.is_block_mode() && pad && dir == Direction::Decrypt;
            let limit = if unpads { data.len().saturating_sub(bs) } else { data.len() } / bs * bs;
            for &cut in cuts {
                let end = (pos + cut / bs * bs).min(limit);
                p.apply_in_place(&mut buf[pos..end])?;
                pos = end;
            }
            let mut rest = buf.split_off(pos);
            p.finish_in_place(&mut rest)?;
            buf.extend_from_slice(&rest);
            Ok(buf)
        }
        Api::Writer => {
            let mut w = CryptWriter::new(p, Vec::new());
            let mut pos = 0;
            for &cut in cuts {
                let end = (pos + cut).min(data.len());
                w.write_all(&data[pos..end]).map_err(unwrap_io)?;
                pos = end;
            }
            w.write_all(&data[pos..]).map_err(unwrap_io)?;
            w.finish().map_err(unwrap_stream)
        }
        Api::Reader => {
            let mut r = CryptReader::new(p, data);
            let mut out = Vec::new();
            for &cut in cuts {
                let mut piece = vec![0u8; cut];
                let n = r.read(&mut piece).map_err(unwrap_io)?;
                out.extend_from_slice(&piece[..n]);
            }
            r.read_to_end(&mut out).map_err(unwrap_io)?;
            Ok(out)
        }
        Api::Pipe => {
            let chunk = cuts.first().copied().unwrap_or(1).max(1);
            let opts = PipeOptions { chunk_bytes: Some(chunk) };
            let mut seen = 0u64;
            let report =
                stream::pipe(p, std::io::Cursor::new(data.to_vec()), Vec::new(), &opts, Some(&mut |n| seen += n))
                    .map_err(unwrap_stream)?;
            assert_eq!(report.bytes, data.len() as u64, "pipe counts its input");
            assert_eq!(seen, report.bytes, "progress adds up to the input");
            Ok(report.writer)
        }
    }
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
    vec![
        backend::open(BackendChoice::CpuSerial, &Options::default()).unwrap(),
        backend::open(BackendChoice::Cpu, &Options::with_threads(Some(3))).unwrap(),
        backend::open(BackendChoice::Auto, &Options::with_threads(Some(2))).unwrap(),
    ]
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
        api in 0usize..5,
    ) {
        let api = APIS[api];
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
            let got = run_via(api, be.as_ref(), &c, mode, Direction::Encrypt, ivo, pad, &data, &cuts).unwrap();
            prop_assert_eq!(&got, &want, "{} {} {} encrypt via {:?}", be.name(), variant, mode, api);
            let back = run_via(api, be.as_ref(), &c, mode, Direction::Decrypt, ivo, pad, &got, &cuts).unwrap();
            prop_assert_eq!(&back, &data, "{} {} {} decrypt via {:?}", be.name(), variant, mode, api);
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
    let be = backend::open(BackendChoice::CpuSerial, &Options::default()).unwrap();
    let be = be.as_ref();
    assert!(matches!(processor(be, &c, Mode::Ctr, Direction::Encrypt, None, true), Err(Error::IvRequired { .. })));
    assert!(matches!(processor(be, &c, Mode::Ecb, Direction::Encrypt, Some(&[0; 16]), true), Err(Error::IvNotAllowed)));
    assert!(matches!(
        processor(be, &c, Mode::Cbc, Direction::Encrypt, Some(&[0; 8]), true),
        Err(Error::IvLength { got: 8, .. })
    ));
    assert!(matches!(
        Processor::builder(&c, Mode::Ctr, Direction::Encrypt).iv(&[0; 16]).padding(Padding::None).build(),
        Err(Error::PaddingNotApplicable { mode: Mode::Ctr })
    ));
    // Bad inputs are refused the same way through every way in.
    for api in APIS {
        assert!(
            matches!(
                run_via(api, be, &c, Mode::Ecb, Direction::Encrypt, None, false, &[0; 17], &[5]),
                Err(Error::NotWholeBlocks { len: 17, .. })
            ),
            "{api:?}"
        );
        assert!(
            matches!(
                run_via(api, be, &c, Mode::Cbc, Direction::Decrypt, Some(&[0; 16]), true, &[0; 33], &[16]),
                Err(Error::NotWholeBlocks { len: 33, .. })
            ),
            "{api:?}"
        );
        assert!(
            matches!(run_via(api, be, &c, Mode::Ecb, Direction::Decrypt, None, true, &[], &[]), Err(Error::BadPadding)),
            "{api:?}"
        );
    }
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
    let one = backend::open(BackendChoice::Cpu, &Options::with_threads(Some(1))).unwrap();
    let want = run(one.as_ref(), &c, Mode::Ctr, Direction::Encrypt, Some(&[0xee; 16]), true, &data, &[]).unwrap();
    for t in 2..=8 {
        let be = backend::open(BackendChoice::Cpu, &Options::with_threads(Some(t))).unwrap();
        for mode in [Mode::Ctr, Mode::Ecb] {
            let iv = if mode.needs_iv() { Some(&[0xee; 16][..]) } else { None };
            let got = run(be.as_ref(), &c, mode, Direction::Encrypt, iv, true, &data, &[]).unwrap();
            let base = run(one.as_ref(), &c, mode, Direction::Encrypt, iv, true, &data, &[]).unwrap();
            assert_eq!(got, base, "{t} threads {mode}");
        }
    }
    assert_eq!(want, textbook::ctr(&c, &[0xee; 16], &data));
}

#[test]
fn reduced_rounds_run_through_every_mode_and_way_in() {
    for v in [Variant::Skinny64_192, Variant::Skinny128_384] {
        let bs = v.block_bytes();
        let c = Skinny::with_rounds(v, &vec![0x3cu8; v.tweakey_bytes()], 7).unwrap();
        let iv = vec![0xa5u8; bs];
        let data: Vec<u8> = (0..5000u32).map(|i| (i * 13 + 1) as u8).collect();
        for mode in Mode::ALL {
            let ivo = mode.needs_iv().then_some(&iv[..]);
            let want = expected(&c, mode, &iv, true, &data);
            for be in backends() {
                for api in APIS {
                    let got =
                        run_via(api, be.as_ref(), &c, mode, Direction::Encrypt, ivo, true, &data, &[777]).unwrap();
                    assert!(got == want, "{} {v} 7 rounds {mode} via {api:?}", be.name());
                }
            }
        }
    }
}
