//! The progress bar of long commands, on stderr.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A bar over `len` bytes when the input size is known, else a spinner with the
/// bytes done. Hidden when `quiet` or when stderr is not a terminal, so scripts
/// and logs never see it.
pub fn bar(len: Option<u64>, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match len {
        Some(n) => (
            ProgressBar::new(n),
            "{spinner} [{elapsed_precise}] {wide_bar} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta}",
        ),
        None => (ProgressBar::new_spinner(), "{spinner} [{elapsed_precise}] {binary_bytes} {binary_bytes_per_sec}"),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
