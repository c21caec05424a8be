//! Throughput against size as SVG, like the paper's Figures 6 (ECB) and 7 (CTR):
//! one chart per mode and direction, stacked; log-scale size and throughput
//! axes; one line per backend and timing; a legend. And the speed-up E and
//! efficiency S against the serial CPU by size, ECB and CTR in one chart each.
//! Hand-written SVG.

use super::measure::{dir_name, Record};
use super::plan::{size_label, Plan};
use super::report::is_kernel;
use skinny_bulk::mode::{Direction, Mode};
use std::fmt::Write as _;

const WIDTH: f64 = 960.0;
const CHART_H: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 230.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
const COLORS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];

/// Text escaped for SVG/XML content and attributes.
pub fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

/// The whole SVG document. `subtitle` names the machine.
pub fn render(plan: &Plan, records: &[Record], subtitle: &str) -> String {
    let charts: Vec<_> = plan
        .modes
        .iter()
        .flat_map(|&m| plan.directions.iter().map(move |&d| (m, d)))
        .map(|(m, d)| (m, d, records.iter().filter(|r| r.mode == m && r.direction == d).collect::<Vec<_>>()))
        .filter(|(_, _, rs)| !rs.is_empty())
        .collect();
    let height = CHART_H * charts.len().max(1) as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" \
         font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    for (i, (mode, dir, recs)) in charts.iter().enumerate() {
        let fig = match mode {
            skinny_bulk::mode::Mode::Ecb => "cf. the paper's Figure 6",
            _ => "cf. the paper's Figure 7",
        };
        let title = format!("{} {} throughput, {} ({fig})", mode.name().to_uppercase(), dir_name(*dir), plan.variant);
        chart(&mut s, i as f64 * CHART_H, &title, subtitle, recs);
    }
    s.push_str("</svg>\n");
    s
}

/// One chart with its top edge at `y0`.
fn chart(s: &mut String, y0: f64, title: &str, subtitle: &str, recs: &[&Record]) {
    let (x_left, x_right) = (LEFT, WIDTH - RIGHT);
    let (y_top, y_bottom) = (y0 + TOP, y0 + CHART_H - BOTTOM);

    // Axis ranges: log2 of bytes, log10 of Gb/s, widened to whole steps.
    let bytes = recs.iter().map(|r| (r.bytes as f64).log2());
    let (mut bx0, mut bx1) = bytes.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if bx1 - bx0 < 1.0 {
        bx0 -= 1.0;
        bx1 += 1.0;
    }
    let g = recs.iter().map(|r| r.gbps()).filter(|g| g.is_finite() && *g > 0.0).map(f64::log10);
    let (gy0, gy1) = g.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    let (mut gy0, mut gy1) = if gy0.is_finite() { (gy0.floor(), gy1.ceil()) } else { (-1.0, 1.0) };
    if gy1 - gy0 < 1.0 {
        gy0 -= 1.0;
        gy1 += 1.0;
    }
    let px = |lb: f64| x_left + (lb - bx0) / (bx1 - bx0) * (x_right - x_left);
    let py = |lg: f64| y_bottom - (lg - gy0) / (gy1 - gy0) * (y_bottom - y_top);

    let _ = writeln!(s, "<g class=\"chart\">");
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">{}</text>",
        (x_left + x_right) / 2.0,
        y0 + 22.0,
        xml(title)
    );
    // Centred on the whole image, not the plot: the machine line is long.
    s.push_str(&subtitle_line(y0 + 38.0, subtitle));
    // Grid and ticks: every power of 4 bytes on x, every decade on y.
    let mut e = bx0.ceil() as i32;
    while f64::from(e) <= bx1 {
        if e % 2 == 0 {
            let x = px(f64::from(e));
            let _ = writeln!(
                s,
                "<line x1=\"{x:.1}\" y1=\"{y_top:.1}\" x2=\"{x:.1}\" y2=\"{y_bottom:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                y_bottom + 16.0,
                xml(&size_label(1usize << e.clamp(0, 62)))
            );
        }
        e += 1;
    }
    let mut d = gy0 as i32;
    while f64::from(d) <= gy1 {
        let y = py(f64::from(d));
        let _ = writeln!(
            s,
            "<line x1=\"{x_left:.1}\" y1=\"{y:.1}\" x2=\"{x_right:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            x_left - 6.0,
            y + 4.0,
            decade_label(d)
        );
        d += 1;
    }
    let _ = writeln!(
        s,
        "<rect x=\"{x_left:.1}\" y=\"{y_top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\"/>",
        x_right - x_left,
        y_bottom - y_top
    );
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">Data size (bytes, log scale)</text>",
        (x_left + x_right) / 2.0,
        y_bottom + 38.0
    );
    let _ = writeln!(
        s,
        "<text transform=\"translate({:.1},{:.1}) rotate(-90)\" text-anchor=\"middle\">Throughput (Gb/s, decimal, log scale)</text>",
        x_left - 58.0,
        (y_top + y_bottom) / 2.0
    );

    // One line per series, in the order measured.
    let mut labels: Vec<&str> = Vec::new();
    for r in recs {
        if !labels.contains(&r.label.as_str()) {
            labels.push(&r.label);
        }
    }
    for (k, label) in labels.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let mut pts: Vec<&&Record> = recs.iter().filter(|r| r.label == *label).collect();
        pts.sort_by_key(|r| r.bytes);
        let dash = if pts.first().is_some_and(|r| is_kernel(r)) { " stroke-dasharray=\"6 4\"" } else { "" };
        let path: Vec<String> = pts
            .iter()
            .filter(|r| r.gbps().is_finite() && r.gbps() > 0.0)
            .enumerate()
            .map(|(j, r)| {
                format!(
                    "{}{:.1} {:.1}",
                    if j == 0 { "M" } else { "L" },
                    px((r.bytes as f64).log2()),
                    py(r.gbps().log10())
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "<path class=\"series\" data-series=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\"{dash}/>",
            xml(label),
            path.join(" ")
        );
        for r in &pts {
            let _ = write!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{color}\"/>",
                px((r.bytes as f64).log2()),
                py(r.gbps().log10())
            );
        }
        s.push('\n');
        // Legend entry.
        let ly = y_top + 10.0 + 20.0 * k as f64;
        let lx = x_right + 16.0;
        let _ = writeln!(
            s,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{color}\" stroke-width=\"2\"{dash}/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            lx + 28.0,
            lx + 34.0,
            ly + 4.0,
            xml(label)
        );
    }
    let _ = writeln!(s, "</g>");
}

