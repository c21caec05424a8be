//! The cases: which command, its files in the case folder, and its argv.

use crate::gen::{hex_of, key_arg, key_file, value, Rng};
use skinny_seal::{hazmat, Scheme, SealOptions};
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

/// One generated run of `skinny`.
pub struct Case {
    pub command: &'static str,
    pub argv: Vec<OsString>,
    /// The declared output (`-o`), relative to the case folder.
    pub output: Option<String>,
    /// Whether the command promises to leave no output on failure.
    pub writes: bool,
    /// The keys given, in lowercase hex: never to be printed.
    pub keys: Vec<String>,
    /// The files made for the case.
    pub inputs: Vec<String>,
}

const CIPHERS: [(&str, usize); 8] = [
    ("skinny-64-64", 8),
    ("skinny-64-128", 16),
    ("skinny-64-192", 24),
    ("skinny-128-128", 16),
    ("skinny-128-256", 32),
    ("skinny-128-384", 48),
    ("SKINNY_128_256", 32),
    ("skinny-256", 16),
];
const THREADS: [&str; 4] = ["1", "2", "0", "64"];
const GPUS: [&str; 4] = ["all", "0", "1", "0,1"];
const PATHS: [&str; 6] = ["in", "sealed", "missing", ".", "key", "-"];

pub fn make_case(r: &mut Rng, dir: &Path) -> Case {
    let command = *r.pick(&[
        "seal",
        "open",
        "encrypt",
        "decrypt",
        "hash",
        "lab merge",
        "lab differential",
        "lab boomerang",
        "completions",
        "info",
    ]);
    let (cipher, key_bytes) = *r.pick(&CIPHERS);
    let want = if matches!(command, "encrypt" | "decrypt") { key_bytes } else { 16 };
    let key = r.bytes(want);
    let plain_len = *r.pick(&[0usize, 1, 15, 16, 17, 100, 2000]);
    let plain = r.bytes(plain_len);
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).expect("a case file");
    write("in", &plain);
    write("key", &key_file(r, &key));
    write("sealed", &sealed_file(r, &key, &plain));
    write("r1.json", report(r).as_bytes());
    write("r2.json", report(r).as_bytes());
    let mut c = Case {
        command,
        argv: command.split(' ').map(OsString::from).collect(),
        output: None,
        writes: matches!(command, "seal" | "open" | "encrypt" | "decrypt"),
        keys: vec![hex_of(&key)],
        inputs: ["in", "key", "sealed", "r1.json", "r2.json"].map(String::from).to_vec(),
    };
    let flag = |c: &mut Case, r: &mut Rng, percent: usize, name: &str, likely: &[&str]| {
        if r.chance(percent) {
            c.argv.push(name.into());
            c.argv.push(value(r, likely));
        }
    };
    if c.writes {
        key_args(&mut c, r, &key);
        if r.chance(85) {
            c.argv.push((*r.pick(&PATHS)).into());
        }
        if r.chance(70) {
            let o = *r.pick(&["out", "out", "in", "sub/out", ".", "key"]);
            c.argv.push(if r.chance(50) { "-o" } else { "--output" }.into());
            c.argv.push(o.into());
            c.output = Some(o.to_string());
        }
        for f in ["--force", "-q", "-v"] {
            if r.chance(15) {
                c.argv.push(f.into());
            }
        }
        flag(&mut c, r, 15, "--threads", &THREADS);
        flag(&mut c, r, 10, "--gpus", &GPUS);
    }
    match command {
        "seal" | "open" => {
            if command == "seal" {
                flag(&mut c, r, 40, "--member", &["m1", "m2", "m3", "m4", "M5", "m6", "m7"]);
                flag(
                    &mut c,
                    r,
                    40,
                    "--chunk-size",
                    &["16", "64K", "1M", "15", "17", "16M", "32M", "64k", "1.5K", "1KiB"],
                );
            }
            flag(&mut c, r, 30, "-b", &["cpu", "gpu", "auto", "CPU"]);
        }
        "encrypt" | "decrypt" => {
            flag(&mut c, r, 70, "-c", &[cipher]);
            flag(&mut c, r, 60, "-m", &["ctr", "cbc", "ecb", "cfb", "ofb", "gcm"]);
            if r.chance(70) {
                c.argv.push("--iv".into());
                let iv_len = *r.pick(&[8usize, 16, 7, 17, 0]);
                let iv = r.bytes(iv_len);
                c.argv.push(hex_of(&iv).into());
            }
            if r.chance(20) {
                c.argv.push("--no-pad".into());
            }
            flag(&mut c, r, 30, "-b", &["cpu", "cpu-serial", "gpu", "auto"]);
        }
        "hash" => {
            flag(&mut c, r, 50, "-a", &["romulus-h", "skinny-tk2-hash", "skinny-tk3-hash", "sha256"]);
            if r.chance(20) {
                c.argv.push("-c".into());
            }
            for _ in 0..r.below(3) {
                c.argv.push((*r.pick(&PATHS)).into());
            }
        }
        "lab merge" => {
            for _ in 0..r.below(4) {
                c.argv.push((*r.pick(&["r1.json", "r2.json", "r1.json", "in", "missing"])).into());
            }
            if r.chance(50) {
                c.argv.push("--json".into());
            }
        }
        "lab differential" | "lab boomerang" => {
            flag(&mut c, r, 80, "-c", &[cipher]);
            flag(&mut c, r, 98, "--rounds", &["1", "2", "3", "40", "100"]);
            flag(&mut c, r, 98, "--dp", &["0000000000000001", "00000000000000000000000000000001", "01"]);
            flag(&mut c, r, 98, "--dc", &["0000000000000001", "00000000000000000000000000000001", "zz"]);
            flag(&mut c, r, 98, "--queries", &["1", "100", "1000", "5000", "1K"]);
            flag(&mut c, r, 30, "--key-every", &["1", "7", "4096"]);
            flag(&mut c, r, 30, "--seed", &["0", "1", "18446744073709551615"]);
            flag(&mut c, r, 30, "--shard", &["0/1", "1/2", "2/2", "0/0", "3/1"]);
            flag(&mut c, r, 30, "--show", &["0", "1", "5", "4294967296"]);
            flag(&mut c, r, 20, "--threads", &THREADS);
            flag(&mut c, r, 30, "-b", &["cpu", "gpu", "auto"]);
            let diffs = ["00", "0000000000000000", "00000000000000000000000000000000"];
            if command == "lab differential" {
                flag(&mut c, r, 20, "--dk", &diffs);
                flag(&mut c, r, 20, "--dc-mask", &["ff", "00000000000f0000", "ffffffffffffffff"]);
            } else {
                flag(&mut c, r, 20, "--dk1", &diffs);
                flag(&mut c, r, 20, "--dk2", &diffs);
            }
            if r.chance(50) {
                c.argv.push("--json".into());
            }
        }
        "completions" => c.argv.push(value(r, &["bash", "zsh", "fish", "powershell", "elvish", "nu"])),
        _ => {}
    }
    // Now and then something out of place: a stray word, a repeated option.
    if r.chance(10) {
        let at = r.below(c.argv.len()) + 1;
        c.argv.insert(at, value(r, &["--key", "-K", "--help", "--version", "-o", "--key-file", "--", "-x"]));
    }
    if r.chance(5) && c.argv.len() > 2 {
        let w = c.argv[r.below(c.argv.len())].clone();
        c.argv.push(w);
    }
    // An argument cannot hold a NUL byte (the C strings of exec).
    for a in &mut c.argv {
        if a.as_bytes().contains(&0) {
            *a = OsString::from_vec(a.as_bytes().iter().map(|&b| b.max(1)).collect());
        }
    }
    c
}

