//! `skinny bench` end to end: tiny sizes and two runs, so it stays fast. Checks
//! the tables, the CSV and JSON fields (JSON parsed by a small parser below), the
//! SVG's shape, skipping of backends that cannot run here, and refusals.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

fn skinny(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skinny")).args(args).output().expect("run skinny")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const REQUIRED: [&str; 12] = [
    "variant",
    "mode",
    "backend",
    "timing",
    "bytes",
    "runs",
    "mean_ms",
    "median_ms",
    "min_ms",
    "gbps",
    "speedup_vs_cpu_serial",
    "efficiency_vs_cpu_serial",
];

#[test]
fn cpu_run_prints_tables_and_writes_csv_json_svg() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, json, svg) = (dir.path().join("r.csv"), dir.path().join("r.json"), dir.path().join("r.svg"));
    let out = skinny(&[
        "bench",
        "--paper",
        "--backends",
        "cpu-serial,cpu",
        "--sizes",
        "16..64",
        "--runs",
        "2",
        "--min-run-ms",
        "0.2",
        "-q",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {}", text(&out.stderr));

    // Header and one paper-style table per mode.
    assert!(stdout.contains("skinny bench: skinny "), "{stdout}");
    assert!(stdout.contains("CPU: ") && stdout.contains("GPU: "), "{stdout}");
    assert!(stdout.contains("Cipher skinny-128-256; modes ecb, ctr"), "{stdout}");
    for mode in ["ECB", "CTR"] {
        assert!(stdout.contains(&format!("{mode} encrypt, skinny-128-256: cpu against cpu-serial")), "{stdout}");
    }
    assert_eq!(stdout.matches("\nSize ").count(), 2, "{stdout}");
    for size in ["16 B", "32 B", "64 B"] {
        assert_eq!(stdout.lines().filter(|l| l.starts_with(size)).count(), 2, "{size}: {stdout}");
    }
    assert!(stdout.contains("E vs cpu-serial") && stdout.contains("S vs cpu-serial") && stdout.contains("cpu Gb/s"));

    // CSV: header + 2 modes x 3 sizes x 2 backends.
    let csv = std::fs::read_to_string(&csv).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    for f in REQUIRED {
        assert!(head.contains(&f), "CSV lacks {f}: {head:?}");
    }
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 12);
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    for r in &rows {
        assert_eq!(r.len(), head.len(), "{r:?}");
        assert_eq!(r[col("runs")], "2");
        assert_eq!(r[col("timing")], "end-to-end");
        let median: f64 = r[col("median_ms")].parse().unwrap();
        let gbps: f64 = r[col("gbps")].parse().unwrap();
        let bytes: f64 = r[col("bytes")].parse().unwrap();
        assert!(median > 0.0 && (gbps - bytes * 8.0 / 1e9 / (median / 1e3)).abs() <= 1e-9 * gbps.max(1.0));
        // The cpu rows carry a speed-up against cpu-serial; cpu-serial's own is empty.
        let su = r[col("speedup_vs_cpu_serial")];
        assert_eq!(su.is_empty(), r[col("backend")] == "cpu-serial", "{r:?}");
    }

    // JSON: parses, with one record per mode, backend and size.
    let json = std::fs::read_to_string(&json).unwrap();
    let v = json::parse(&json).unwrap_or_else(|e| panic!("bad JSON ({e}): {json}"));
    let obj = v.obj();
    assert_eq!(obj["tool"].str(), "skinny bench");
    assert!(obj.contains_key("commit") && obj.contains_key("cpu") && obj.contains_key("gpus"));
    assert_eq!(obj["gpu_found"].bool(), !stdout.contains("GPU: none"));
    let recs = obj["records"].arr();
    assert_eq!(recs.len(), 12);
    for r in recs {
        let r = r.obj();
        for f in REQUIRED {
            assert!(r.contains_key(f), "record lacks {f}");
        }
        assert_eq!(r["runs"].num(), 2.0);
        assert_eq!(r["times_ms"].arr().len(), 2);
        assert!(["cpu-serial", "cpu"].contains(&r["backend"].str()));
        assert!([16.0, 32.0, 64.0].contains(&r["bytes"].num()));
    }

    // SVG: one chart per mode, one path per series (2 backends) in each.
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<path class=\"series\"").count(), 4, "{svg}");
    assert_eq!(svg.matches("<g class=\"chart\">").count(), 2);
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    assert!(svg.contains("Throughput (Gb/s") && svg.contains("Data size"));
}

