//! The findings as the table `skinny lab` prints without `--json`.

use crate::error::count;
use skinny_lab::Findings;
use std::fmt::Write as _;

/// A log2 value for the table: -inf for none.
fn log2_text(v: Option<f64>) -> String {
    v.map_or_else(|| "-inf".into(), |x| format!("{x:.3}"))
}

/// The table: the experiment, the counts, the estimate, the speed and the
/// right pairs or quartets kept.
pub(super) fn render(r: &Findings) -> String {
    let mut s = String::new();
    let shard = if r.complete && r.shards.len() == 1 {
        String::new()
    } else {
        let n = r.shard.split_once('/').map_or("?", |(_, n)| n);
        format!(", shards {:?} of {n}", r.shards)
    };
    let _ = writeln!(
        s,
        "{} {}, {}, seed {}, a key every {}{shard}",
        r.experiment,
        r.cipher,
        count(r.rounds as u64, "round"),
        r.seed,
        count(r.key_every, "query").replace("querys", "queries")
    );
    let _ = writeln!(s, "queries     {} (of {})", r.queries, r.queries_total);
    let _ = writeln!(s, "hits        {}", r.hits);
    let _ = writeln!(
        s,
        "log2 p      {}   95% CI [{}, {}]",
        log2_text(r.log2_p),
        log2_text(r.ci95[0]),
        log2_text(r.ci95[1])
    );
    let _ = writeln!(s, "seconds     {:.3}", r.seconds);
    let _ = writeln!(s, "rate        {:.0} queries/s ({})", r.rate_per_s, r.backend);
    for w in &r.right {
        let _ = writeln!(s, "right #{}: P {}  C {}  K {}", w.query, w.p.join(" "), w.c.join(" "), w.k.join(" "));
    }
    s
}