/// The machine line, centred on the image; a line too long for it (several
/// machines, a long GPU description) is squeezed to the image's width rather
/// than clipped. Width estimated at 6 px a character of 11 px text.
fn subtitle_line(y: f64, text: &str) -> String {
    let room = WIDTH - 20.0;
    let fit = if text.chars().count() as f64 * 6.0 > room {
        format!(" textLength=\"{room:.0}\" lengthAdjust=\"spacingAndGlyphs\"")
    } else {
        String::new()
    };
    format!(
        "<text x=\"{:.1}\" y=\"{y:.1}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\"{fit}>{}</text>\n",
        WIDTH / 2.0,
        xml(text)
    )
}

/// 10^d as a plain number: 0.001, 0.1, 1, 100.
fn decade_label(d: i32) -> String {
    if d >= 0 {
        format!("{}", 10f64.powi(d))
    } else {
        format!("{:.*}", (-d) as usize, 10f64.powi(d))
    }
}

/// One line of the speed-up charts: E against `cpu-serial` by size, for one
/// series (or the paper's) and one mode.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedupSeries {
    /// The series label (`gpu-paper e2e`, `paper (TITAN X)`).
    pub label: String,
    /// ECB or CTR.
    pub mode: Mode,
    /// (bytes, E) by ascending size; E from the medians.
    pub points: Vec<(usize, f64)>,
}

