//! `skinny encrypt`/`decrypt`, `selftest` and `info` end to end, as a user runs
//! them: results against the library and the specification's vectors, every
//! variant and mode, files, stdin/stdout and `-`, each key form.

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
    let text = include_str!("../../data/skinny-paper.txt");
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

#[test]
fn selftest_passes_and_reports_each_backend() {
    let o = run(&["selftest", "--rounds", "2", "--max-bytes", "5000"], b"");
    assert_ok(&o, "selftest");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("spec vectors: 6/6 ok"), "{out}");
    // The schemes the README recommends (`seal`, `hash`): their known answers
    // on every path, the many-message engine's too.
    for line in [
        "aead known answers (Romulus-N/-M/-T, SKINNY-AEAD M1-M6, single messages): 324/324 ok",
        "hash known answers (Romulus-H, SKINNY-tk2-Hash, SKINNY-tk3-Hash): 36/36 ok",
        "romulus known answers, single-block path portable-u64: 108/108 ok",
        "many-message engine, portable-u64 path, with lockstep groups: 288/288 ok",
        "many-message engine, portable-u64 path, lanes only: 288/288 ok",
    ] {
        assert!(out.contains(line), "missing {line}: {out}");
    }
    assert!(out.lines().any(|l| l.starts_with("cpu: ") && l.contains(" 0 mismatches")), "{out}");
    for gpu in ["gpu-paper", "gpu"] {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{gpu}: ")) || l.starts_with(&format!("skip: {gpu}: "))),
            "{gpu} neither checked nor skipped: {out}"
        );
    }
    assert!(out.contains("selftest passed"), "{out}");
}

#[test]
fn info_lists_cpu_gpus_and_every_backend() {
    let o = run(&["info"], b"");
    assert_ok(&o, "info");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with(&format!("skinny {}", env!("CARGO_PKG_VERSION"))), "{out}");
    for line in [
        "cpu: ",
        "logical cores: ",
        "cpu features: ",
        "bitsliced paths: portable-u64 yes",
        "single-block paths: portable-u64 yes",
        "gpu support: ",
        "backends:",
    ] {
        assert!(out.contains(line), "missing {line}: {out}");
    }
    // Without a usable GPU, auto is described as the CPU it is, not as GPUs
    // opened in the background.
    let auto = out.lines().find(|l| l.starts_with("  auto ")).unwrap();
    if out.contains("gpus: none") {
        assert!(auto.contains("no usable GPU here") && !auto.contains("opened in the background"), "{auto}");
    }
    assert!(out.contains("gpu") && (out.contains("gpus: none") || out.contains("gpu 0: ")), "{out}");
    for b in ["auto", "cpu-serial", "cpu", "gpu-paper", "gpu"] {
        assert!(out.lines().any(|l| l.starts_with(&format!("  {b} "))), "backend {b} missing: {out}");
    }
    // Backend lines are the indented ones under "backends:".
    let paper = out.lines().find(|l| l.starts_with("  gpu-paper ")).unwrap();
    assert!(paper.contains("NOT constant time"), "{paper}");
    let cpu = out.lines().find(|l| l.starts_with("  cpu ")).unwrap();
    assert!(cpu.contains("usable") && cpu.contains("constant time"), "{cpu}");
}

/// Runs `skinny args...` with stdout a pipe whose reading end is closed (as
/// `| head -c1` does once it has its byte).
fn with_reader_gone(args: &[&str]) -> std::process::Output {
    common::skinny()
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(common::reader_gone())
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run skinny")
}

/// Runs `skinny args...` with stdout on /dev/full: every write fails with ENOSPC.
fn with_stdout_full(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    common::skinny().args(args).stdin(std::process::Stdio::null()).stdout(full).output().expect("run skinny")
}

/// The report commands, kept small and fast.
const REPORTS: [&[&str]; 5] = [
    &["info"],
    &["selftest", "--rounds", "0", "--max-bytes", "64"],
    &["bench", "--backends", "cpu-serial", "--modes", "ecb", "--sizes", "16", "--runs", "1", "--min-run-ms", "0", "-q"],
    &["completions", "bash"],
    &["hash"],
];

