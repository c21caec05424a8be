//! Where a batch runs: the many-message engine's rule for the execution
//! layer ([`verdict`]), and the run along the route it gives.
//!
//! The GPU engine serves every scheme. Under `auto` it takes a batch of at
//! least [`AUTO_GPU_BYTES`] of data: a batch is one call, so the
//! GPU's opening (driver, context, kernels compiled or loaded from the disk
//! cache) and the copies through pageable memory are paid for that one call,
//! and the CPU engine on every core is ready at once. A server that keeps an
//! engine open uses [`GpuMany`](crate::gpu::GpuMany) itself.

use crate::{cpu, Batch, ManyError, Output};
use skinny_exec::{OnFailure, Placement, Route, Threads, Verdict};

/// The data of one batch from which `auto` sends its work to a GPU.
pub const AUTO_GPU_BYTES: usize = 1 << 30;

/// Which way a batch goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    Seal,
    Open,
}

/// The rule: whether a GPU can serve `batch` and would repay its opening.
pub fn verdict(batch: &Batch) -> Verdict {
    if !cfg!(feature = "cuda") {
        return Verdict::Unfit("this build of skinny-many has no GPU engine (feature `cuda`)".into());
    }
    if batch.data_bytes() >= AUTO_GPU_BYTES {
        Verdict::Pays
    } else {
        Verdict::NotWorthIt(format!(
            "a batch of {} bytes is done sooner on the CPU than a GPU opens",
            batch.data_bytes()
        ))
    }
}

/// `work` on `batch` where `placement` and the rule put it.
pub(crate) fn run(placement: &Placement, batch: &Batch, work: Work) -> Result<Output, ManyError> {
    let threads = placement.threads();
    match placement.route(verdict(batch)).map_err(ManyError::Placement)? {
        Route::Cpu { .. } => on_cpu(threads, batch, work),
        Route::Accelerator { gpus, on_failure, .. } => match on_gpu(&gpus, batch, work) {
            Ok(out) => Ok(out),
            Err(_) if on_failure == OnFailure::UseCpu => on_cpu(threads, batch, work),
            Err(e) => Err(e),
        },
    }
}

fn on_cpu(threads: Threads, batch: &Batch, work: Work) -> Result<Output, ManyError> {
    match work {
        Work::Seal => cpu::seal(threads, batch),
        Work::Open => cpu::open(threads, batch),
    }
}

/// The first GPU of `gpus` (chosen the one way, `GpuSet::choose`), its
/// engine opened for this batch.
#[cfg(feature = "cuda")]
fn on_gpu(gpus: &skinny_exec::GpuSelection, batch: &Batch, work: Work) -> Result<Output, ManyError> {
    use crate::gpu::{GpuMany, GpuManyError};
    use skinny_cuda::{GpuSet, SelectError};
    let ordinals = GpuSet::choose(gpus).map_err(|e| match e {
        SelectError::Gpu(e) => ManyError::Gpu(Box::new(GpuManyError::Gpu(e))),
        SelectError::Selection(e) => ManyError::GpuSelection(e),
    })?;
    let ordinal = *ordinals.first().ok_or(ManyError::GpuSelection(skinny_exec::GpuSelectionError::NoGpu))?;
    let engine = GpuMany::new(ordinal).map_err(|e| ManyError::Gpu(Box::new(e)))?;
    match work {
        Work::Seal => engine.seal(batch),
        Work::Open => engine.open(batch),
    }
    .map_err(|e| ManyError::Gpu(Box::new(e)))
}

#[cfg(not(feature = "cuda"))]
fn on_gpu(_: &skinny_exec::GpuSelection, _: &Batch, _: Work) -> Result<Output, ManyError> {
    // `verdict` calls every batch unfit without the feature, so no route
    // leads here; kept for the match's sake.
    Err(ManyError::NoGpuEngine)
}
