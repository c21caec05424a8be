//! `skinny encrypt`/`decrypt`, `selftest` and `info` end to end, as a user runs
//! them: results against the library and the specification's vectors, every
//! variant and mode, files, stdin/stdout and `-`, each key form.

mod arguments;
mod reports;

use crate::common;

use common::{assert_ok, bytes, library, run, run_in, stderr};
use skinny::Variant;
use skinny_bulk::mode::{Direction, Mode};

/// (mode, PKCS#7 padding) pairs the CLI offers.
const MODES: [(Mode, bool); 7] = [
    (Mode::Ecb, true),
    (Mode::Ecb, false),
    (Mode::Cbc, true),
    (Mode::Cbc, false),
    (Mode::Ctr, false),
    (Mode::Cfb, false),
    (Mode::Ofb, false),
];

fn args_for<'a>(variant: Variant, mode: Mode, pad: bool, key: &'a str, iv: &'a str, backend: &'a str) -> Vec<String> {
    let mut a = vec![
        "-c".into(),
        variant.name().into(),
        "-m".into(),
        mode.name().into(),
        "-K".into(),
        key.into(),
        "-b".into(),
        backend.into(),
    ];
    if mode.needs_iv() {
        a.extend(["--iv".into(), iv.into()]);
    }
    if !pad && mode.is_block_mode() {
        a.push("--no-pad".into());
    }
    a
}

#[test]
fn every_variant_and_mode_round_trips_and_matches_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 1;
    for variant in Variant::ALL {
        let block = variant.block_bytes();
        for (mode, pad) in MODES {
            let lengths = if mode.is_block_mode() && !pad {
                vec![0, block, 5 * block]
            } else {
                vec![0, 1, block - 1, block + 1, 3 * block + 5]
            };
            for len in lengths {
                seed += 1;
                let key = bytes(seed, variant.tweakey_bytes());
                let iv = bytes(seed + 1000, block);
                let plain = bytes(seed + 2000, len);
                let (key_hex, iv_hex) = (hex::encode(&key), hex::encode(&iv));
                // Alternate backends: the CLI must agree with the library on each.
                let backend = ["cpu", "cpu-serial", "auto"][seed as usize % 3];
                let base = args_for(variant, mode, pad, &key_hex, &iv_hex, backend);
                let what = format!("{variant} {mode} pad={pad} len={len} -b {backend}");

                let pt_path = dir.path().join("pt");
                let ct_path = dir.path().join("ct");
                let back_path = dir.path().join("back");
                std::fs::write(&pt_path, &plain).unwrap();
                let mut enc: Vec<String> = vec!["encrypt".into(), "-q".into()];
                enc.extend(base.iter().cloned());
                enc.extend([
                    pt_path.to_string_lossy().into_owned(),
                    "-o".into(),
                    ct_path.to_string_lossy().into_owned(),
                ]);
                let o = run(&enc.iter().map(String::as_str).collect::<Vec<_>>(), b"");
                assert_ok(&o, &what);
                let ct = std::fs::read(&ct_path).unwrap();
                let iv_opt = mode.needs_iv().then_some(iv.as_slice());
                let want = library(variant, mode, Direction::Encrypt, &key, iv_opt, pad, &plain).unwrap();
                assert_eq!(ct, want, "{what}: ciphertext differs from the library's");
                if mode.is_block_mode() && pad {
                    assert_eq!(ct.len(), (len / block + 1) * block, "{what}: padded length");
                } else {
                    assert_eq!(ct.len(), len, "{what}: length");
                }

                let mut dec: Vec<String> = vec!["decrypt".into(), "-q".into()];
                dec.extend(base.iter().cloned());
                dec.extend([
                    ct_path.to_string_lossy().into_owned(),
                    "-o".into(),
                    back_path.to_string_lossy().into_owned(),
                ]);
                let o = run(&dec.iter().map(String::as_str).collect::<Vec<_>>(), b"");
                assert_ok(&o, &what);
                assert_eq!(std::fs::read(&back_path).unwrap(), plain, "{what}: round trip");
            }
        }
    }
}

/// One specification vector: variant, tweakey, plaintext, ciphertext.
type Vector = (Variant, Vec<u8>, Vec<u8>, Vec<u8>);

/// The specification's vectors, from the cipher crate's data file.
fn spec_vectors() -> Vec<Vector> {
    let text = include_str!("../../../data/skinny-paper.txt");
    let vs: Vec<_> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].parse().unwrap(), hex::decode(f[1]).unwrap(), hex::decode(f[2]).unwrap(), hex::decode(f[3]).unwrap())
        })
        .collect();
    assert_eq!(vs.len(), 6);
    vs
}

#[test]
fn ecb_without_padding_gives_the_specification_vectors() {
    for (variant, key, pt, ct) in spec_vectors() {
        for backend in ["cpu-serial", "cpu", "auto"] {
            let k = hex::encode(&key);
            let args = ["encrypt", "-q", "-m", "ecb", "--no-pad", "-c", variant.name(), "-K", &k, "-b", backend];
            let o = run(&args, &pt);
            assert_ok(&o, variant.name());
            assert_eq!(o.stdout, ct, "{variant} encrypt on {backend}");
            let mut args = args;
            args[0] = "decrypt";
            let o = run(&args, &ct);
            assert_ok(&o, variant.name());
            assert_eq!(o.stdout, pt, "{variant} decrypt on {backend}");
        }
    }
}

