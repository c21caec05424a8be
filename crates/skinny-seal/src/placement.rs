//! Where a file's chunks run. SKINNY-AEAD payloads go to skinny-aead's
//! sealed engine (CPU threads, or one GPU with the CPU-then-GPU hand-over);
//! Romulus payloads run on the CPU (a GPU asked for them is refused; `auto`
//! stays on the CPU).
//!
//! One file runs on one GPU (the first of the selection; "all" means any
//! one): a selection naming more than one GPU is refused rather than
//! silently served by its first, so what the caller asks is what runs.

use crate::scheme::Scheme;
use skinny_aead::sealed::Job;
use skinny_aead::Member;
use skinny_exec::{GpuSelection, Placement};

/// The engine of a run.
pub(crate) enum Engine {
    /// skinny-aead's sealed engine, for this member.
    SkinnyAead(Member),
    /// This crate's CPU windows.
    Cpu,
}

/// Why a job cannot run a file.
pub(crate) enum JobError {
    OneGpu,
    CpuOnly(&'static str),
}

/// The engine for `scheme` under `job`.
pub(crate) fn check_job(job: &Job, scheme: Scheme) -> Result<Engine, JobError> {
    let (gpus, forced) = match job.placement_asked() {
        Placement::Cpu { .. } => (None, false),
        Placement::Auto { gpus, .. } => (Some(gpus), false),
        Placement::Gpu { gpus, .. } => (Some(gpus), true),
    };
    if let Some(g) = gpus {
        let many = match g {
            GpuSelection::All => false,
            GpuSelection::First(n) => *n > 1,
            GpuSelection::List(l) => l.len() > 1,
        };
        if many {
            return Err(JobError::OneGpu);
        }
    }
    match scheme.aead_member() {
        Some(m) => Ok(Engine::SkinnyAead(m)),
        None if forced => Err(JobError::CpuOnly(scheme_name(scheme))),
        None => Ok(Engine::Cpu),
    }
}

fn scheme_name(scheme: Scheme) -> &'static str {
    match scheme {
        Scheme::RomulusN => "Romulus-N",
        Scheme::RomulusM => "Romulus-M",
        _ => "this scheme",
    }
}
