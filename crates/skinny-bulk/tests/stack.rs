//! Every mode of `skinny-bulk` runs from a 64 KiB stack, in the test profile
//! and in the dev profile at opt-level 0 (`cargo test --profile dev -p
//! skinny-bulk --test stack`): each mode both ways through a [`Processor`]
//! (streaming and in place) and through the stream adapters and `pipe`, on the
//! `cpu` backend (its pool's threads have the stack skinny-exec gives them),
//! the `cpu-serial` one and `auto`. Each call runs in a child process (see
//! `skinny_test_support::stack`), so an overflow names the call.

use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Processor};
use skinny_bulk::stream::{pipe, CryptReader, CryptWriter, PipeOptions};
use skinny_test_support::run::processor;
use skinny_test_support::stack::{check, Case};
use std::io::{Read, Write};

const BULK: usize = 64 * 1024;

fn cases_for(choice: BackendChoice, v: Variant, mode: Mode) -> Case {
    let name = format!("{} {v} {mode:?}: Processor, CryptWriter/Reader, pipe; 64 KiB + 5 bytes", choice.name());
    Case::new(name, move || {
        let be = backend::open(choice, &Options::with_threads(Some(2))).expect("the backend opens");
        let cipher = Skinny::new(v, &vec![3u8; v.tweakey_bytes()]).expect("key length");
        let iv = vec![4u8; v.block_bytes()];
        let iv = (mode != Mode::Ecb).then_some(iv.as_slice());
        let data = vec![5u8; BULK + 5];
        let make = |dir| processor(be.as_ref(), &cipher, mode, dir, iv, true).expect("a processor");

        let mut sealed = Vec::new();
        let mut p = make(Direction::Encrypt);
        p.update(&data[..1000], &mut sealed).expect("update");
        p.update(&data[1000..], &mut sealed).expect("update");
        p.finish(&mut sealed).expect("finish");
        let mut buf = sealed.clone();
        make(Direction::Decrypt).finish_in_place(&mut buf).expect("in place");
        assert_eq!(buf, data);

        let mut w = CryptWriter::new(make(Direction::Encrypt), Vec::new());
        w.write_all(&data).expect("write");
        assert_eq!(w.finish().expect("finish"), sealed);
        let mut r = CryptReader::new(make(Direction::Decrypt), sealed.as_slice());
        let mut back = Vec::new();
        r.read_to_end(&mut back).expect("read");
        assert_eq!(back, data);

        let opts = PipeOptions { chunk_bytes: Some(16 * 1024) };
        let report = pipe(make(Direction::Encrypt), data.as_slice(), Vec::new(), &opts, None).expect("pipe");
        assert_eq!(report.writer, sealed);
    })
}

#[test]
fn every_mode_runs_from_64_kib_of_stack() {
    let mut cases = Vec::new();
    for choice in [BackendChoice::Cpu, BackendChoice::CpuSerial, BackendChoice::Auto] {
        for v in [Variant::Skinny64_192, Variant::Skinny128_384] {
            for mode in Mode::ALL {
                cases.push(cases_for(choice, v, mode));
            }
        }
    }
    // A processor built directly, as the crate's example does.
    cases.push(Case::new("Processor::builder, cpu, CTR in place 1 MiB", || {
        let be = backend::open(BackendChoice::Cpu, &Options::default()).expect("cpu");
        let cipher = Skinny::new(Variant::Skinny128_256, &[1u8; 32]).expect("key length");
        let mut p = Processor::builder(&cipher, Mode::Ctr, Direction::Encrypt)
            .iv(&[0u8; 16])
            .backend(be.as_ref())
            .build()
            .expect("a processor");
        let mut data = vec![0u8; 1 << 20];
        p.apply_in_place(&mut data).expect("in place");
    }));
    check("every_mode_runs_from_64_kib_of_stack", cases);
}
