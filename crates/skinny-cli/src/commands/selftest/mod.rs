//! `skinny selftest`: the specification's vectors, the schemes' known answers
//! (AEAD, Romulus, hashes; single messages and the many-message engine on every
//! path here), then random cross-checks of every backend usable here against
//! the portable one (`cpu-serial`).
//!
//! The cross-checks go through the streaming [`Processor`](skinny_bulk::mode::Processor),
//! fed in random pieces, so they also cover the chaining across calls that
//! `encrypt`/`decrypt` rely on. This runs the checks and prints their report;
//! each kind of check is a module of its own.

mod args;
mod cross;
mod error;
#[cfg(feature = "cuda")]
mod gpu;
mod schemes;
mod vectors;

pub use args::SelftestArgs;
pub use error::SelftestError;

use crate::error::CliError;
use cross::cross_check;
use skinny_bulk::backend::{self, BackendChoice, GpuSelection, Options};
use std::io::{self, Write};
use vectors::check_spec_vectors;

/// Runs the self-test.
///
/// # Errors
/// A vector or a cross-check failed, or writing stdout failed.
pub fn run(a: &SelftestArgs) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    run_to(a, &mut out)?;
    Ok(out.flush().map_err(SelftestError::Output)?)
}

/// The self-test, its report written to `out`: a failed write ends it at once
/// (nobody would see the rest).
fn run_to(a: &SelftestArgs, out: &mut impl Write) -> Result<(), SelftestError> {
    let mut failures = check_spec_vectors(out)?;
    failures += schemes::check_schemes(out)?;
    let reference = backend::open(BackendChoice::CpuSerial, &Options::default()).map_err(SelftestError::Reference)?;
    let mut rng = rand::rng();
    // Each GPU on its own, then (with several) all of them striped together.
    let gpus = backend::gpu_count().unwrap_or(0);
    let mut subjects: Vec<(BackendChoice, String, GpuSelection)> =
        vec![(BackendChoice::Cpu, BackendChoice::Cpu.to_string(), GpuSelection::All)];
    for choice in [BackendChoice::GpuPaper, BackendChoice::Gpu] {
        if gpus <= 1 {
            subjects.push((choice, choice.to_string(), GpuSelection::All));
            continue;
        }
        for i in 0..gpus {
            subjects.push((choice, format!("{choice} (GPU {i})"), GpuSelection::List(vec![i])));
        }
        subjects.push((choice, format!("{choice} (GPUs 0-{} striped)", gpus - 1), GpuSelection::All));
    }
    for (choice, choice_label, selection) in subjects {
        let choice_label = choice_label.as_str();
        let tested = match backend::open(choice, &Options::default().gpus(selection)) {
            Ok(b) => b,
            Err(e) => {
                writeln!(out, "skip: {choice_label}: {e}").map_err(SelftestError::Output)?;
                continue;
            }
        };
        let tally = cross_check(tested.as_ref(), reference.as_ref(), a, &mut rng)?;
        writeln!(
            out,
            "{choice_label}: {} checks, {} variants, {} bytes, {} mismatches ({})",
            tally.checks,
            tally.variants,
            tally.bytes,
            tally.mismatches.len(),
            tested.describe()
        )
        .map_err(SelftestError::Output)?;
        for m in &tally.mismatches {
            writeln!(out, "mismatch: {choice_label}: {m}").map_err(SelftestError::Output)?;
        }
        failures += tally.mismatches.len();
    }
    #[cfg(feature = "cuda")]
    {
        failures += gpu::check_gpu_aead(out, &mut rng)?;
        failures += gpu::check_gpu_sealed(out, &mut rng)?;
    }
    if failures > 0 {
        return Err(SelftestError::Failed { failures });
    }
    writeln!(out, "selftest passed").map_err(SelftestError::Output)
}
