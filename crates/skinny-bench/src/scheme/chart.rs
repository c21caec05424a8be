//! The scheme series' throughput against message size: one chart per
//! operation (seal, open, hash), log-scale axes, one line per algorithm, in
//! binary megabytes per second.

use super::algorithm::{Family, Operation};
use super::measure::SchemeRecord;
use crate::chart::{caption, document, log_chart, Axis, Colors, Line, Marker, Stroke, Style, CHART_H};
use crate::timing::Timing;

/// The whole SVG document: the caption, then one chart per operation that has
/// records, in the order measured.
pub fn scheme_throughput(records: &[SchemeRecord], caption_lines: &[String]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for r in records {
        if !names.contains(&r.algorithm.name()) {
            names.push(r.algorithm.name());
        }
    }
    let colors = Colors::new(names.iter().copied(), &[]);
    let mut operations = Vec::new();
    for r in records {
        if !operations.contains(&r.operation) {
            operations.push(r.operation);
        }
    }
    let (mut body, mut y) = caption(caption_lines, 0.0);
    for op in operations {
        let recs: Vec<&SchemeRecord> = records.iter().filter(|r| r.operation == op).collect();
        let lines: Vec<Line<'_>> = names
            .iter()
            .filter_map(|&name| {
                let mut pts: Vec<(usize, f64)> = recs
                    .iter()
                    .filter(|r| r.algorithm.name() == name)
                    .map(|r| (r.bytes, r.mib_s()))
                    .filter(|(_, v)| v.is_finite() && *v > 0.0)
                    .collect();
                pts.sort_by_key(|p| p.0);
                let family = recs.iter().find(|r| r.algorithm.name() == name)?.algorithm.family();
                (!pts.is_empty()).then(|| Line { label: name, style: style(colors.of(name), family), points: pts })
            })
            .collect();
        let title = match op {
            Operation::Hash => "Hash throughput, one message per call".to_string(),
            o => format!("AEAD {} throughput, one message per call, no associated data", o.name()),
        };
        let axis = Axis { sizes: recs.iter().map(|r| r.bytes).collect(), title: "Throughput (MiB/s, log scale)" };
        y += log_chart(&mut body, y, &title, &lines, &axis);
    }
    document(y.max(CHART_H), &body)
}

/// AEAD lines solid, hash lines dashed (as the end-to-end and kernel series
/// of the cipher charts), each algorithm its own colour.
fn style(color: &'static str, family: Family) -> Style {
    let timing = match family {
        Family::Aead => Timing::EndToEnd,
        Family::Hash => Timing::Kernel,
    };
    Style { color, marker: Marker::of(timing), dash: Stroke::of(timing), width: 2.0 }
}