#[test]
fn stdin_stdout_and_dash_are_the_same_as_files() {
    let dir = tempfile::tempdir().unwrap();
    let key = hex::encode(bytes(7, 32));
    let iv = hex::encode(bytes(8, 16));
    let plain = bytes(9, 100_003);
    std::fs::write(dir.path().join("pt"), &plain).unwrap();
    let want = library(
        Variant::Skinny128_256,
        Mode::Ctr,
        Direction::Encrypt,
        &bytes(7, 32),
        Some(&bytes(8, 16)),
        false,
        &plain,
    )
    .unwrap();

    // Defaults: skinny-128-256, CTR; stdin to stdout.
    let o = run(&["encrypt", "-K", &key, "--iv", &iv, "-q"], &plain);
    assert_ok(&o, "stdin to stdout");
    assert_eq!(o.stdout, want);
    // `-` for both.
    let o = run(&["encrypt", "-K", &key, "--iv", &iv, "-q", "-", "-o", "-"], &plain);
    assert_ok(&o, "- to -");
    assert_eq!(o.stdout, want);
    // A relative file name in the working directory, to stdout.
    let o = run_in(Some(dir.path()), &["encrypt", "-K", &key, "--iv", &iv, "-q", "pt"], b"");
    assert_ok(&o, "file to stdout");
    assert_eq!(o.stdout, want);
    // stdin to a relative output file, then decrypt it back through stdout.
    let o = run_in(Some(dir.path()), &["encrypt", "-K", &key, "--iv", &iv, "-q", "-o", "ct"], &plain);
    assert_ok(&o, "stdin to file");
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read(dir.path().join("ct")).unwrap(), want);
    let o = run_in(Some(dir.path()), &["decrypt", "-K", &key, "--iv", &iv, "-q", "ct"], b"");
    assert_ok(&o, "decrypt file to stdout");
    assert_eq!(o.stdout, plain);
}

#[test]
fn output_to_a_special_file_is_written_through() {
    let key = hex::encode(bytes(1, 32));
    let o = run(&["encrypt", "-m", "ecb", "-K", &key, "-o", "/dev/null"], b"hello");
    assert_ok(&o, "to /dev/null");
}

#[test]
fn replacing_an_existing_output_keeps_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let key = hex::encode(bytes(1, 16));
    std::fs::write(dir.path().join("out"), b"old content").unwrap();
    let o =
        run_in(Some(dir.path()), &["encrypt", "-c", "skinny-128-128", "-m", "ecb", "-K", &key, "-o", "out"], b"new");
    assert_ok(&o, "replace");
    let want =
        library(Variant::Skinny128_128, Mode::Ecb, Direction::Encrypt, &bytes(1, 16), None, true, b"new").unwrap();
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), want);
    assert_eq!(common::listing(dir.path()), ["out"]);
}

#[test]
fn key_file_holds_hex_or_raw_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for variant in Variant::ALL {
        let key = bytes(variant.tweakey_bytes() as u64, variant.tweakey_bytes());
        let iv = hex::encode(bytes(3, variant.block_bytes()));
        let plain = bytes(4, 77);
        let want =
            library(variant, Mode::Cbc, Direction::Encrypt, &key, Some(&bytes(3, variant.block_bytes())), true, &plain)
                .unwrap();
        let forms: [(&str, Vec<u8>); 3] = [
            ("hex", format!("{}\n", hex::encode(&key)).into_bytes()),
            ("hex-upper-spaced", format!("  {}  \r\n", hex::encode_upper(&key)).into_bytes()),
            ("raw", key.clone()),
        ];
        for (form, content) in forms {
            let path = dir.path().join(form);
            std::fs::write(&path, content).unwrap();
            let p = path.to_string_lossy().into_owned();
            let o = run(&["encrypt", "-q", "-c", variant.name(), "-m", "cbc", "--key-file", &p, "--iv", &iv], &plain);
            assert_ok(&o, form);
            assert_eq!(o.stdout, want, "{variant} key file {form}");
        }
    }
}

#[test]
fn auto_is_silent_unless_asked_and_says_what_ran_with_verbose() {
    let key = hex::encode(bytes(1, 32));
    let iv = hex::encode(bytes(2, 16));
    // 2 MiB: far too little to repay opening a GPU, so auto stays on the CPU,
    // with or without a GPU on this machine, and says nothing.
    let big = bytes(3, 2 << 20);
    let want = run(&["encrypt", "-b", "cpu", "-K", &key, "--iv", &iv], &big);
    assert_ok(&want, "cpu");
    let o = run(&["encrypt", "-K", &key, "--iv", &iv], &big);
    assert_ok(&o, "auto");
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    assert_eq!(o.stdout, want.stdout, "auto and cpu agree");
    // -v: one line naming the engine.
    let o = run(&["encrypt", "-v", "-K", &key, "--iv", &iv], &big);
    assert_ok(&o, "auto -v");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    let n = 2 << 20;
    assert!(
        err.starts_with(&format!("skinny: {n} bytes through ctr encryption: auto: {n} bytes on the cpu, 0 on the gpu")),
        "{err}"
    );
    // A serial mode has no engine, and says so.
    let o = run(&["encrypt", "-v", "-m", "ofb", "-K", &key, "--iv", &iv], b"some data");
    assert_ok(&o, "ofb -v");
    assert!(stderr(&o).contains("block after block"), "{}", stderr(&o));
    // Small files stay silent too.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("small"), b"small").unwrap();
    let o = run_in(Some(dir.path()), &["encrypt", "-K", &key, "--iv", &iv, "small"], b"");
    assert_ok(&o, "auto small file");
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}
