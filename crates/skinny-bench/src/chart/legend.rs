//! The legend: sized from its own text, and placed where it fits, beside the
//! plot when it is narrow enough, else below it in as many columns as fit.

use super::style::{Marker, Stroke};
use super::svg::{text_width, xml, MARGIN, WIDTH};
use std::fmt::Write as _;

/// Legend text size, px.
const FONT: f64 = 11.0;
/// One entry's height, px.
const ROW: f64 = 18.0;
/// The sample line before each label, px.
const SWATCH: f64 = 30.0;
/// Between the sample and the label, px.
const LABEL_GAP: f64 = 6.0;
/// Inside the legend's box, px.
const PAD: f64 = 8.0;
/// Between columns, px.
const COLUMN_GAP: f64 = 18.0;
/// The widest legend kept beside the plot: a wider one would leave the plot
/// too narrow, and goes below it.
const MAX_BESIDE: f64 = 320.0;

/// One legend entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The text.
    pub label: String,
    /// The sample line's colour.
    pub color: &'static str,
    /// Its dashes.
    pub dash: Stroke,
    /// The marker on it, if the series has one.
    pub marker: Option<Marker>,
    /// Its width, px.
    pub width: f64,
}

/// The entries, with the width the longest needs.
pub struct Legend {
    entries: Vec<Entry>,
    entry_width: f64,
}

/// Where a legend goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placement {
    /// To the right of the plot, one column, top-left corner at (x, y).
    Beside {
        /// Left edge.
        x: f64,
        /// Top edge.
        y: f64,
    },
    /// Under the plot, in columns, top-left corner at (x, y).
    Below {
        /// Left edge.
        x: f64,
        /// Top edge.
        y: f64,
        /// Columns.
        columns: usize,
    },
}

impl Legend {
    /// A legend of `entries`.
    pub fn new(entries: Vec<Entry>) -> Self {
        let text = entries.iter().map(|e| text_width(&e.label, FONT)).fold(0.0, f64::max);
        Self { entries, entry_width: SWATCH + LABEL_GAP + text }
    }

    /// The box's width in `columns` columns.
    pub fn width(&self, columns: usize) -> f64 {
        let c = columns.max(1) as f64;
        c * self.entry_width + (c - 1.0) * COLUMN_GAP + 2.0 * PAD
    }

    /// The box's height in `columns` columns.
    pub fn height(&self, columns: usize) -> f64 {
        let rows = self.entries.len().div_ceil(columns.max(1));
        rows as f64 * ROW + 2.0 * PAD - (ROW - FONT - 1.0)
    }

    /// Beside the plot if it fits there (no wider than [`MAX_BESIDE`], no
    /// taller than the plot): the plot's right edge and the placement, else
    /// None.
    pub fn beside(&self, plot_top: f64, plot_height: f64) -> Option<(f64, Placement)> {
        let w = self.width(1);
        if w > MAX_BESIDE || self.height(1) > plot_height {
            return None;
        }
        let x = WIDTH - MARGIN - w;
        Some((x - COLUMN_GAP, Placement::Beside { x, y: plot_top }))
    }

    /// Below, from `left`, with its top at `y`: as many columns as the
    /// document's width holds. Returns the placement and the box's height.
    pub fn below(&self, left: f64, y: f64) -> (Placement, f64) {
        let room = WIDTH - MARGIN - left;
        let columns = (((room - 2.0 * PAD + COLUMN_GAP) / (self.entry_width + COLUMN_GAP)).floor() as usize)
            .clamp(1, self.entries.len().max(1));
        (Placement::Below { x: left, y, columns }, self.height(columns))
    }

    /// Draws the legend at `at`.
    pub fn draw(&self, s: &mut String, at: Placement) {
        let (x0, y0, columns) = match at {
            Placement::Beside { x, y } => (x, y, 1),
            Placement::Below { x, y, columns } => (x, y, columns),
        };
        let rows = self.entries.len().div_ceil(columns.max(1)).max(1);
        let _ = writeln!(s, "<g class=\"legend\" font-size=\"{FONT}\">");
        let _ = writeln!(
            s,
            "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#ccc\"/>",
            self.width(columns),
            self.height(columns)
        );
        for (i, e) in self.entries.iter().enumerate() {
            let (col, row) = (i / rows, i % rows);
            let x = x0 + PAD + col as f64 * (self.entry_width + COLUMN_GAP);
            let y = y0 + PAD + FONT / 2.0 + row as f64 * ROW;
            let _ = write!(
                s,
                "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\" stroke-width=\"{}\"{}/>",
                x + SWATCH,
                e.color,
                e.width,
                e.dash.attr()
            );
            if let Some(m) = e.marker {
                m.svg(s, x + SWATCH / 2.0, y, e.color, e.color);
            }
            let _ =
                writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>", x + SWATCH + LABEL_GAP, y + 4.0, xml(&e.label));
        }
        s.push_str("</g>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(label: &str) -> Entry {
        Entry { label: label.into(), color: "#000", dash: Stroke::Solid, marker: Some(Marker::Circle), width: 2.0 }
    }

    #[test]
    fn sized_from_its_text_and_kept_inside_the_document() {
        let short = Legend::new(vec![entry("cpu"), entry("gpu kernel")]);
        let long = Legend::new(vec![entry("paper (GTX TITAN X, its Tables 3-4)"), entry("cpu")]);
        assert!(long.width(1) > short.width(1) + 100.0);
        for l in [&short, &long] {
            let (right, at) = l.beside(50.0, 300.0).expect("fits beside");
            let Placement::Beside { x, .. } = at else { panic!("beside") };
            assert!(right < x && x + l.width(1) <= WIDTH - MARGIN + 1e-9);
        }
        // Too wide to stand beside: below, in columns within the width.
        let wide = Legend::new(
            (0..9)
                .map(|i| entry(&format!("a series with a name far too long to stand beside the plot, number {i}")))
                .collect(),
        );
        assert!(wide.beside(50.0, 300.0).is_none());
        let (at, h) = wide.below(80.0, 400.0);
        let Placement::Below { x, columns, .. } = at else { panic!("below") };
        assert_eq!(h, wide.height(columns));
        assert!(columns >= 1 && x + wide.width(columns) <= WIDTH - MARGIN + 1e-9, "{columns}");
        // Too tall: below as well.
        let tall = Legend::new((0..30).map(|i| entry(&format!("s{i}"))).collect());
        assert!(tall.beside(50.0, 300.0).is_none());
        let mut s = String::new();
        tall.draw(&mut s, tall.below(80.0, 400.0).0);
        assert_eq!(s.matches("<text ").count(), 30);
    }
}
