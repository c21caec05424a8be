//! The Markdown beside the paper: its tables and ours, size by size.

use super::load::Pooled;
use super::paper::{Cell, Certainty, PaperRow};
use crate::record::gbps;
use crate::report::format::fmt_ms;
use crate::size::size_label;
use crate::stats::Summary;
use skinny_bulk::mode::{Direction, Mode};
use std::fmt::Write as _;

/// Series labels of one mode's encryption records, in the order first seen.
fn labels(pooled: &[Pooled], mode: Mode) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in pooled.iter().filter(|p| p.record.mode == mode && p.record.direction == Direction::Encrypt) {
        if !out.contains(&p.record.label) {
            out.push(p.record.label.clone());
        }
    }
    out
}

/// E with three significant digits or so: 0.268, 12.3, 671.
pub(crate) fn fmt_e(e: f64) -> String {
    if !e.is_finite() {
        "-".into()
    } else if e.abs() >= 100.0 {
        format!("{e:.0}")
    } else if e.abs() >= 10.0 {
        format!("{e:.1}")
    } else if e.abs() >= 1.0 {
        format!("{e:.2}")
    } else {
        format!("{e:.3}")
    }
}

/// S in % with two decimals.
fn fmt_s(s: f64) -> String {
    if s.is_finite() {
        format!("{s:.2}")
    } else {
        "-".into()
    }
}

fn row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

fn head(cells: &[String]) -> String {
    let mut s = row(cells);
    s.push_str(&row(&cells
        .iter()
        .enumerate()
        .map(|(i, _)| if i == 0 { ":--" } else { "--:" }.to_string())
        .collect::<Vec<_>>()));
    s
}

