//! Throughput against size, like the paper's Figures 6 (ECB) and 7 (CTR): one
//! chart per mode and direction, stacked; log-scale axes; one line per series.

use super::frame::{decade_range, decades, Frame, Tick, CHART_H};
use super::legend::{Entry, Legend};
use super::style::{Colors, Fill, Marker, Point, Stroke, Style, BASELINE_COLOR};
use super::svg::{caption, document};
use crate::plan::Plan;
use crate::record::{dir_name, labels, Record};
use skinny_bulk::mode::Mode;
use std::fmt::Write as _;

/// The whole SVG document: the caption (`caption`'s lines, wrapped), then one
/// chart per mode and direction of `plan` that has records.
pub fn throughput(plan: &Plan, records: &[Record], caption_lines: &[String]) -> String {
    let charts: Vec<_> = plan
        .modes
        .iter()
        .flat_map(|&m| plan.directions.iter().map(move |&d| (m, d)))
        .map(|(m, d)| (m, d, records.iter().filter(|r| r.mode == m && r.direction == d).collect::<Vec<_>>()))
        .filter(|(_, _, rs)| !rs.is_empty())
        .collect();
    let fixed = [("cpu-serial", BASELINE_COLOR)];
    // One colour per label across the charts (the same series, the same colour).
    let colors = Colors::new(labels(records), &fixed);
    let (mut body, mut y) = caption(caption_lines, 0.0);
    for (mode, dir, recs) in &charts {
        let fig = match mode {
            Mode::Ecb => "cf. the paper's Figure 6",
            _ => "cf. the paper's Figure 7",
        };
        let title = format!("{} {} throughput, {} ({fig})", mode.name().to_uppercase(), dir_name(*dir), plan.variant);
        y += chart(&mut body, y, &title, recs, &colors);
    }
    document(y.max(CHART_H), &body)
}

/// One series' look: its label's colour, its timing's marker and dashes.
fn style(r: &Record, colors: &Colors<'_>) -> Style {
    Style { color: colors.of(&r.label), marker: Marker::of(r.timing), dash: Stroke::of(r.timing), width: 2.0 }
}

/// One chart with its top edge at `y0`; returns its height.
fn chart(s: &mut String, y0: f64, title: &str, recs: &[&Record], colors: &Colors<'_>) -> f64 {
    let labels = labels(recs.iter().copied());
    let lines: Vec<Line<'_>> = labels
        .iter()
        .filter_map(|&l| {
            let mut pts: Vec<&Record> = recs.iter().copied().filter(|r| r.label == l).collect();
            pts.sort_by_key(|r| r.bytes);
            pts.retain(|r| r.gbps().is_finite() && r.gbps() > 0.0);
            let style = style(pts.first()?, colors);
            Some(Line { label: l, style, points: pts.iter().map(|r| (r.bytes, r.gbps())).collect() })
        })
        .collect();
    let axis = Axis { sizes: recs.iter().map(|r| r.bytes).collect(), title: "Throughput (Gb/s, decimal, log scale)" };
    log_chart(s, y0, title, &lines, &axis)
}

/// One line of a chart: its label, its look, and its points (size, value),
/// sizes ascending, every value finite and positive.
pub(crate) struct Line<'a> {
    /// The series' name in the legend and in `data-series`.
    pub label: &'a str,
    /// Colour, marker and dashes.
    pub style: Style,
    /// (bytes, value) by size.
    pub points: Vec<(usize, f64)>,
}

/// What the axes span beyond the lines: every size measured (points left out
/// for want of a value still widen the size axis), and the value axis' title.
pub(crate) struct Axis<'a> {
    /// Every size of the chart's records.
    pub sizes: Vec<usize>,
    /// The value axis' title.
    pub title: &'a str,
}

/// A chart of `lines` with its top edge at `y0`, log sizes against log
/// values; returns its height.
pub(crate) fn log_chart(s: &mut String, y0: f64, title: &str, lines: &[Line<'_>], axis: &Axis<'_>) -> f64 {
    let legend = Legend::new(
        lines
            .iter()
            .map(|l| Entry {
                label: l.label.to_string(),
                color: l.style.color,
                dash: l.style.dash,
                marker: Some(l.style.marker),
                width: l.style.width,
            })
            .collect(),
    );
    let (lo, hi) = decade_range(lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)));
    let frame = Frame::new(y0, &legend, axis.sizes.iter().copied(), (lo, hi));

    let _ = writeln!(s, "<g class=\"chart\">");
    frame.title(s, y0, title, 16.0);
    // No value is a break-even: every decade alike.
    let ticks: Vec<Tick> = decades(lo, hi).into_iter().map(|t| Tick { strong: false, ..t }).collect();
    frame.axes(s, &ticks, "Data size (bytes, log scale)", axis.title);
    for l in lines {
        let points: Vec<Point> = l
            .points
            .iter()
            .map(|&(x, v)| Point { x: frame.px(x), y: frame.py(v.log10()), fill: Fill::Solid })
            .collect();
        l.style.series(s, l.label, &points);
    }
    legend.draw(s, frame.legend);
    let _ = writeln!(s, "</g>");
    frame.height
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::rec;
    use crate::timing::Timing;

    #[test]
    fn ten_series_stay_apart_and_the_legend_inside() {
        let mut recs = Vec::new();
        let mut add = |backend: &'static str, timing: Timing, label: &str| {
            for (i, n) in [16, 1024, 64 << 20].into_iter().enumerate() {
                recs.push(rec(backend, timing, label, n, 1.0 + i as f64));
            }
        };
        add("cpu-serial", Timing::EndToEnd, "cpu-serial");
        add("cpu", Timing::EndToEnd, "cpu");
        for backend in ["gpu-paper", "gpu"] {
            for t in Timing::ALL {
                add(backend, t, &format!("{backend} {}", t.short()));
            }
        }
        let plan = Plan::covering(&recs);
        let svg = throughput(&plan, &recs, &["machine".into()]);
        assert_eq!(svg.matches("<path class=\"series\"").count(), 10);
        let strokes: Vec<&str> = svg
            .lines()
            .filter(|l| l.starts_with("<path class=\"series\""))
            .map(|l| l.split("stroke=\"").nth(1).unwrap().split('"').next().unwrap())
            .collect();
        let mut distinct = strokes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 10, "{strokes:?}");
        assert!(svg.contains("stroke-dasharray=\"6 4\"") && svg.contains("stroke-dasharray=\"8 3 1.5 3\""));
        assert_eq!(svg.matches("<g class=\"legend\"").count(), 1);
        assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    }
}
