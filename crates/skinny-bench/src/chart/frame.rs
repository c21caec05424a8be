//! One chart's frame: its place in the document (title, plot, legend), the
//! log-scale size axis, a value axis, grid, ticks and axis titles.

use super::legend::{Legend, Placement};
use super::svg::{text_width, xml, MARGIN, WIDTH};
use crate::size::size_label;
use std::fmt::Write as _;

/// The height of one chart without a legend below it, px.
pub const CHART_H: f64 = 440.0;
/// The plot's left edge (room for the value axis' labels and title), px.
const LEFT: f64 = 80.0;
/// From the chart's top to the plot's (room for the title), px.
const TOP: f64 = 44.0;
/// From the plot's bottom to the chart's (the size axis' labels and title), px.
const BOTTOM: f64 = 60.0;

/// A tick on the value axis.
pub struct Tick {
    /// Where, in the axis' units.
    pub value: f64,
    /// Its label.
    pub label: String,
    /// A darker grid line (break-even).
    pub strong: bool,
}

/// A laid-out chart: the plot's edges, the axes' ranges, the legend's place.
pub struct Frame {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
    /// log2 of the smallest and largest size.
    x: (f64, f64),
    /// The value axis' range (already in its scale: log10 or linear).
    y: (f64, f64),
    /// Where the legend goes.
    pub legend: Placement,
    /// The chart's whole height, legend included.
    pub height: f64,
}

impl Frame {
    /// A chart with its top edge at `y0`, the plot sized around `legend`,
    /// sizes from `sizes` (log2, at least one doubling wide) and values in `y`.
    pub fn new(y0: f64, legend: &Legend, sizes: impl Iterator<Item = usize>, y: (f64, f64)) -> Self {
        let (top, bottom) = (y0 + TOP, y0 + CHART_H - BOTTOM);
        let (right, legend_at, height) = match legend.beside(top, bottom - top) {
            Some((right, at)) => (right, at, CHART_H),
            None => {
                let (at, h) = legend.below(LEFT, bottom + 50.0);
                (WIDTH - MARGIN - 20.0, at, CHART_H + h + 4.0)
            }
        };
        let (mut x0, mut x1) =
            sizes.map(|b| (b as f64).log2()).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        if !x0.is_finite() {
            (x0, x1) = (4.0, 26.0);
        } else if x1 - x0 < 1.0 {
            (x0, x1) = (x0 - 1.0, x1 + 1.0);
        }
        Self { left: LEFT, right, top, bottom, x: (x0, x1), y, legend: legend_at, height }
    }

    /// The x of a size.
    pub fn px(&self, bytes: usize) -> f64 {
        self.left + ((bytes as f64).log2() - self.x.0) / (self.x.1 - self.x.0) * (self.right - self.left)
    }

    /// The y of a value (in the axis' scale).
    pub fn py(&self, v: f64) -> f64 {
        self.bottom - (v - self.y.0) / (self.y.1 - self.y.0) * (self.bottom - self.top)
    }

    /// The title, bold, `size` px (smaller when it would not fit the
    /// document), centred on the plot, or as near it as keeps it inside.
    pub fn title(&self, s: &mut String, y0: f64, text: &str, size: f64) {
        let room = WIDTH - 2.0 * MARGIN;
        // Bold is about a tenth wider than the estimate.
        let mut size = size;
        while size > 9.0 && text_width(text, size) * 1.1 > room {
            size -= 0.5;
        }
        let half = (text_width(text, size) * 1.1 / 2.0).min(room / 2.0);
        let x = ((self.left + self.right) / 2.0).clamp(MARGIN + half, WIDTH - MARGIN - half);
        let _ = writeln!(
            s,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"{size}\" font-weight=\"bold\">{}</text>",
            y0 + 24.0,
            xml(text)
        );
    }

