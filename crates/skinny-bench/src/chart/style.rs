//! How a series looks: a colour of its own, a marker and a dash pattern, so
//! that lines stay apart in grey print and for colour-blind readers too.

use super::svg::xml;
use crate::timing::Timing;
use std::fmt::Write as _;

/// Twelve colours that stay apart on white: the colour-blind-safe Okabe-Ito
/// hues without its yellow, and darker ones of Paul Tol's schemes, ordered so
/// that neighbours differ in hue (the first nine: the paper's run without its
/// grey baseline). More than the ten series any run has today.
pub const PALETTE: [&str; 12] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#882255", "#56B4E9", "#999933", "#332288", "#117733",
    "#AA4499", "#44AA99",
];

/// The colour of the single-core baseline every speed-up is measured against.
pub const BASELINE_COLOR: &str = "#666666";
/// The colour of the paper's own figures.
pub const PAPER_COLOR: &str = "#000000";

/// A point's marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// A disc.
    Circle,
    /// A square.
    Square,
    /// A triangle, point up.
    TriangleUp,
    /// A square on its corner.
    Diamond,
    /// A triangle, point down.
    TriangleDown,
}

impl Marker {
    /// The marker of a timing's series: e2e discs, kernel squares, pageable
    /// triangles, cold diamonds.
    pub fn of(t: Timing) -> Self {
        match t {
            Timing::EndToEnd => Marker::Circle,
            Timing::Kernel => Marker::Square,
            Timing::Pageable => Marker::TriangleUp,
            Timing::Cold => Marker::Diamond,
        }
    }

    /// The marker centred on (x, y), about 6 px across.
    pub fn svg(self, s: &mut String, x: f64, y: f64, fill: &str, stroke: &str) {
        let r = 3.0;
        let _ = match self {
            Marker::Circle => write!(s, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r}\" fill=\"{fill}\" stroke=\"{stroke}\"/>"),
            Marker::Square => write!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"5.4\" height=\"5.4\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
                x - 2.7,
                y - 2.7
            ),
            Marker::TriangleUp | Marker::TriangleDown => {
                let d = if self == Marker::TriangleUp { 1.0 } else { -1.0 };
                write!(
                    s,
                    "<path d=\"M{x:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
                    y - d * 3.6,
                    x + 3.4,
                    y + d * 2.6,
                    x - 3.4,
                    y + d * 2.6
                )
            }
            Marker::Diamond => write!(
                s,
                "<path d=\"M{x:.1} {:.1}L{:.1} {y:.1}L{x:.1} {:.1}L{:.1} {y:.1}Z\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
                y - 3.8,
                x + 3.8,
                y + 3.8,
                x - 3.8
            ),
        };
    }
}

/// A line's dash pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// Unbroken.
    Solid,
    /// Long dashes.
    Dashed,
    /// Dots.
    Dotted,
    /// Dash and dot.
    DashDot,
}

impl Stroke {
    /// The dash of a timing's series in a chart of one mode: e2e solid,
    /// kernel dashed, pageable dotted, cold dash-dot.
    pub fn of(t: Timing) -> Self {
        match t {
            Timing::EndToEnd => Stroke::Solid,
            Timing::Kernel => Stroke::Dashed,
            Timing::Pageable => Stroke::Dotted,
            Timing::Cold => Stroke::DashDot,
        }
    }

    /// The attribute (with its leading space), or nothing for a solid line.
    pub fn attr(self) -> &'static str {
        match self {
            Stroke::Solid => "",
            Stroke::Dashed => " stroke-dasharray=\"6 4\"",
            Stroke::Dotted => " stroke-dasharray=\"1.5 3\" stroke-linecap=\"round\"",
            Stroke::DashDot => " stroke-dasharray=\"8 3 1.5 3\"",
        }
    }
}

/// One series' look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Line and marker colour.
    pub color: &'static str,
    /// The points' marker.
    pub marker: Marker,
    /// The line's dashes.
    pub dash: Stroke,
    /// The line's width, px.
    pub width: f64,
}

/// How a point's marker is filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// In the series' colour.
    Solid,
    /// White: the point lies beyond the axis and is drawn on its edge.
    Hollow,
}

/// A point of a series, in px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Across.
    pub x: f64,
    /// Down.
    pub y: f64,
    /// Its marker's fill.
    pub fill: Fill,
}

impl Style {
    /// One series: the line through `points` (`name` in its `data-series`,
    /// for readers of the SVG), then a marker on each point.
    pub fn series(&self, s: &mut String, name: &str, points: &[Point]) {
        let path: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(j, p)| format!("{}{:.1} {:.1}", if j == 0 { "M" } else { "L" }, p.x, p.y))
            .collect();
        let _ = writeln!(
            s,
            "<path class=\"series\" data-series=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{}/>",
            xml(name),
            path.join(" "),
            self.color,
            self.width,
            self.dash.attr()
        );
        for p in points {
            let fill = if p.fill == Fill::Hollow { "white" } else { self.color };
            self.marker.svg(s, p.x, p.y, fill, self.color);
        }
        s.push('\n');
    }
}

/// Colours by series label: some labels have fixed colours (the baseline, the
/// paper), the others take the palette in the order given, so the same run
/// gets the same colours in every chart.
pub struct Colors<'a> {
    order: Vec<&'a str>,
    fixed: &'a [(&'a str, &'static str)],
}

impl<'a> Colors<'a> {
    /// The colours of `labels` (in their order), `fixed` ones aside.
    pub fn new(labels: impl IntoIterator<Item = &'a str>, fixed: &'a [(&'a str, &'static str)]) -> Self {
        let mut order: Vec<&str> = Vec::new();
        for l in labels {
            if !order.contains(&l) && !fixed.iter().any(|(f, _)| *f == l) {
                order.push(l);
            }
        }
        Self { order, fixed }
    }

    /// The colour of `label`: fixed, or the palette's next.
    pub fn of(&self, label: &str) -> &'static str {
        if let Some((_, c)) = self.fixed.iter().find(|(f, _)| *f == label) {
            return c;
        }
        let k = self.order.iter().position(|l| *l == label).unwrap_or(self.order.len());
        PALETTE[k % PALETTE.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_series_get_ten_colours_and_the_fixed_ones_keep_theirs() {
        let labels: Vec<String> = (0..10).map(|i| format!("s{i}")).collect();
        let fixed = [("cpu-serial", BASELINE_COLOR)];
        let colors = Colors::new(labels.iter().map(String::as_str).chain(["cpu-serial"]), &fixed);
        let mut seen: Vec<&str> = labels.iter().map(|l| colors.of(l)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 10);
        assert_eq!(colors.of("cpu-serial"), BASELINE_COLOR);
        assert!(!PALETTE.contains(&BASELINE_COLOR) && !PALETTE.contains(&PAPER_COLOR));
    }

    #[test]
    fn timings_differ_in_marker_and_dash() {
        for (i, a) in Timing::ALL.into_iter().enumerate() {
            for b in Timing::ALL.into_iter().skip(i + 1) {
                assert_ne!(Marker::of(a), Marker::of(b));
                assert_ne!(Stroke::of(a), Stroke::of(b));
            }
        }
        let mut s = String::new();
        for m in [Marker::Circle, Marker::Square, Marker::TriangleUp, Marker::Diamond, Marker::TriangleDown] {
            m.svg(&mut s, 10.0, 10.0, "white", "#000");
        }
        assert_eq!(s.matches("fill=\"white\" stroke=\"#000\"").count(), 5, "{s}");
    }
}
