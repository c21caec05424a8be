//! A running experiment watched: the progress bar (rate and ETA, on a
//! terminal's stderr only), and Ctrl-C or SIGTERM turned into a stop request
//! so that the partial result is printed, then the signal's exit status.

use super::error::LabCommandError;
use skinny_lab::{Common, Control, Findings};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The signal (SIGINT or SIGTERM) that interrupted an experiment, 0 if none.
static INTERRUPT: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_interrupt(signal: libc::c_int) {
    // Async-signal-safe: one atomic store; the watcher thread does the rest.
    INTERRUPT.store(signal, Ordering::Relaxed);
}

/// Ctrl-C and SIGTERM stop the experiment instead of the process, so that the
/// partial result is printed (signals the parent set to be ignored stay so).
fn catch_interrupts() {
    crate::signals::catch(&[libc::SIGINT, libc::SIGTERM], on_interrupt);
}

/// Whether the progress bar may be drawn: not under `--json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bar {
    /// On a terminal's stderr.
    WhereSeen,
    /// Never.
    Hidden,
}

/// Runs `work` with a [`Control`] watched by a thread that draws the progress
/// bar over `common`'s shard and turns an interrupt into a stop request.
pub(super) fn watched<T: Send>(bar: Bar, common: &Common, work: impl FnOnce(&Control) -> T + Send) -> T {
    catch_interrupts();
    let control = Control::new();
    let queries = common.shard_queries();
    let planned = queries.end - queries.start;
    let bar = if bar == Bar::WhereSeen && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(planned);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} queries, {per_sec}, eta {eta}",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let finished = AtomicBool::new(false);
    let result = std::thread::scope(|sc| {
        sc.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if INTERRUPT.load(Ordering::Relaxed) != 0 {
                    control.stop();
                }
                bar.set_position(control.done());
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        });
        let r = work(&control);
        finished.store(true, Ordering::Relaxed);
        r
    });
    bar.finish_and_clear();
    result
}

/// After the findings of an interrupted run: one line and the conventional
/// status of a run stopped by Ctrl-C.
pub(super) fn interrupted(f: &Findings) -> Result<(), LabCommandError> {
    if f.interrupted {
        let signal = match INTERRUPT.load(Ordering::Relaxed) {
            0 => libc::SIGINT,
            s => s,
        };
        return Err(LabCommandError::Interrupted { queries: f.queries, total: f.queries_total, signal });
    }
    Ok(())
}
