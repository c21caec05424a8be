//! The charts, as SVG documents: throughput against size (the paper's
//! Figures 6 and 7) and the speed-up and efficiency against one CPU core.
//!
//! Written by hand rather than with a plotting crate; see the crate's
//! documentation for why. Every chart keeps to the document's width: the
//! machine caption is wrapped into as many lines as it needs, each series has
//! a colour of its own (twelve before any repeats) and a marker and dash
//! pattern by timing, and the legend is sized from its text and placed beside
//! the plot when it fits there, below it otherwise.

mod frame;
mod legend;
mod speedup;
mod style;
mod svg;
mod throughput;

pub use speedup::{efficiency_pct, speedup_series, speedups, SpeedupSeries, PAPER_LABEL, S_FLOOR_PCT};
pub use style::PALETTE;
pub use svg::{text_width, wrap, xml, WIDTH};
pub use throughput::throughput;

// The pieces the scheme series' chart (`scheme::chart`) draws with.
pub(crate) use frame::CHART_H;
pub(crate) use style::{Colors, Marker, Stroke, Style};
pub(crate) use svg::{caption, document};
pub(crate) use throughput::{log_chart, Axis, Line};