#[test]
fn a_reader_that_goes_away_is_one_line_and_exit_1() {
    for args in REPORTS {
        let o = with_reader_gone(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(
            stderr(&o),
            "skinny: cannot write output: the reader of stdout went away (broken pipe); the output is incomplete\n",
            "{args:?}"
        );
    }
}

#[test]
fn a_full_stdout_is_one_line_and_exit_1() {
    for args in REPORTS {
        let o = with_stdout_full(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "skinny: cannot write output: No space left on device\n", "{args:?}");
    }
}

#[test]
fn bench_writes_its_files_even_when_stdout_fails() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let csv = dir.path().join("r.csv");
    let mut args: Vec<&str> = REPORTS[2].to_vec();
    let (j, c) = (json.to_str().unwrap(), csv.to_str().unwrap());
    args.extend(["--json", j, "--csv", c]);
    let o = with_stdout_full(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&json).unwrap().contains("\"records\""));
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 2);
    std::fs::remove_file(&json).unwrap();
    let o = with_reader_gone(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("broken pipe"), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&json).unwrap().contains("\"records\""));
    assert_eq!(common::listing(dir.path()), ["r.csv", "r.json"]);
}

/// A refusal by clap: exit 2, its message naming the option, nothing on stdout.
fn refused(args: &[&str], expect: &str) {
    let o = run(args, b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: ") && err.contains(expect), "{args:?}: expected '{expect}' in: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
}

#[test]
fn numbers_out_of_range_are_refused_with_exit_2() {
    let key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    for n in ["0", "1025", "5000", "-1", "many"] {
        // `--opt=VALUE`, so that a negative number is not taken for an option.
        let threads = format!("--threads={n}");
        let expect = format!("invalid value '{n}' for '--threads <N>'");
        refused(&["encrypt", "-m", "ecb", "-K", key, &threads], &expect);
        refused(&["bench", "--sizes", "16", &threads], &expect);
    }
    for n in ["0", "1001"] {
        refused(&["bench", "--sizes", "16", "--runs", n], &format!("invalid value '{n}' for '--runs <N>'"));
    }
    for x in ["-1", "86401", "inf", "nan"] {
        refused(&["bench", &format!("--max-time-per-size={x}")], "expected a number from 0 to 86400");
    }
    for x in ["-0.5", "10001", "inf", "nan"] {
        refused(&["bench", &format!("--min-run-ms={x}")], "expected a number from 0 to 10000");
    }
    refused(&["selftest", "--rounds", "1001"], "1001 is not in 0..=1000");
    refused(&["selftest", "--rounds=-1"], "invalid value '-1' for '--rounds <N>'");
    refused(&["selftest", "--max-bytes", "268435457"], "268435457 is not in 0..=268435456");
    refused(&["selftest", "--max-bytes", "18446744073709551615"], "is not in 0..=268435456");
}

#[test]
fn in_range_edges_are_accepted() {
    // The most threads: a real run, which must stay quick.
    let key = hex::encode(bytes(1, 32));
    let o = run(&["encrypt", "-q", "-m", "ecb", "-b", "cpu", "--threads", "1024", "-K", &key], b"edge");
    assert_ok(&o, "--threads 1024");
    assert_eq!(o.stdout.len(), 16);
    // Every bench bound at once: clap accepts them, and the run stops at the
    // command's own check of --sizes (one line), before anything is timed.
    let o = run(
        &[
            "bench",
            "--threads",
            "1024",
            "--runs",
            "1000",
            "--max-time-per-size",
            "86400",
            "--min-run-ms",
            "10000",
            "--sizes",
            "8",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("skinny: ") && stderr(&o).contains("16-byte blocks"), "{}", stderr(&o));
    let o = run(&["selftest", "--rounds", "0", "--max-bytes", "0"], b"");
    assert_ok(&o, "selftest at the lower bounds");
}

#[test]
fn version_names_the_commit() {
    let o = run(&["--version"], b"");
    assert_ok(&o, "--version");
    let out = String::from_utf8_lossy(&o.stdout);
    let prefix = format!("skinny {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(out.starts_with(&prefix) && out.trim_end().ends_with(')'), "{out}");
    let commit = &out.trim_end()[prefix.len()..out.trim_end().len() - 1];
    assert!(commit == "unknown" || commit.chars().all(|c| c.is_ascii_hexdigit()), "{out}");
}

#[test]
fn help_shows_examples_and_the_accepted_names() {
    for (cmd, example) in
        [("encrypt", "skinny encrypt -K"), ("decrypt", "skinny decrypt -K"), ("bench", "skinny bench --paper")]
    {
        let o = run(&[cmd, "--help"], b"");
        assert_ok(&o, cmd);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("Examples:") && out.contains(example), "{cmd}: {out}");
    }
    // Help is wrapped to the terminal's width: compare with blanks collapsed.
    let flat =
        |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    let out = flat(&run(&["encrypt", "-h"], b""));
    for names in ["skinny-64-64, skinny-64-128", "ecb, ctr, cbc, cfb, ofb", "auto, cpu-serial, cpu, gpu-paper, gpu"] {
        assert!(out.contains(names), "{names}: {out}");
    }
    let out = flat(&run(&["bench", "-h"], b""));
    assert!(out.contains("[possible values: ecb, ctr]"), "{out}");
    assert!(out.contains("[possible values: cpu-serial, cpu, gpu-paper, gpu]"), "{out}");
}

#[test]
fn completions_for_bash_know_the_subcommands() {
    let o = run(&["completions", "bash"], b"");
    assert_ok(&o, "completions bash");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("encrypt") && out.contains("selftest") && out.contains("hash"), "{out}");
    for shell in ["zsh", "fish"] {
        let o = run(&["completions", shell], b"");
        assert_ok(&o, shell);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("encrypt") && out.contains("hash"), "{shell}");
    }
    refused(&["completions", "cmd.exe"], "invalid value 'cmd.exe'");
}

