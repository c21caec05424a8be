//! The constant-time check (TIMECOP / ctgrind style): every CPU path of the
//! workspace that valgrind can run, on keys and data that memcheck is told
//! are *undefined* (`skinny::hazmat::ct::mark_secret`). Memcheck then
//! reports any branch ("Conditional jump or move depends on uninitialised
//! value(s)") or memory index ("Use of uninitialised value of size 8") that
//! depends on them. Results that are released anyway (ciphertexts, tags,
//! digests, and a tag check's verdict inside the schemes) are declassified
//! where they become public.
//!
//! `scripts/checks/ct-valgrind.sh` builds this (profile `ct`: release code with line
//! tables) and runs it under `valgrind --error-exitcode=1`; without valgrind
//! it runs the same calls and checks nothing but their results.
//!
//! ```text
//! skinny-ct-check [CHECK ...] [--expect PATH,...]   the checks (all by default)
//! skinny-ct-check --list                            their names
//! skinny-ct-check leaky-table | leaky-branch | leaky-compare
//!                                                   a positive control (must be reported)
//! ```
//!
//! `--expect` names bitsliced or single-block paths (`avx2`, `ssse3`,
//! `ssse3-split`, ...) that must be available, so a run cannot pass by
//! quietly skipping them. Limits of the method: memcheck sees branches and
//! addresses only, not instructions whose time depends on their operands
//! (division); AVX-512 code does not run under valgrind (the `dudect`
//! example measures that path instead); and the bitsliced paths' portable
//! mask builder runs only on CPUs without AVX2.

mod cipher;
mod engines;
mod leaky;
mod schemes;
mod sealed;
mod secret;

use std::process::ExitCode;
use std::time::Instant;

/// The checks, in the order they run.
const CHECKS: [(&str, fn()); 15] = [
    ("bitsliced-one-key", cipher::bitsliced_one_key),
    ("bitsliced-per-block", cipher::bitsliced_per_block),
    ("single-block", cipher::single_block),
    ("lanes", cipher::lanes),
    ("fixed-tweakey-part", cipher::fixed_tweakey_part),
    ("rustcrypto-types", cipher::rustcrypto_types),
    ("skinny-aead", schemes::skinny_aead),
    ("romulus", schemes::romulus),
    ("skinny-hash", schemes::skinny_hash),
    ("many-messages", engines::many_messages),
    ("many-lockstep", engines::many_lockstep),
    ("bulk-modes", engines::bulk_modes),
    ("seal-keys", sealed::keys),
    ("sealed-files", sealed::files),
    ("seal-x25519", sealed::x25519),
];

/// The positive controls, run one per invocation; none runs by default.
const CONTROLS: [(&str, fn()); 3] =
    [("leaky-table", leaky::table_lookup), ("leaky-branch", leaky::key_branch), ("leaky-compare", leaky::mac_compare)];

fn main() -> ExitCode {
    let mut names = Vec::new();
    let mut expect = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--list" => {
                CHECKS.iter().chain(&CONTROLS).for_each(|(n, _)| println!("{n}"));
                return ExitCode::SUCCESS;
            }
            "--expect" => match args.next() {
                Some(list) => expect.extend(list.split(',').filter(|s| !s.is_empty()).map(str::to_owned)),
                None => return usage("--expect needs a list of paths"),
            },
            "all" => names.extend(CHECKS.iter().map(|(n, _)| n.to_string())),
            _ if a.starts_with('-') => return usage(&format!("unknown option {a}")),
            _ => names.push(a),
        }
    }
    if names.is_empty() {
        names.extend(CHECKS.iter().map(|(n, _)| n.to_string()));
    }
    if let Err(missing) = check_expected(&expect) {
        eprintln!("ct-check: expected path {missing} is not available on this CPU");
        return ExitCode::FAILURE;
    }
    let under_valgrind = skinny::hazmat::ct::running_on_valgrind();
    let bitsliced: Vec<_> = cipher::bitsliced_paths().iter().map(|p| p.name()).collect();
    let single: Vec<_> = cipher::single_paths().iter().map(|p| p.name()).collect();
    println!("paths: bitsliced {}; single-block {}", bitsliced.join(", "), single.join(", "));
    for name in &names {
        let Some((_, run)) = CHECKS.iter().chain(&CONTROLS).find(|(n, _)| n == name) else {
            return usage(&format!("no check named {name}"));
        };
        let t = Instant::now();
        run();
        println!("{name}: done in {:.1} s", t.elapsed().as_secs_f64());
    }
    if under_valgrind {
        println!("{} checks ran under valgrind", names.len());
    } else {
        println!("{} checks ran, NOT under valgrind: nothing was checked for constant time", names.len());
    }
    ExitCode::SUCCESS
}

/// `Err(name)` for the first expected path that this CPU lacks.
fn check_expected(expect: &[String]) -> Result<(), String> {
    for name in expect {
        let bitsliced = skinny::hazmat::bitsliced::Path::from_name(name).map(|p| p.is_available());
        let single = skinny::hazmat::single::Path::ALL.into_iter().find(|p| p.name() == name).map(|p| p.is_available());
        match (bitsliced, single) {
            (Some(true), _) | (_, Some(true)) => {}
            _ => return Err(name.clone()),
        }
    }
    Ok(())
}

fn usage(why: &str) -> ExitCode {
    eprintln!(
        "ct-check: {why}\nusage: skinny-ct-check [CHECK ...] [--expect PATH,...] | --list | leaky-table | leaky-branch | leaky-compare"
    );
    ExitCode::from(2)
}