#[test]
fn unusable_backend_is_skipped_visibly() {
    let out = skinny(&[
        "bench",
        "--backends",
        "cpu,gpu,gpu-paper",
        "--sizes",
        "32",
        "--runs",
        "2",
        "--min-run-ms",
        "0.1",
        "--modes",
        "ctr",
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Without a GPU both GPU backends are skipped with one line each (with one
    // they run, and the table shows them instead).
    let gpu_found = !text(&out.stdout).contains("GPU: none");
    if !gpu_found {
        assert_eq!(stderr.lines().filter(|l| l.starts_with("skinny: bench: skipping gpu")).count(), 2, "{stderr}");
        assert!(text(&out.stdout).contains("Skipped gpu:"));
    }
    assert!(text(&out.stdout).contains("CTR encrypt, skinny-128-256: cpu"));
}

#[test]
fn every_backend_unusable_is_an_error() {
    // gpu-paper runs only SKINNY-128-256, so with another variant it cannot run
    // anywhere: the run fails with one line, whatever the machine.
    let out = skinny(&["bench", "-c", "skinny-64-128", "--backends", "gpu-paper", "--sizes", "64", "--runs", "1"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no requested backend can run here"), "{stderr}");
    assert!(stderr.lines().any(|l| l.starts_with("skinny: bench: skipping gpu-paper")), "{stderr}");
}

#[test]
fn decrypt_and_other_variants() {
    let out = skinny(&[
        "bench",
        "-c",
        "skinny-64-192",
        "--backends",
        "cpu-serial",
        "--sizes",
        "8,24",
        "--runs",
        "1",
        "--min-run-ms",
        "0.1",
        "--modes",
        "ecb",
        "--decrypt",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("ECB encrypt, skinny-64-192: cpu-serial"), "{stdout}");
    assert!(stdout.contains("ECB decrypt, skinny-64-192: cpu-serial"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("24 B")));
}

#[test]
fn bad_arguments_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("chart.png");
    let csv = dir.path().join("r.csv");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--plot".into(), png.display().to_string(), "--csv".into(), csv.display().to_string()], "SVG only"),
        (vec!["--sizes".into(), "8".into()], "whole number of 16-byte blocks"),
        (vec!["--modes".into(), "cbc".into()], "ecb and ctr"),
        (vec!["--backends".into(), "tpu".into()], "unknown backend"),
        (vec!["--runs".into(), "0".into()], "--runs"),
        (vec!["-c".into(), "skinny-128-512".into()], "unknown SKINNY variant"),
        (vec!["--json".into(), dir.path().join("no/such/dir/r.json").display().to_string()], "does not exist"),
    ];
    for (args, msg) in cases {
        let mut all = vec!["bench".to_string()];
        if !args.contains(&"--sizes".to_string()) {
            all.extend(["--sizes".to_string(), "16".into()]);
        }
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let out = skinny(&refs);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(msg), "{all:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(out.stdout.is_empty());
    }
    assert!(!Path::new(&png).exists() && !Path::new(&csv).exists());
}

/// A small JSON parser: enough to check that the output is JSON and to read it.
mod json {
    use super::BTreeMap;

    #[derive(Debug)]
    pub enum Value {
        Null,
        Bool(bool),
        Num(f64),
        Str(String),
        Arr(Vec<Value>),
        Obj(BTreeMap<String, Value>),
    }

    impl Value {
        pub fn obj(&self) -> &BTreeMap<String, Value> {
            match self {
                Value::Obj(m) => m,
                v => panic!("not an object: {v:?}"),
            }
        }
        pub fn arr(&self) -> &[Value] {
            match self {
                Value::Arr(a) => a,
                v => panic!("not an array: {v:?}"),
            }
        }
        pub fn str(&self) -> &str {
            match self {
                Value::Str(s) => s,
                v => panic!("not a string: {v:?}"),
            }
        }
        pub fn bool(&self) -> bool {
            match self {
                Value::Bool(b) => *b,
                v => panic!("not a boolean: {v:?}"),
            }
        }
        pub fn num(&self) -> f64 {
            match self {
                Value::Num(n) => *n,
                v => panic!("not a number: {v:?}"),
            }
        }
    }

    pub fn parse(s: &str) -> Result<Value, String> {
        let mut p = P { b: s.as_bytes(), i: 0 };
        let v = p.value()?;
        p.ws();
        if p.i != p.b.len() {
            return Err(format!("trailing data at {}", p.i));
        }
        Ok(v)
    }

    struct P<'a> {
        b: &'a [u8],
        i: usize,
    }

    impl P<'_> {
        fn ws(&mut self) {
            while self.i < self.b.len() && b" \t\n\r".contains(&self.b[self.i]) {
                self.i += 1;
            }
        }
        fn eat(&mut self, c: u8) -> Result<(), String> {
            self.ws();
            if self.b.get(self.i) == Some(&c) {
                self.i += 1;
                Ok(())
            } else {
                Err(format!("expected '{}' at {}", c as char, self.i))
            }
        }
        fn lit(&mut self, w: &str, v: Value) -> Result<Value, String> {
            if self.b[self.i..].starts_with(w.as_bytes()) {
                self.i += w.len();
                Ok(v)
            } else {
                Err(format!("bad literal at {}", self.i))
            }
        }
        fn value(&mut self) -> Result<Value, String> {
            self.ws();
            match self.b.get(self.i).copied() {
                Some(b'{') => {
                    self.i += 1;
                    let mut m = BTreeMap::new();
                    self.ws();
                    if self.b.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        return Ok(Value::Obj(m));
                    }
                    loop {
                        self.ws();
                        let k = self.string()?;
                        self.eat(b':')?;
                        let v = self.value()?;
                        if m.insert(k.clone(), v).is_some() {
                            return Err(format!("duplicate key {k}"));
                        }
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                return Ok(Value::Obj(m));
                            }
                            _ => return Err(format!("expected , or }} at {}", self.i)),
                        }
                    }
                }
                Some(b'[') => {
                    self.i += 1;
                    let mut a = Vec::new();
                    self.ws();
                    if self.b.get(self.i) == Some(&b']') {
                        self.i += 1;
                        return Ok(Value::Arr(a));
                    }
                    loop {
                        a.push(self.value()?);
                        self.ws();
                        match self.b.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                return Ok(Value::Arr(a));
                            }
                            _ => return Err(format!("expected , or ] at {}", self.i)),
                        }
                    }
                }
                Some(b'"') => Ok(Value::Str(self.string()?)),
                Some(b't') => self.lit("true", Value::Bool(true)),
                Some(b'f') => self.lit("false", Value::Bool(false)),
                Some(b'n') => self.lit("null", Value::Null),
                Some(c) if c == b'-' || c.is_ascii_digit() => {
                    let start = self.i;
                    while self.i < self.b.len() && b"+-.eE0123456789".contains(&self.b[self.i]) {
                        self.i += 1;
                    }
                    let t = std::str::from_utf8(&self.b[start..self.i]).unwrap();
                    t.parse().map(Value::Num).map_err(|_| format!("bad number {t}"))
                }
                _ => Err(format!("unexpected input at {}", self.i)),
            }
        }
        fn string(&mut self) -> Result<String, String> {
            if self.b.get(self.i) != Some(&b'"') {
                return Err(format!("expected string at {}", self.i));
            }
            self.i += 1;
            let mut out = Vec::new();
            loop {
                match self.b.get(self.i).copied() {
                    None => return Err("unterminated string".into()),
                    Some(b'"') => {
                        self.i += 1;
                        return String::from_utf8(out).map_err(|e| e.to_string());
                    }
                    Some(b'\\') => {
                        let e = self.b.get(self.i + 1).copied().ok_or("bad escape")?;
                        self.i += 2;
                        match e {
                            b'"' | b'\\' | b'/' => out.push(e),
                            b'n' => out.push(b'\n'),
                            b't' => out.push(b'\t'),
                            b'r' => out.push(b'\r'),
                            b'b' => out.push(8),
                            b'f' => out.push(12),
                            b'u' => {
                                let h = std::str::from_utf8(self.b.get(self.i..self.i + 4).ok_or("bad \\u")?).unwrap();
                                let c = u32::from_str_radix(h, 16).map_err(|e| e.to_string())?;
                                let ch = char::from_u32(c).ok_or("bad \\u")?;
                                out.extend_from_slice(ch.to_string().as_bytes());
                                self.i += 4;
                            }
                            _ => return Err(format!("bad escape at {}", self.i)),
                        }
                    }
                    Some(c) if c < 0x20 => return Err(format!("control character in string at {}", self.i)),
                    Some(c) => {
                        out.push(c);
                        self.i += 1;
                    }
                }
            }
        }
    }
}