/// `-K`, `--key`, `--key-file` (to the key file or elsewhere), both, or neither.
fn key_args(c: &mut Case, r: &mut Rng, key: &[u8]) {
    let file = |r: &mut Rng| *r.pick(&["key", "key", "key", "missing", ".", "/dev/null", "in"]);
    match r.below(8) {
        0..=3 => {
            c.argv.push("--key-file".into());
            c.argv.push(file(r).into());
        }
        4 | 5 => {
            c.argv.push(if r.chance(50) { "-K" } else { "--key" }.into());
            c.argv.push(key_arg(r, key));
        }
        6 => {
            c.argv.extend(["--key-file".into(), file(r).into(), "-K".into(), key_arg(r, key)]);
        }
        _ => {}
    }
}

/// `plain` sealed under `key` as a version-1 file (a random member, chunk size
/// and prefix), sometimes changed or cut.
fn sealed_file(r: &mut Rng, key: &[u8], plain: &[u8]) -> Vec<u8> {
    let Ok(k) = <[u8; 16]>::try_from(key) else { return r.bytes(40) };
    let members = [Scheme::M1, Scheme::M2, Scheme::M3, Scheme::M4, Scheme::M5, Scheme::M6];
    let scheme = *r.pick(&members);
    let options = SealOptions { scheme, chunk_log2: *r.pick(&[4u8, 6, 16]), ..SealOptions::default() };
    let prefix = r.bytes(scheme.nonce_len() - 5);
    let mut file = Vec::new();
    hazmat::seal_v1_with_prefix(plain, &mut file, &k, &options, &prefix).expect("sealing to memory");
    match r.below(4) {
        0 => {
            let at = r.below(file.len());
            file[at] ^= 1 << r.below(8);
        }
        1 => file.truncate(r.below(file.len())),
        _ => {}
    }
    file
}

/// A lab report as `skinny lab --json` writes one, with some fields odd.
fn report(r: &mut Rng) -> String {
    let n = |r: &mut Rng| *r.pick(&["0", "1", "3", "4000", "18446744073709551615", "-1", "1e400", "null"]);
    let shard = *r.pick(&["0/3", "1/3", "2/3", "0/1", "3/3", "0/0", "x"]);
    let shards = *r.pick(&["[0]", "[1]", "[2]", "[]", "[0,0]", "[5]"]);
    format!(
        concat!(
            r#"{{"experiment":"{}","cipher":"skinny-64-128","rounds":{},"dp":"1000000000000000","#,
            r#""dc":"0000000100000000","dk":"00000000000000000000000000000000","dc_mask":"00000000000f0000","#,
            r#""queries":{},"queries_total":{},"key_every":{},"seed":3,"shard":"{}","shards":{},"#,
            r#""complete":false,"interrupted":{},"hits":{},"log2_p":null,"ci95":[null,null],"seconds":{},"#,
            r#""rate_per_s":0.0,"backend":"cpu","version":"v","threads":1,"show":{},"right":[]}}"#
        ),
        r.pick(&["differential", "boomerang", "other"]),
        n(r),
        n(r),
        n(r),
        n(r),
        shard,
        shards,
        r.pick(&["false", "true"]),
        n(r),
        n(r),
        n(r),
    )
}