/// The label of the paper's own line in the speed-up charts.
pub const PAPER_LABEL: &str = "paper (GTX TITAN X, its Tables 3-4)";

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
            out.push(SpeedupSeries { label: PAPER_LABEL.into(), mode, points: pts });
        }
    }
    for r in records.iter().filter(|r| r.direction == Direction::Encrypt) {
        let Some(su) = r.vs_cpu_serial else { continue };
        if !su.speedup.is_finite() || su.speedup <= 0.0 {
            continue;
        }
        match out.iter_mut().find(|s| s.label == r.label && s.mode == r.mode) {
            Some(s) => s.points.push((r.bytes, su.speedup)),
            None => {
                out.push(SpeedupSeries { label: r.label.clone(), mode: r.mode, points: vec![(r.bytes, su.speedup)] })
            }
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

/// The lowest S drawn, in %; lower values sit on the bottom edge, hollow.
pub const S_FLOOR_PCT: f64 = -100.0;

/// The E chart (log scale) above the S chart (linear, -100 % to 100 %), each
/// with every line: one colour per series, ECB solid with dots, CTR dashed
/// with squares; the paper's in black.
pub fn render_speedups(series: &[SpeedupSeries], subtitle: &str) -> String {
    let height = CHART_H * 2.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" \
         font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    // Colours by label, the paper's black.
    let mut labels: Vec<&str> = Vec::new();
    for x in series {
        if !labels.contains(&x.label.as_str()) {
            labels.push(&x.label);
        }
    }
    let color = |label: &str| {
        if label == PAPER_LABEL {
            "#000000"
        } else {
            let k = labels.iter().filter(|l| **l != PAPER_LABEL).position(|l| *l == label).unwrap_or(0);
            COLORS[k % COLORS.len()]
        }
    };
    for (i, eff) in [false, true].into_iter().enumerate() {
        let y0 = i as f64 * CHART_H;
        let (x_left, x_right) = (LEFT, WIDTH - RIGHT);
        let (y_top, y_bottom) = (y0 + TOP, y0 + CHART_H - BOTTOM);
        let all = series.iter().flat_map(|x| x.points.iter());
        let (bx0, bx1) = all
            .clone()
            .map(|p| (p.0 as f64).log2())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        let (bx0, bx1) = if bx0.is_finite() && bx1 - bx0 >= 1.0 { (bx0, bx1) } else { (4.0, 26.0) };
        // y: log10 E widened to whole decades, or S in % from the floor to 100.
        let (ey0, ey1) =
            all.map(|p| p.1.log10()).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        let (ey0, ey1) = if ey0.is_finite() { (ey0.floor(), ey1.ceil().max(ey0.floor() + 1.0)) } else { (-1.0, 1.0) };
        let (vy0, vy1) = if eff { (S_FLOOR_PCT, 100.0) } else { (ey0, ey1) };
        let value = |e: f64| if eff { efficiency_pct(e).max(S_FLOOR_PCT) } else { e.log10() };
        let px = |lb: f64| x_left + (lb - bx0) / (bx1 - bx0) * (x_right - x_left);
        let py = |v: f64| y_bottom - (v - vy0) / (vy1 - vy0) * (y_bottom - y_top);
        let title = if eff {
            "Efficiency S = (Tcpu - T) / Tcpu against one CPU core (cpu-serial), ECB and CTR encryption"
        } else {
            "Speed-up E = Tcpu / T against one CPU core (cpu-serial), ECB and CTR encryption"
        };
        let _ = writeln!(s, "<g class=\"chart\" data-chart=\"{}\">", if eff { "S" } else { "E" });
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{}</text>",
            WIDTH / 2.0,
            y0 + 22.0,
            xml(title)
        );
        s.push_str(&subtitle_line(y0 + 38.0, subtitle));
        let mut e = bx0.ceil() as i32;
        while f64::from(e) <= bx1 {
            if e % 2 == 0 {
                let x = px(f64::from(e));
                let _ = writeln!(
                    s,
                    "<line x1=\"{x:.1}\" y1=\"{y_top:.1}\" x2=\"{x:.1}\" y2=\"{y_bottom:.1}\" stroke=\"#ddd\"/>\
                     <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                    y_bottom + 16.0,
                    xml(&size_label(1usize << e.clamp(0, 62)))
                );
            }
            e += 1;
        }
        let ticks: Vec<(f64, String)> = if eff {
            (0..=8).map(|k| S_FLOOR_PCT + 25.0 * f64::from(k)).map(|v| (v, format!("{v:.0} %"))).collect()
        } else {
            (ey0 as i32..=ey1 as i32).map(|d| (f64::from(d), decade_label(d))).collect()
        };
        for (v, text) in ticks {
            let y = py(v);
            // Break-even, darker: E = 1 (log 0) and S = 0 %.
            let stroke = if v == 0.0 { "#999" } else { "#ddd" };
            let _ = writeln!(
                s,
                "<line x1=\"{x_left:.1}\" y1=\"{y:.1}\" x2=\"{x_right:.1}\" y2=\"{y:.1}\" stroke=\"{stroke}\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                x_left - 6.0,
                y + 4.0,
                xml(&text)
            );
        }
        let _ = writeln!(
            s,
            "<rect x=\"{x_left:.1}\" y=\"{y_top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\"/>",
            x_right - x_left,
            y_bottom - y_top
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">Data size (bytes, log scale){}</text>",
            (x_left + x_right) / 2.0,
            y_bottom + 38.0,
            if eff { "; hollow points: below -100 %, drawn on the edge" } else { "" }
        );
        let _ = writeln!(
            s,
            "<text transform=\"translate({:.1},{:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            x_left - 58.0,
            (y_top + y_bottom) / 2.0,
            if eff { "Efficiency S (%)" } else { "Speed-up E (log scale; 1 = as fast as one core)" }
        );
        for x in series {
            let c = color(&x.label);
            let ctr = x.mode != Mode::Ecb;
            let dash = if ctr { " stroke-dasharray=\"6 4\"" } else { "" };
            let path: Vec<String> = x
                .points
                .iter()
                .enumerate()
                .map(|(j, &(b, e))| {
                    format!("{}{:.1} {:.1}", if j == 0 { "M" } else { "L" }, px((b as f64).log2()), py(value(e)))
                })
                .collect();
            let _ = writeln!(
                s,
                "<path class=\"series\" data-series=\"{} {}\" d=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"{}\"{dash}/>",
                xml(&x.label),
                x.mode.name(),
                path.join(" "),
                if x.label == PAPER_LABEL { "2.5" } else { "1.8" }
            );
            for &(b, e) in &x.points {
                let (cx, cy) = (px((b as f64).log2()), py(value(e)));
                let clipped = eff && efficiency_pct(e) < S_FLOOR_PCT;
                let fill = if clipped { "white" } else { c };
                if ctr {
                    let _ = write!(
                        s,
                        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"5\" height=\"5\" fill=\"{fill}\" stroke=\"{c}\"/>",
                        cx - 2.5,
                        cy - 2.5
                    );
                } else {
                    let _ =
                        write!(s, "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"2.8\" fill=\"{fill}\" stroke=\"{c}\"/>");
                }
            }
            s.push('\n');
        }
        // Legend: colours by series, then the two modes' strokes.
        let lx = x_right + 14.0;
        let mut ly = y_top + 10.0;
        for label in &labels {
            let c = color(label);
            let _ = writeln!(
                s,
                "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{}</text>",
                lx + 24.0,
                lx + 30.0,
                ly + 4.0,
                xml(label)
            );
            ly += 18.0;
        }
        for (name, dash) in [("ECB: solid, dots", ""), ("CTR: dashed, squares", " stroke-dasharray=\"6 4\"")] {
            let _ = writeln!(
                s,
                "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"#555\" stroke-width=\"2\"{dash}/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{name}</text>",
                lx + 24.0,
                lx + 30.0,
                ly + 4.0
            );
            ly += 18.0;
        }
        let _ = writeln!(s, "</g>");
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(label: &str, mode: Mode, bytes: usize, e: Option<f64>) -> Record {
        Record {
            variant: "skinny-128-256",
            mode,
            direction: Direction::Encrypt,
            backend: "gpu-paper",
            label: label.into(),
            timing: super::super::measure::Timing::Cold,
            bytes,
            reps: 1,
            times_ms: vec![1.0],
            warmup_ms: None,
            vs_cpu_serial: e.map(|e| super::super::measure::SpeedUp::of(e, 1.0)),
            vs_cpu: None,
            vs_cpu_serial_mean: None,
            vs_cpu_mean: None,
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
        // S = 1 - 1/E: E 0.25 is -300 %, drawn hollow on the -100 % edge.
        assert!((efficiency_pct(0.25) + 300.0).abs() < 1e-9);
        assert!((efficiency_pct(8.0) - 87.5).abs() < 1e-9);
        let svg = render_speedups(&s, "machine <x>");
        assert_eq!(svg.matches("<g class=\"chart\"").count(), 2);
        assert_eq!(svg.matches("class=\"series\"").count(), 2 * 3);
        assert!(svg.contains("data-series=\"gpu-paper cold ctr\""));
        assert!(svg.contains("machine &lt;x&gt;"));
        // A short machine line as it is, a long one squeezed to the width.
        assert!(!subtitle_line(10.0, "short").contains("textLength"));
        assert!(subtitle_line(10.0, &"x".repeat(200)).contains("textLength=\"940\""));
        // Below the S floor: E 0.25 (ECB) and the paper's 0.3 (CTR), -300 % and -233 %.
        assert_eq!(svg.matches("fill=\"white\" stroke").count(), 2);
    }

    #[test]
    fn escapes_and_decades() {
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(decade_label(-3), "0.001");
        assert_eq!(decade_label(0), "1");
        assert_eq!(decade_label(2), "100");
    }
}
