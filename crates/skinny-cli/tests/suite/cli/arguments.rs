//! Arguments as clap takes them: ranges refused with exit 2, the edges
//! accepted, version, help and completions, and reduced rounds.

use crate::common;

use common::{assert_ok, bytes, run, stderr};

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
