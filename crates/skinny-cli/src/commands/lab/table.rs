//! The findings as the table `skinny lab` prints without `--json`.

use super::per_key;
use super::text::printable;
use crate::error::count;
use skinny_lab::Findings;
use std::fmt::Write as _;

/// A log2 value for the table: -inf for none.
fn log2_text(v: Option<f64>) -> String {
    v.map_or_else(|| "-inf".into(), |x| format!("{x:.3}"))
}

/// The table: the experiment, the counts, the estimate, the speed and the
/// right pairs or quartets kept. Every string from the findings is shown
/// [`printable`]: merged findings come from files.
pub(super) fn render(r: &Findings) -> String {
    let mut s = String::new();
    let shard = if r.complete && r.shards.len() == 1 {
        String::new()
    } else {
        let n = r.shard.split_once('/').map_or("?", |(_, n)| n);
        format!(", shards {:?} of {}", r.shards, printable(n))
    };
    let from = if r.start_round == 1 {
        String::new()
    } else {
        format!(" from round {} (tweakeys at the {})", r.start_round, printable(&r.tk_at))
    };
    let _ = writeln!(
        s,
        "{} {}, {}{from}, seed {}, a key every {}{shard}",
        printable(&r.experiment),
        printable(&r.cipher),
        count(r.rounds as u64, "round"),
        r.seed,
        count(r.key_every, "query").replace("querys", "queries")
    );
    let _ = writeln!(s, "queries     {} (of {})", r.queries, r.queries_total);
    let _ = writeln!(s, "hits        {}", r.hits);
    // A probability for the experiments that count one (differential,
    // boomerang); a correlation for those that measure one (linear,
    // differential-linear), whose hits are not a probability of anything.
    if r.correlation.is_none() {
        let _ = writeln!(
            s,
            "log2 p      {}   95% CI [{}, {}]",
            log2_text(r.log2_p),
            log2_text(r.ci95[0]),
            log2_text(r.ci95[1])
        );
    }
    if let (Some(c), Some([lo, hi])) = (r.correlation, r.correlation_ci95) {
        let log2 = if c == 0.0 { "-inf".into() } else { format!("{:.3}", c.abs().log2()) };
        let _ = writeln!(s, "correlation {c:+.6e}   95% CI [{lo:+.6e}, {hi:+.6e}]   log2 |c| {log2}");
    }
    if let Some(d) = &r.per_key {
        s.push_str(&per_key::render(d));
    }
    let _ = writeln!(s, "seconds     {:.3}", r.seconds);
    let _ = writeln!(s, "rate        {:.0} queries/s ({})", r.rate_per_s, printable(&r.backend));
    for w in &r.right {
        let values = |v: &[String]| printable(&v.join(" "));
        let _ = writeln!(s, "right #{}: P {}  C {}  K {}", w.query, values(&w.p), values(&w.c), values(&w.k));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::render;
    use skinny_lab::{Findings, HexWitness};

    #[test]
    fn strings_from_a_report_cannot_steer_the_terminal() {
        let esc = "\u{1b}]0;owned\u{7}\u{1b}[2J\r".to_string();
        let f = Findings {
            experiment: esc.clone(),
            cipher: esc.clone(),
            rounds: 1,
            start_round: 2,
            tk_at: esc.clone(),
            dp: esc.clone(),
            dc: esc.clone(),
            dk: None,
            dc_mask: None,
            dk1: None,
            dk2: None,
            mask: Some(esc.clone()),
            cells: Some(esc.clone()),
            in_mask: None,
            out_mask: None,
            queries: 1,
            queries_total: 2,
            key_every: 1,
            seed: 0,
            shard: format!("0/{esc}"),
            shards: vec![0],
            segment: None,
            complete: false,
            interrupted: false,
            hits: 0,
            log2_p: None,
            ci95: [None, Some(0.0)],
            correlation: Some(0.5),
            correlation_ci95: Some([0.25, 0.75]),
            per_key: None,
            seconds: 0.0,
            rate_per_s: 0.0,
            backend: esc.clone(),
            version: esc.clone(),
            threads: None,
            show: 1,
            right: vec![HexWitness { query: 0, p: vec![esc.clone()], c: vec![esc.clone()], k: vec![esc] }],
        };
        let table = render(&f);
        assert!(!table.chars().any(|c| c.is_control() && c != '\n'), "{table:?}");
        assert!(table.contains("\\u{1b}[2J"), "{table}");
    }
}