#[test]
fn reduced_rounds_are_an_expert_option_with_a_warning() {
    let key = bytes(11, 32);
    let iv = bytes(12, 16);
    let (k, i) = (hex::encode(&key), hex::encode(&iv));
    let data = bytes(13, 10_000);
    // 7 rounds: the library's 7-round cipher, CTR by hand.
    let c = skinny::Skinny::with_rounds(skinny::Variant::Skinny128_256, &key, 7).unwrap();
    let mut want = data.clone();
    let start = u128::from_be_bytes(iv.clone().try_into().unwrap());
    for (n, block) in want.chunks_mut(16).enumerate() {
        let mut ks = start.wrapping_add(n as u128).to_be_bytes();
        c.encrypt_block(&mut ks);
        block.iter_mut().zip(ks).for_each(|(d, k)| *d ^= k);
    }
    let o = run(&["encrypt", "--rounds", "7", "-K", &k, "--iv", &i], &data);
    assert_ok(&o, "--rounds 7");
    assert_eq!(o.stdout, want, "7-round CTR");
    assert!(stderr(&o).contains("reduced-round SKINNY is insecure"), "{}", stderr(&o));
    // -q silences the warning; the full count is the default cipher, unwarned.
    let o = run(&["encrypt", "-q", "--rounds", "7", "-K", &k, "--iv", &i], &data);
    assert_ok(&o, "-q --rounds 7");
    assert!(o.stderr.is_empty());
    let full = run(&["encrypt", "--rounds", "48", "-K", &k, "--iv", &i], &data);
    let default = run(&["encrypt", "-K", &k, "--iv", &i], &data);
    assert_eq!(full.stdout, default.stdout);
    assert!(full.stderr.is_empty(), "{}", stderr(&full));
    // Beyond the variant's count, or 0: refused, exit 2.
    for bad in ["49", "0", "57"] {
        let o = run(&["encrypt", "--rounds", bad, "-K", &k, "--iv", &i], &data);
        assert_eq!(o.status.code(), Some(2), "--rounds {bad}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    // Decryption with the same count gives the plaintext back.
    let o = run(&["decrypt", "-q", "--rounds", "7", "-K", &k, "--iv", &i], &want);
    assert_eq!(o.stdout, data);
}
