//! A ratio that falls below its threshold is measured again, with twice the
//! pairs, in fresh processes of the guard, before it fails.
//!
//! Why a fresh process: some paths' speed depends on the address-space
//! layout, which is random per process and fixed within one (the AVX2
//! bitsliced path runs at one of two speeds, 0.7x apart, and takes the fast
//! one every time with randomisation off; per-block tweakeys and the portable
//! path have rarer slow layouts). A measurement repeated in the same process
//! repeats its layout; a new process draws a new one. A real regression is slow
//! in every layout, so it still fails. Where no fresh process can be started,
//! the ratio is measured again in this one.

use crate::measure::{Comparison, Settings};
use std::process::Command;

/// How many fresh processes a failing ratio gets.
pub const FRESH_PROCESSES: usize = 2;

/// The argument that makes the guard measure the one ratio named after it and
/// print it for its parent ([`print_for_parent`]) instead of running the checks.
pub const ARG: &str = "--remeasure";

/// The first word of the line a child prints.
const TAG: &str = "remeasured";

/// Measures the ratio `name` in a fresh process of this program with
/// `settings`; `None` if the process could not be run or said nothing usable.
pub fn in_fresh_process(name: &str, settings: Settings) -> Option<Comparison> {
    let exe = std::env::current_exe().ok()?;
    let out = Command::new(exe)
        .arg(ARG)
        .arg(name)
        .arg("--pairs")
        .arg(settings.pairs.to_string())
        .arg("--sample-ms")
        .arg((settings.sample.as_secs_f64() * 1e3).to_string())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout).lines().find_map(parse)
}

/// The child's answer: one line, [`TAG`] and the comparison's numbers.
pub fn print_for_parent(c: &Comparison) {
    println!(
        "{TAG} {} {} {} {} {} {} {}",
        c.median, c.quartiles.0, c.quartiles.1, c.best, c.best_rates.0, c.best_rates.1, c.pairs
    );
}

fn parse(line: &str) -> Option<Comparison> {
    let mut words = line.split_whitespace();
    if words.next()? != TAG {
        return None;
    }
    let x: Vec<f64> = words.map(str::parse).collect::<Result<_, _>>().ok()?;
    let [median, q1, q3, best, rate_a, rate_b, pairs] = x[..] else { return None };
    Some(Comparison { median, quartiles: (q1, q3), best, best_rates: (rate_a, rate_b), pairs: pairs as usize })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_childs_line_reads_back() {
        let c = Comparison { median: 2.5, quartiles: (2.25, 2.75), best: 2.6, best_rates: (1e7, 4e6), pairs: 62 };
        let line = format!("{TAG} {} {} {} {} {} {} {}", 2.5, 2.25, 2.75, 2.6, 1e7, 4e6, 62);
        let back = parse(&line).expect("a whole line");
        assert_eq!(
            (back.median, back.quartiles, back.best, back.best_rates, back.pairs),
            (c.median, c.quartiles, c.best, c.best_rates, c.pairs)
        );
        assert!(parse("remeasured 1 2").is_none());
        assert!(parse("speed guard: x").is_none());
    }
}
