//! Throughput against size as SVG, like the paper's Figures 6 (ECB) and 7 (CTR):
//! one chart per mode and direction, stacked; log-scale size and throughput
//! axes; one line per backend and timing; a legend. Hand-written SVG.

use super::measure::{dir_name, Record};
use super::plan::{size_label, Plan};
use super::report::is_kernel;
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
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#555\">{}</text>",
        // Centred on the whole image, not the plot: the machine line is long.
        WIDTH / 2.0,
        y0 + 38.0,
        xml(subtitle)
    );
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

/// 10^d as a plain number: 0.001, 0.1, 1, 100.
fn decade_label(d: i32) -> String {
    if d >= 0 {
        format!("{}", 10f64.powi(d))
    } else {
        format!("{:.*}", (-d) as usize, 10f64.powi(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_decades() {
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(decade_label(-3), "0.001");
        assert_eq!(decade_label(0), "1");
        assert_eq!(decade_label(2), "100");
    }
}
