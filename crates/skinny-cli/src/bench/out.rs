//! Where `skinny bench` puts things: the tables on stdout (a failure kept for
//! the end), the progress bar and notices on stderr, and files written all at
//! once.

use super::error::BenchCommandError;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use skinny_bench::{Observer, Skipped};
use std::io::{self, IsTerminal, Write};
use std::path::Path;

/// Stdout for the tables: the first write error is kept, and later writes are
/// skipped, so a closed pipe or a full disk never stops the run before its
/// files are written; [`Stdout::result`] reports it.
#[derive(Default)]
pub struct Stdout {
    failed: Option<io::Error>,
}

impl Stdout {
    pub fn print(&mut self, text: &str) {
        if self.failed.is_none() {
            let mut out = io::stdout().lock();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                self.failed = Some(e);
            }
        }
    }

    pub fn result(&mut self) -> Result<(), BenchCommandError> {
        self.failed.take().map_or(Ok(()), |e| Err(BenchCommandError::Output(e)))
    }
}

/// The progress bar on stderr, hidden when stderr is not a terminal or with -q;
/// notices go above it.
pub struct Bar(ProgressBar);

impl Bar {
    pub fn new(len: u64, quiet: bool) -> Self {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(len), target);
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} [{elapsed_precise}] {msg}") {
            bar.set_style(style);
        }
        Self(bar)
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Observer for Bar {
    fn start(&mut self, what: &str) {
        self.0.set_message(what.to_string());
    }
    fn done(&mut self) {
        self.0.inc(1);
    }
    fn notice(&mut self, line: &str) {
        // Visible whether or not the bar is drawn.
        self.0.suspend(|| notice(line));
    }
}

/// One line on stderr; a full or closed stderr must not stop (or panic) the
/// measurement.
fn notice(line: &str) {
    let _ = writeln!(io::stderr(), "skinny: bench: {line}");
}

/// Says which backends are left out.
pub fn tell_skipped(skipped: &[Skipped]) {
    for s in skipped {
        notice(&format!("skipping {}: {}", s.backend, s.reason));
    }
}

/// Refuses an SVG output path with another extension.
pub fn check_svg(p: &Path, option: &'static str) -> Result<(), BenchCommandError> {
    check_output(p)?;
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if ext != "svg" {
        return Err(BenchCommandError::NotSvg { option, path: p.to_path_buf() });
    }
    Ok(())
}

/// Refuses, before any timing, an output whose folder does not exist or that is a
/// folder itself.
pub fn check_output(p: &Path) -> Result<(), BenchCommandError> {
    if p.is_dir() {
        return Err(BenchCommandError::IsFolder { path: p.to_path_buf() });
    }
    let parent = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(BenchCommandError::NoFolder { path: p.to_path_buf(), folder: parent.to_path_buf() });
    }
    Ok(())
}

/// Writes an output file all at once (see [`crate::atomic`]).
pub fn write_atomic(p: &Path, bytes: &[u8]) -> Result<(), BenchCommandError> {
    crate::atomic::write_atomically(p, bytes)
        .map_err(|source| BenchCommandError::Write { path: p.to_path_buf(), source })
}