/// The Markdown: the paper beside the results, mode by mode; the throughput
/// the paper's times imply; run-to-run spread; every run of the baseline and
/// of the paper's kernel; CTR against ECB; where each series first wins.
/// `files` is how many saved runs were pooled, `machines` what they ran on.
pub fn markdown(pooled: &[Pooled], paper: &[PaperRow], files: usize, machines: &[&str]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Results: {files} file(s), pooled point by point; {}.\n", machines.join(" | "));
    let _ = writeln!(
        s,
        "Paper cells: plain = read with certainty, `~` = pieced together from fragments, `?` = a guess \
         among readings, `[x]` = not read, computed from the row (E = Tc/Tg, S = 1 - 1/E), `-` = not read. \
         Ours: E and S at the means of all runs (the paper averaged 10 runs), against cpu-serial.\n"
    );
    let find = |mode: Mode, label: &str, bytes: usize| {
        pooled.iter().find(|p| {
            p.record.mode == mode
                && p.record.direction == Direction::Encrypt
                && p.record.label == label
                && p.record.bytes == bytes
        })
    };
    for mode in [Mode::Ecb, Mode::Ctr] {
        let labels = labels(pooled, mode);
        if labels.is_empty() {
            continue;
        }
        let table = if mode == Mode::Ecb { 3 } else { 4 };
        let series: Vec<&String> = labels.iter().filter(|l| l.as_str() != "cpu-serial").collect();
        let mut sizes: Vec<usize> = pooled.iter().filter(|p| p.record.mode == mode).map(|p| p.record.bytes).collect();
        sizes.extend(paper.iter().filter(|r| r.mode == mode).map(|r| r.bytes));
        sizes.sort_unstable();
        sizes.dedup();
        let prow = |bytes: usize| paper.iter().find(|r| r.mode == mode && r.bytes == bytes);

        // E and S side by side.
        for (what, is_s) in [("speed-up E", false), ("efficiency S (%)", true)] {
            let _ = writeln!(s, "\n### {} {what}: the paper's Table {table} beside ours\n", mode.name().to_uppercase());
            let mut h: Vec<String> = vec![
                "Size".into(),
                "paper Tcpu ms".into(),
                "paper Tgpu ms".into(),
                format!("paper {}", if is_s { "S %" } else { "E" }),
            ];
            h.push("cpu-serial ms (mean, runs)".into());
            h.extend(series.iter().map(|l| format!("{l} {}", if is_s { "S %" } else { "E" })));
            s.push_str(&head(&h));
            for &b in &sizes {
                let mut c = vec![size_label(b)];
                match prow(b) {
                    Some(r) => {
                        c.push(r.cpu_ms.marked());
                        c.push(r.gpu_ms.marked());
                        c.push(if is_s { r.efficiency_pct.marked() } else { r.speedup.marked() });
                    }
                    None => c.extend(["-".to_string(), "-".into(), "-".into()]),
                }
                c.push(
                    find(mode, "cpu-serial", b)
                        .map_or("-".into(), |p| format!("{} ({})", fmt_ms(p.record.mean_ms()), p.record.runs())),
                );
                for l in &series {
                    c.push(find(mode, l, b).and_then(|p| p.record.speedups.serial_mean).map_or("-".into(), |v| {
                        if is_s {
                            fmt_s(v.efficiency * 100.0)
                        } else {
                            fmt_e(v.speedup)
                        }
                    }));
                }
                s.push_str(&row(&c));
            }
        }

        // Rates.
        let _ = writeln!(
            s,
            "\n### {} throughput (Gb/s, decimal, at the mean): the paper's implied by its times, and ours\n",
            mode.name().to_uppercase()
        );
        let mut h: Vec<String> = vec!["Size".into(), "paper CPU".into(), "paper GPU".into()];
        h.extend(labels.iter().cloned());
        s.push_str(&head(&h));
        for &b in &sizes {
            let mut c = vec![size_label(b)];
            let rate = |cell: Option<&Cell>| match cell {
                Some(Cell { value: Some(ms), read, .. }) if *read != Certainty::Unread => {
                    read.mark(Some(gbps(b, *ms)), fmt_ms)
                }
                _ => "-".into(),
            };
            c.push(rate(prow(b).map(|r| &r.cpu_ms)));
            c.push(rate(prow(b).map(|r| &r.gpu_ms)));
            for l in &labels {
                c.push(find(mode, l, b).map_or("-".into(), |p| fmt_ms(gbps(b, p.record.mean_ms()))));
            }
            s.push_str(&row(&c));
        }

        // Spread.
        let _ = writeln!(
            s,
            "\n### {} spread: runs (all repeats), mean / median, cv = sd / mean of the runs, and the \
             repeats' medians' range / median\n",
            mode.name().to_uppercase()
        );
        let mut h: Vec<String> = vec!["Size".into()];
        h.extend(labels.iter().cloned());
        s.push_str(&head(&h));
        for &b in &sizes {
            let mut c = vec![size_label(b)];
            for l in &labels {
                c.push(find(mode, l, b).map_or("-".into(), |p| {
                    let runs = Summary::of(&p.record.times_ms);
                    let reps = Summary::of(&p.repeat_medians);
                    format!(
                        "{}: {:.3} cv {:.1}%{}",
                        runs.n,
                        runs.mean / runs.median,
                        runs.cv() * 100.0,
                        if reps.n > 1 {
                            format!(", {} rep {:.1}%", reps.n, reps.spread() * 100.0)
                        } else {
                            String::new()
                        }
                    )
                }));
            }
            s.push_str(&row(&c));
        }

        // Every run of the baseline and of the paper's kernel.
        for l in labels.iter().filter(|l| l.as_str() == "cpu-serial" || l.starts_with("gpu-paper")) {
            let _ = writeln!(s, "\n### {} {l}: every run, ms (the paper ran 10 a size)\n", mode.name().to_uppercase());
            s.push_str(&head(&["Size".to_string(), "runs".into(), "times".into()]));
            for &b in &sizes {
                if let Some(p) = find(mode, l, b) {
                    let t: Vec<String> = p.record.times_ms.iter().map(|&x| fmt_ms(x)).collect();
                    s.push_str(&row(&[size_label(b), p.record.runs().to_string(), t.join(" ")]));
                }
            }
        }
    }

    // CTR against ECB, and where each series first beats the baselines.
    let _ = writeln!(s, "\n### CTR against ECB, and where each series first wins (means)\n");
    s.push_str(&head(&[
        "Series".to_string(),
        "ECB peak Gb/s".into(),
        "CTR peak Gb/s".into(),
        "CTR / ECB at peak".into(),
        "CTR / ECB at the largest size".into(),
        "first E > 1 vs cpu-serial (ECB, CTR)".into(),
        "first E > 1 vs cpu (ECB, CTR)".into(),
    ]));
    let all_labels = {
        let mut v = labels(pooled, Mode::Ecb);
        for l in labels(pooled, Mode::Ctr) {
            if !v.contains(&l) {
                v.push(l);
            }
        }
        v
    };
    for l in &all_labels {
        let pts = |mode: Mode| {
            let mut v: Vec<&Pooled> = pooled
                .iter()
                .filter(|p| p.record.mode == mode && p.record.direction == Direction::Encrypt && &p.record.label == l)
                .collect();
            v.sort_by_key(|p| p.record.bytes);
            v
        };
        let (e, c) = (pts(Mode::Ecb), pts(Mode::Ctr));
        let peak = |v: &[&Pooled]| v.iter().map(|p| gbps(p.record.bytes, p.record.mean_ms())).fold(f64::NAN, f64::max);
        let last = |v: &[&Pooled]| v.last().map(|p| (p.record.bytes, gbps(p.record.bytes, p.record.mean_ms())));
        let ratio = match (last(&e), last(&c)) {
            (Some((be, ge)), Some((bc, gc))) if be == bc => {
                format!("{:+.1}% ({})", (gc / ge - 1.0) * 100.0, size_label(be))
            }
            _ => "-".into(),
        };
        let first = |v: &[&Pooled], serial: bool| {
            v.iter()
                .find(|p| {
                    let su = if serial { p.record.speedups.serial_mean } else { p.record.speedups.cpu_mean };
                    su.is_some_and(|x| x.speedup > 1.0)
                })
                .map_or("never".to_string(), |p| size_label(p.record.bytes))
        };
        let has = |v: &[&Pooled], serial: bool| {
            v.iter().any(|p| {
                if serial {
                    p.record.speedups.serial_mean.is_some()
                } else {
                    p.record.speedups.cpu_mean.is_some()
                }
            })
        };
        let wins = |serial: bool| {
            if has(&e, serial) || has(&c, serial) {
                format!("{}, {}", first(&e, serial), first(&c, serial))
            } else {
                "-".into()
            }
        };
        let (pe, pc) = (peak(&e), peak(&c));
        s.push_str(&row(&[
            l.clone(),
            fmt_ms(pe),
            fmt_ms(pc),
            if pe.is_finite() && pc.is_finite() { format!("{:+.1}%", (pc / pe - 1.0) * 100.0) } else { "-".into() },
            ratio,
            wins(true),
            wins(false),
        ]));
    }
    s
}
