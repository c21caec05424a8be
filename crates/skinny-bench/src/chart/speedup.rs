//! The speed-up E (log scale) above the efficiency S (linear, -100 % to 100
//! %) against the serial CPU, by size, ECB and CTR in each; the paper's own
//! figures beside ours when given.

use super::frame::{decade_range, decades, Frame, Tick, CHART_H};
use super::legend::{Entry, Legend};
use super::style::{Colors, Fill, Marker, Point, Stroke, Style, BASELINE_COLOR, PAPER_COLOR};
use super::svg::{caption, document};
use crate::record::Record;
use crate::timing::Timing;
use skinny_bulk::mode::{Direction, Mode};
use std::fmt::Write as _;

/// One line of the speed-up charts: E against `cpu-serial` by size, for one
/// series (or the paper's) and one mode.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedupSeries {
    /// The series label (`gpu-paper e2e`, or [`PAPER_LABEL`]).
    pub label: String,
    /// What its times cover (None for the paper's).
    pub timing: Option<Timing>,
    /// ECB or CTR.
    pub mode: Mode,
    /// (bytes, E) by ascending size; E from the medians.
    pub points: Vec<(usize, f64)>,
}

/// The label of the paper's own line in the speed-up charts.
pub const PAPER_LABEL: &str = "paper (GTX TITAN X, its Tables 3-4)";

/// The lowest S drawn, in %; lower values sit on the bottom edge, hollow.
pub const S_FLOOR_PCT: f64 = -100.0;

/// The lines of the speed-up charts: the paper's first (`paper`: mode, bytes,
/// E, as read from its tables), then every encryption series that has a
/// speed-up against `cpu-serial`, by label and mode in the order measured.
pub fn speedup_series(records: &[Record], paper: &[(Mode, usize, f64)]) -> Vec<SpeedupSeries> {
    let mut out: Vec<SpeedupSeries> = Vec::new();
    for mode in [Mode::Ecb, Mode::Ctr] {
        let mut pts: Vec<(usize, f64)> =
            paper.iter().filter(|(m, _, e)| *m == mode && e.is_finite() && *e > 0.0).map(|&(_, b, e)| (b, e)).collect();
        pts.sort_by_key(|p| p.0);
        if !pts.is_empty() {
            out.push(SpeedupSeries { label: PAPER_LABEL.into(), timing: None, mode, points: pts });
        }
    }
    for r in records.iter().filter(|r| r.direction == Direction::Encrypt) {
        let Some(su) = r.speedups.serial else { continue };
        if !su.speedup.is_finite() || su.speedup <= 0.0 {
            continue;
        }
        match out.iter_mut().find(|s| s.label == r.label && s.mode == r.mode) {
            Some(s) => s.points.push((r.bytes, su.speedup)),
            None => out.push(SpeedupSeries {
                label: r.label.clone(),
                timing: Some(r.timing),
                mode: r.mode,
                points: vec![(r.bytes, su.speedup)],
            }),
        }
    }
    for s in &mut out {
        s.points.sort_by_key(|p| p.0);
        s.points.dedup_by_key(|p| p.0);
    }
    out
}

/// Efficiency S = 1 - 1/E, in %: what S = (Tc - Tg)/Tc is for E = Tc/Tg.
pub fn efficiency_pct(e: f64) -> f64 {
    (1.0 - 1.0 / e) * 100.0
}

/// Which of the two charts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Panel {
    /// The speed-up E, log scale.
    SpeedUp,
    /// The efficiency S, linear.
    Efficiency,
}

/// The document: the caption, then the E chart above the S chart, each with
/// every line: one colour and marker per series (the paper's in black), ECB
/// solid, CTR dashed.
pub fn speedups(series: &[SpeedupSeries], caption_lines: &[String]) -> String {
    let fixed = [(PAPER_LABEL, PAPER_COLOR), ("cpu-serial", BASELINE_COLOR)];
    let colors = Colors::new(series.iter().map(|s| s.label.as_str()), &fixed);
    let mut entries: Vec<Entry> = Vec::new();
    for x in series {
        if !entries.iter().any(|e| e.label == x.label) {
            entries.push(Entry {
                label: x.label.clone(),
                color: colors.of(&x.label),
                dash: Stroke::Solid,
                marker: Some(marker(x)),
                width: if x.label == PAPER_LABEL { 2.5 } else { 2.0 },
            });
        }
    }
    for (name, dash) in [("ECB: solid line", Stroke::Solid), ("CTR: dashed line", Stroke::Dashed)] {
        entries.push(Entry { label: name.into(), color: "#555", dash, marker: None, width: 2.0 });
    }
    let legend = Legend::new(entries);
    let (mut body, mut y) = caption(caption_lines, 0.0);
    for panel in [Panel::SpeedUp, Panel::Efficiency] {
        y += chart(&mut body, y, panel, series, &colors, &legend);
    }
    document(y.max(2.0 * CHART_H), &body)
}

/// A series' marker: by timing, the paper's a triangle pointing down.
fn marker(x: &SpeedupSeries) -> Marker {
    x.timing.map_or(Marker::TriangleDown, Marker::of)
}