    /// Grid, ticks and the frame: every power of 4 bytes on the size axis,
    /// `ticks` on the value axis; then the axis titles.
    pub fn axes(&self, s: &mut String, ticks: &[Tick], x_title: &str, y_title: &str) {
        let (l, r, t, b) = (self.left, self.right, self.top, self.bottom);
        let mut e = self.x.0.ceil() as i32;
        while f64::from(e) <= self.x.1 {
            if e % 2 == 0 {
                let bytes = 1usize << e.clamp(0, 62);
                let x = self.px(bytes);
                let _ = writeln!(
                    s,
                    "<line x1=\"{x:.1}\" y1=\"{t:.1}\" x2=\"{x:.1}\" y2=\"{b:.1}\" stroke=\"#ddd\"/>\
                     <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                    b + 16.0,
                    xml(&size_label(bytes))
                );
            }
            e += 1;
        }
        for tick in ticks {
            let y = self.py(tick.value);
            let stroke = if tick.strong { "#999" } else { "#ddd" };
            let _ = writeln!(
                s,
                "<line x1=\"{l:.1}\" y1=\"{y:.1}\" x2=\"{r:.1}\" y2=\"{y:.1}\" stroke=\"{stroke}\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                l - 6.0,
                y + 4.0,
                xml(&tick.label)
            );
        }
        let _ = writeln!(
            s,
            "<rect x=\"{l:.1}\" y=\"{t:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\"/>",
            r - l,
            b - t
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            (l + r) / 2.0,
            b + 38.0,
            xml(x_title)
        );
        let _ = writeln!(
            s,
            "<text transform=\"translate({:.1},{:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            l - 58.0,
            (t + b) / 2.0,
            xml(y_title)
        );
    }
}

/// Whole decades from `lo` to `hi` (log10 values) as ticks: 0.001, 1, 100.
pub fn decades(lo: f64, hi: f64) -> Vec<Tick> {
    (lo as i32..=hi as i32).map(|d| Tick { value: f64::from(d), label: decade_label(d), strong: d == 0 }).collect()
}

/// The range of log10 of `values` (positive, finite ones), widened to whole
/// decades, at least one wide.
pub fn decade_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(f64::log10)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    let (lo, hi) = (lo.floor(), hi.ceil());
    if hi - lo < 1.0 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    }
}

/// 10^d as a plain number: 0.001, 0.1, 1, 100.
pub fn decade_label(d: i32) -> String {
    if d >= 0 {
        format!("{}", 10f64.powi(d))
    } else {
        format!("{:.*}", (-d) as usize, 10f64.powi(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::legend::Entry;
    use crate::chart::style::{Marker, Stroke};

    #[test]
    fn titles_stay_inside_the_document() {
        let entry = Entry {
            label: "paper (GTX TITAN X, its Tables 3-4)".into(),
            color: "#000",
            dash: Stroke::Solid,
            marker: Some(Marker::Circle),
            width: 2.0,
        };
        let frame = Frame::new(0.0, &Legend::new(vec![entry]), [16, 64 << 20].into_iter(), (0.0, 1.0));
        for title in ["Short", &"A long title that would run past the left edge if centred on the plot ".repeat(2)] {
            let mut s = String::new();
            frame.title(&mut s, 0.0, title, 15.0);
            let attr = |name: &str| -> f64 {
                s.split(&format!(" {name}=\"")).nth(1).unwrap().split('"').next().unwrap().parse().unwrap()
            };
            let (x, size) = (attr("x"), attr("font-size"));
            let half = text_width(title, size) * 1.1 / 2.0;
            // x is written to a tenth of a pixel.
            assert!(x - half >= MARGIN - 0.05 && x + half <= WIDTH - MARGIN + 0.05, "{s}");
        }
    }

    #[test]
    fn decades_and_ranges() {
        assert_eq!(decade_label(-3), "0.001");
        assert_eq!(decade_label(0), "1");
        assert_eq!(decade_label(2), "100");
        assert_eq!(decade_range([0.05, 30.0].into_iter()), (-2.0, 2.0));
        assert_eq!(decade_range([1.0].into_iter()), (-1.0, 1.0));
        assert_eq!(decade_range([f64::NAN, 0.0].into_iter()), (-1.0, 1.0));
        let t = decades(-1.0, 1.0);
        assert_eq!(t.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(), ["0.1", "1", "10"]);
        assert!(t[1].strong && !t[0].strong);
    }
}
