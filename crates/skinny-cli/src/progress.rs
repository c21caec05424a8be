//! The progress bar of long commands, on stderr.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A bar over `len` bytes when the input size is known, else a spinner with the
/// bytes done. Hidden when `quiet` or when stderr is not a terminal, so scripts
/// and logs never see it, and when the output itself goes to a terminal
/// (`output_to_stdout` with `--force`): the bar would be drawn over it.
pub fn bar(len: Option<u64>, quiet: bool, output_to_stdout: bool) -> ProgressBar {
    let stdout_is_terminal = output_to_stdout && std::io::stdout().is_terminal();
    if !visible(quiet, std::io::stderr().is_terminal(), stdout_is_terminal) {
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

/// Whether to draw: asked for, on a terminal, and not on top of the output.
fn visible(quiet: bool, stderr_is_terminal: bool, output_on_terminal: bool) -> bool {
    !quiet && stderr_is_terminal && !output_on_terminal
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_bar_over_output_on_the_terminal() {
        assert!(super::visible(false, true, false));
        assert!(!super::visible(false, true, true));
        assert!(!super::visible(true, true, false));
        assert!(!super::visible(false, false, false));
    }
}
