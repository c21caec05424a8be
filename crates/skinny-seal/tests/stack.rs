//! skinny-seal's public calls run from a 64 KiB stack (see
//! `skinny_test_support::stack`), in the test profile and in the dev profile
//! at opt-level 0 (`cargo test --profile dev -p skinny-seal --test stack`):
//! seal and open of 1 MB on the CPU (rayon's pool built with 64 KiB stacks
//! too), the io adapters and random access, for a Romulus scheme and a
//! SKINNY-AEAD one; and version-1 files of 1 MB and 10 MB sealed and opened
//! from a reader to a writer.

use skinny_seal::{
    hazmat, open, open_range, seal, OpenOptions, OpenReader, Scheme, SealOptions, SealWriter, SeekableOpener,
    SymmetricKey,
};
use skinny_test_support::stack::{check, Case, LIMIT};
use std::io::{Read, Seek, SeekFrom, Write};

const N: usize = 1 << 20;

fn cases(scheme: Scheme) -> Vec<Case> {
    let opts = move || SealOptions { scheme, chunk_log2: 16, ..SealOptions::default() };
    let key = || SymmetricKey::from_bytes(&[5u8; 32]).unwrap();
    let plain = || (0..N).map(|i| i as u8).collect::<Vec<u8>>();
    let name = scheme.name();
    vec![
        Case::new(format!("{name} seal/open 1 MB"), move || {
            rayon::ThreadPoolBuilder::new().stack_size(LIMIT).build_global().expect("the global pool");
            let (k, p) = (key(), plain());
            let mut file = Vec::new();
            seal(&p[..], &mut file, &[&k], &opts()).unwrap();
            let mut back = Vec::new();
            open(&file[..], &mut back, &[&k], &OpenOptions::default()).unwrap();
            assert!(back == p);
        }),
        Case::new(format!("{name} SealWriter/OpenReader 1 MB"), move || {
            let (k, p) = (key(), plain());
            let mut w = SealWriter::new(Vec::new(), &[&k], &opts()).unwrap();
            w.write_all(&p).unwrap();
            let file = w.finish().unwrap();
            let mut back = Vec::new();
            OpenReader::new(&file[..], &[&k], &OpenOptions::default()).unwrap().read_to_end(&mut back).unwrap();
            assert!(back == p);
        }),
        Case::new(format!("{name} SeekableOpener/open_range 1 MB"), move || {
            let (k, p) = (key(), plain());
            let mut w = SealWriter::new(Vec::new(), &[&k], &opts()).unwrap();
            w.write_all(&p).unwrap();
            let file = w.finish().unwrap();
            let mut s = SeekableOpener::new(std::io::Cursor::new(&file), &[&k], &OpenOptions::default()).unwrap();
            s.seek(SeekFrom::Start(70_000)).unwrap();
            let mut b = [0u8; 100];
            s.read_exact(&mut b).unwrap();
            assert!(b[..] == p[70_000..70_100]);
            let mut out = Vec::new();
            open_range(std::io::Cursor::new(&file), &mut out, 1000, 200_000, &[&k], &OpenOptions::default()).unwrap();
            assert!(out[..] == p[1000..201_000]);
        }),
    ]
}

#[test]
fn public_calls_fit_64_kib_of_stack() {
    check("public_calls_fit_64_kib_of_stack", cases(Scheme::RomulusN));
}

/// The same calls with SKINNY-AEAD-M1 (skinny-aead's engine keeps its big
/// state on the heap).
#[test]
fn skinny_aead_calls_fit_64_kib_of_stack() {
    check("skinny_aead_calls_fit_64_kib_of_stack", cases(Scheme::M1));
}

/// A version-1 file of `n` bytes sealed and opened, reader to writer.
fn v1_round_trip(scheme: Scheme, n: usize) -> Case {
    Case::new(format!("version 1 seal/open {} {n} bytes, reader to writer", scheme.name()), move || {
        // The chunks run on rayon's global pool: 64 KiB stacks there too.
        rayon::ThreadPoolBuilder::new().stack_size(LIMIT).build_global().expect("the global pool");
        let plain: Vec<u8> = (0..n).map(|i| i as u8).collect();
        let options = SealOptions { scheme, ..SealOptions::default() };
        let prefix = vec![7u8; scheme.nonce_len() - 5];
        let mut file = Vec::new();
        hazmat::seal_v1_with_prefix(plain.as_slice(), &mut file, &[7u8; 16], &options, &prefix).expect("seal");
        let key = SymmetricKey::from_bytes(&[7u8; 16]).unwrap();
        let mut back = Vec::new();
        open(file.as_slice(), &mut back, &[&key], &OpenOptions::default()).expect("open");
        assert!(back == plain);
    })
}

#[test]
fn version_1_files_fit_64_kib_of_stack() {
    let mut cases = Vec::new();
    for n in [1_000_000, 10_000_000] {
        cases.push(v1_round_trip(Scheme::M1, n));
    }
    cases.push(v1_round_trip(Scheme::M5, 1_000_000));
    check("version_1_files_fit_64_kib_of_stack", cases);
}
