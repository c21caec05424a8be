//! Fuzzes the `skinny` command as a process: generated key files and argument
//! vectors (the flags of each command, likely and odd values), in a fresh
//! folder per case. What must hold for every case:
//! - the exit status is 0, 1 or 2 (never 101, a panic, nor a signal), within the time limit;
//! - a failure the command reports (`skinny: ...`) is one line on stderr (`hash`:
//!   one such line per unreadable file, then the count);
//!   clap's usage errors (`error: ...`, status 2) are its own several lines;
//! - no key given (as hex or in a key file) appears on stdout or stderr of a failure;
//! - nothing is left in the folder but the inputs and the declared output,
//!   and no output is left by a failing `seal`, `open`, `encrypt` or `decrypt`.
//!
//! `cli_fuzz SKINNY SECONDS [SEED] [REGRESSIONS_DIR]`: prints cases, exit
//! statuses and findings; writes each finding's case (argv, files) under
//! REGRESSIONS_DIR; exits 1 if there was any.

mod gen;
mod spec;

use gen::Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A case's time limit: the debug binary with small inputs takes well under a second.
const CASE_LIMIT: Duration = Duration::from_secs(30);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: cli_fuzz SKINNY SECONDS [SEED] [REGRESSIONS_DIR]");
        std::process::exit(2);
    }
    let skinny = std::fs::canonicalize(&args[1]).expect("the skinny binary");
    let seconds: u64 = args[2].parse().expect("SECONDS");
    let seed: u64 = args.get(3).map_or(1, |s| s.parse().expect("SEED"));
    let regressions = args.get(4).map(PathBuf::from);
    let mut rng = Rng::new(seed);
    let root = std::env::temp_dir().join(format!("skinny-cli-fuzz-{}", std::process::id()));
    let start = Instant::now();
    let (mut cases, mut findings) = (0u64, 0u64);
    let mut statuses: BTreeMap<String, u64> = BTreeMap::new();
    let mut per_command: BTreeMap<&'static str, u64> = BTreeMap::new();
    while start.elapsed().as_secs() < seconds {
        let dir = root.join(cases.to_string());
        std::fs::create_dir_all(&dir).expect("a case folder");
        let case = spec::make_case(&mut rng, &dir);
        let (status, problems) = run_case(&skinny, &dir, &case);
        *statuses.entry(status).or_default() += 1;
        *per_command.entry(case.command).or_default() += 1;
        if !problems.is_empty() {
            findings += 1;
            println!("finding in case {cases} (seed {seed}): {}", problems.join("; "));
            println!("  argv: {}", shown(&case.argv));
            if let Some(reg) = &regressions {
                keep(reg, seed, cases, &dir, &case, &problems);
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        cases += 1;
    }
    let _ = std::fs::remove_dir_all(&root);
    let secs = start.elapsed().as_secs_f64();
    println!("cli_fuzz: {cases} cases in {secs:.0} s ({:.1}/s), seed {seed}, {findings} findings", cases as f64 / secs);
    println!("  exit statuses: {statuses:?}");
    println!("  commands: {per_command:?}");
    std::process::exit(i32::from(findings > 0));
}

/// Runs one case in `dir`; its exit status as text and what went wrong.
fn run_case(skinny: &Path, dir: &Path, case: &spec::Case) -> (String, Vec<String>) {
    let before = listing(dir);
    let child = Command::new(skinny)
        .args(&case.argv)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1")
        .spawn()
        .expect("skinny starts");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let late = rx.recv_timeout(CASE_LIMIT).is_err();
        if late {
            // Past the limit: stop that one process (ours, by its id).
            unsafe_kill(pid);
        }
        late
    });
    let out = child.wait_with_output().expect("skinny's output");
    let _ = tx.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    let mut problems = Vec::new();
    if timed_out && case.command.starts_with("lab ") {
        // An experiment asked for up to 2^64 queries runs that long: not a hang.
        return ("long experiment stopped".into(), problems);
    }
    let status = match (out.status.code(), out.status.signal()) {
        (Some(c), _) => c.to_string(),
        (None, Some(s)) => format!("signal {s}"),
        _ => "?".into(),
    };
    let code = out.status.code();
    if !matches!(code, Some(0..=2)) {
        problems.push(format!("exit status {status}"));
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if code != Some(0) {
        let text = stderr.trim_end_matches('\n');
        if text.starts_with("skinny: ") {
            // `hash` reports each file it could not read on a line of its own, then the count.
            let per_file = case.command == "hash" && text.lines().all(|l| l.starts_with("skinny: "));
            if text.contains('\n') && !per_file {
                problems.push("an error of more than one line".into());
            }
        } else if !(code == Some(2) && text.starts_with("error: ")) {
            problems.push(format!("stderr on failure is neither `skinny: ` nor clap's `error: `: {:?}", first(text)));
        }
        for key in &case.keys {
            let (o, e) = (out.stdout.to_ascii_lowercase(), out.stderr.to_ascii_lowercase());
            if key.len() >= 16 && (contains(&o, key.as_bytes()) || contains(&e, key.as_bytes())) {
                problems.push("a key printed".into());
            }
        }
    }
    let after = listing(dir);
    let mut allowed = before.clone();
    if let Some(o) = &case.output {
        allowed.insert(o.clone());
    }
    let extra: Vec<&String> = after.difference(&allowed).collect();
    if !extra.is_empty() {
        problems.push(format!("files left: {extra:?}"));
    }
    if code != Some(0) && case.writes {
        if let Some(o) = &case.output {
            if after.contains(o) && !before.contains(o) {
                problems.push(format!("output {o:?} left after a failure"));
            }
        }
    }
    (status, problems)
}

fn unsafe_kill(pid: u32) {
    // No libc dependency: the `kill` command, on this one process id.
    let _ = Command::new("kill").arg("-KILL").arg(pid.to_string()).status();
}

/// Every path under `dir`, relative, recursively.
fn listing(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            out.insert(p.strip_prefix(dir).unwrap_or(&p).to_string_lossy().into_owned());
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(p);
            }
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn first(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

fn shown(argv: &[OsString]) -> String {
    let words: Vec<String> = argv.iter().map(|a| format!("{:?}", a.as_bytes().escape_ascii().to_string())).collect();
    format!("skinny {}", words.join(" "))
}

/// Writes the case (its argv and its input files) under `reg/cli-s<seed>-c<case>/`.
fn keep(reg: &Path, seed: u64, case_no: u64, dir: &Path, case: &spec::Case, problems: &[String]) {
    let to = reg.join(format!("cli-s{seed}-c{case_no}"));
    let _ = std::fs::create_dir_all(&to);
    let mut what = format!("{}\n{}\n", shown(&case.argv), problems.join("\n"));
    what.push_str("(run in a folder holding the files here; argv words are shown escaped)\n");
    let _ = std::fs::write(to.join("CASE.txt"), what);
    for name in &case.inputs {
        let from = dir.join(name);
        if from.is_file() && std::fs::metadata(&from).is_ok_and(|m| m.len() <= 1 << 16) {
            let _ = std::fs::copy(&from, to.join(name));
        }
    }
}