/// One of the two charts with its top edge at `y0`; returns its height.
fn chart(s: &mut String, y0: f64, panel: Panel, series: &[SpeedupSeries], colors: &Colors<'_>, legend: &Legend) -> f64 {
    let eff = panel == Panel::Efficiency;
    let all = || series.iter().flat_map(|x| x.points.iter());
    let (ey0, ey1) = decade_range(all().map(|p| p.1));
    let range = if eff { (S_FLOOR_PCT, 100.0) } else { (ey0, ey1) };
    let frame = Frame::new(y0, legend, all().map(|p| p.0), range);
    let value = |e: f64| if eff { efficiency_pct(e).max(S_FLOOR_PCT) } else { e.log10() };
    let (title, ticks, x_title, y_title) = if eff {
        (
            "Efficiency S = (Tcpu - T) / Tcpu against one CPU core (cpu-serial), ECB and CTR encryption",
            (0..=8)
                .map(|k| S_FLOOR_PCT + 25.0 * f64::from(k))
                .map(|v| Tick { value: v, label: format!("{v:.0} %"), strong: v == 0.0 })
                .collect(),
            "Data size (bytes, log scale); hollow points: below -100 %, drawn on the edge",
            "Efficiency S (%)",
        )
    } else {
        (
            "Speed-up E = Tcpu / T against one CPU core (cpu-serial), ECB and CTR encryption",
            decades(ey0, ey1),
            "Data size (bytes, log scale)",
            "Speed-up E (log scale; 1 = as fast as one core)",
        )
    };
    let _ = writeln!(s, "<g class=\"chart\" data-chart=\"{}\">", if eff { "S" } else { "E" });
    frame.title(s, y0, title, 15.0);
    frame.axes(s, &ticks, x_title, y_title);
    for x in series {
        let style = Style {
            color: colors.of(&x.label),
            marker: marker(x),
            dash: if x.mode == Mode::Ecb { Stroke::Solid } else { Stroke::Dashed },
            width: if x.label == PAPER_LABEL { 2.5 } else { 1.8 },
        };
        let points: Vec<Point> = x
            .points
            .iter()
            .map(|&(b, e)| Point {
                x: frame.px(b),
                y: frame.py(value(e)),
                fill: if eff && efficiency_pct(e) < S_FLOOR_PCT { Fill::Hollow } else { Fill::Solid },
            })
            .collect();
        style.series(s, &format!("{} {}", x.label, x.mode.name()), &points);
    }
    legend.draw(s, frame.legend);
    let _ = writeln!(s, "</g>");
    frame.height
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{SpeedUp, SpeedUps};

    fn rec(label: &str, mode: Mode, bytes: usize, e: Option<f64>) -> Record {
        Record {
            variant: "skinny-128-256",
            mode,
            direction: Direction::Encrypt,
            backend: "gpu-paper",
            label: label.into(),
            timing: Timing::Cold,
            bytes,
            reps: 1,
            times_ms: vec![1.0],
            warmup_ms: None,
            speedups: SpeedUps { serial: e.map(|e| SpeedUp::of(e, 1.0)), ..SpeedUps::default() },
        }
    }

    #[test]
    fn speedup_series_by_label_and_mode_paper_first() {
        let recs = vec![
            rec("cpu-serial", Mode::Ecb, 16, None),
            rec("gpu-paper cold", Mode::Ecb, 1024, Some(8.0)),
            rec("gpu-paper cold", Mode::Ecb, 16, Some(0.25)),
            rec("gpu-paper cold", Mode::Ctr, 16, Some(0.5)),
        ];
        let paper = [(Mode::Ctr, 64, 2.0), (Mode::Ctr, 16, 0.3), (Mode::Ecb, 16, f64::NAN)];
        let s = speedup_series(&recs, &paper);
        let names: Vec<(&str, Mode)> = s.iter().map(|x| (x.label.as_str(), x.mode)).collect();
        assert_eq!(names, vec![(PAPER_LABEL, Mode::Ctr), ("gpu-paper cold", Mode::Ecb), ("gpu-paper cold", Mode::Ctr)]);
        assert_eq!(s[0].points, vec![(16, 0.3), (64, 2.0)]);
        assert_eq!(s[1].points, vec![(16, 0.25), (1024, 8.0)]);
        assert_eq!((s[0].timing, s[1].timing), (None, Some(Timing::Cold)));
        // S = 1 - 1/E: E 0.25 is -300 %, drawn hollow on the -100 % edge.
        assert!((efficiency_pct(0.25) + 300.0).abs() < 1e-9);
        assert!((efficiency_pct(8.0) - 87.5).abs() < 1e-9);
        let svg = speedups(&s, &["machine <x>".into()]);
        assert_eq!(svg.matches("<g class=\"chart\"").count(), 2);
        assert_eq!(svg.matches("class=\"series\"").count(), 2 * 3);
        assert!(svg.contains("data-series=\"gpu-paper cold ctr\""));
        assert!(svg.contains("machine &lt;x&gt;"));
        // Below the S floor: E 0.25 (ECB) and the paper's 0.3 (CTR), -300 % and -233 %.
        assert_eq!(svg.matches("fill=\"white\" stroke").count(), 2);
        // The paper black, a triangle pointing down; ours by timing (cold: a diamond).
        assert!(svg.contains(&format!("stroke=\"{PAPER_COLOR}\" stroke-width=\"2.5\"")));
    }
}
