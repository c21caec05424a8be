//! Where an experiment's queries are counted: the CPU's threads or a set of
//! GPUs, chosen once from what was asked for and the lab's rule for `auto`
//! ([`AUTO_GPU_QUERIES`]), then opened as a [`Rig`].

use crate::common::Common;
use crate::control::Control;
use crate::error::{GpuFailure, LabError};
use crate::experiment::Experiment;
use crate::findings::{CountedBy, Findings};
use skinny_bulk::backend::{GpuSelection, GpuSelectionError};

/// Below this many queries in the shard, `auto` stays on the CPU: opening a GPU
/// and compiling its kernels (about 0.3 s; more the first time, before the
/// kernel cache holds them) costs more than the CPU's whole run.
pub const AUTO_GPU_QUERIES: u64 = 1 << 26;

/// `auto`'s rule: whether GPUs repay their opening for `common`'s shard (it
/// has at least [`AUTO_GPU_QUERIES`] queries). Every counter counts the same
/// queries, so the rule decides speed only, never results.
pub fn gpu_repays(common: &Common) -> bool {
    let queries = common.shard_queries();
    queries.end - queries.start >= AUTO_GPU_QUERIES
}

/// Stack of each CPU worker: an unoptimised build of the bitsliced AVX2 code
/// keeps about 2.5 MiB of state in one frame, more than a thread's default
/// 2 MiB (an optimised build needs a few KiB).
const WORKER_STACK_BYTES: usize = 8 << 20;

/// What may count an experiment's queries, as asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hardware {
    /// The GPUs when [`gpu_repays`] says so and they open, else the CPU.
    Auto {
        /// The CPU's worker threads (all cores when `None`).
        threads: Option<usize>,
        /// The GPUs it may open.
        gpus: GpuSelection,
    },
    /// The bitsliced CPU code.
    Cpu {
        /// Worker threads (all cores when `None`).
        threads: Option<usize>,
    },
    /// NVIDIA GPUs, whatever the size; GPUs that cannot be had are an error.
    Gpu {
        /// Which.
        gpus: GpuSelection,
    },
}

/// Why the hardware asked for could not be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RigError {
    /// GPUs were asked for from a build without the `cuda` feature.
    #[error("built without CUDA support")]
    NoCuda,
    /// The GPUs could not be opened (no driver, no device, a failed start).
    #[error(transparent)]
    Gpu(GpuFailure),
    /// A GPU selection that does not fit this machine.
    #[error(transparent)]
    Selection(GpuSelectionError),
    /// The operating system would not start the worker threads.
    #[error("cannot start worker threads: {0}")]
    Threads(rayon::ThreadPoolBuildError),
}

/// The hardware an experiment's queries are counted on, opened: a pool of CPU
/// threads or a set of GPUs. Either counts the same queries: same counts,
/// same right pairs.
#[derive(Debug)]
pub struct Rig(Kind);

#[derive(Debug)]
enum Kind {
    Cpu(rayon::ThreadPool),
    #[cfg(feature = "cuda")]
    Gpus(skinny_cuda::GpuSet),
}

impl Rig {
    /// Opens what `hardware` asks for, for `common`'s shard.
    ///
    /// # Errors
    /// [`RigError`]: GPUs asked for that cannot be had (for
    /// [`Hardware::Auto`], only a selection that does not fit a machine with
    /// GPUs; GPUs that do not open leave it on the CPU), threads that do not
    /// start.
    pub fn open(hardware: &Hardware, common: &Common) -> Result<Rig, RigError> {
        match hardware {
            Hardware::Cpu { threads } => Rig::cpu(*threads),
            Hardware::Gpu { gpus } => Rig::gpus(gpus),
            Hardware::Auto { threads, gpus } if cfg!(feature = "cuda") && gpu_repays(common) => match Rig::gpus(gpus) {
                Ok(rig) => Ok(rig),
                // The selection refuses with `NoGpu` exactly when the driver
                // sees none; any other refusal is the caller's to fix.
                Err(RigError::Selection(e)) if e != GpuSelectionError::NoGpu => Err(RigError::Selection(e)),
                Err(_) => Rig::cpu(*threads),
            },
            Hardware::Auto { threads, .. } => Rig::cpu(*threads),
        }
    }

    fn cpu(threads: Option<usize>) -> Result<Rig, RigError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .stack_size(WORKER_STACK_BYTES)
            .build()
            .map_err(RigError::Threads)?;
        Ok(Rig(Kind::Cpu(pool)))
    }

    #[cfg(feature = "cuda")]
    fn gpus(gpus: &GpuSelection) -> Result<Rig, RigError> {
        use skinny_cuda::{Gpu, GpuError, GpuSet};
        let failed = |e: GpuError| RigError::Gpu(e.into());
        let count = Gpu::count().map_err(failed)?;
        if count == 0 {
            // GPU 0's own reason (no device, say) is the answer.
            Gpu::first().map_err(failed)?;
        }
        let ordinals = gpus.resolve(count).map_err(RigError::Selection)?;
        GpuSet::open(&ordinals).map(|set| Rig(Kind::Gpus(set))).map_err(failed)
    }

    #[cfg(not(feature = "cuda"))]
    fn gpus(_: &GpuSelection) -> Result<Rig, RigError> {
        Err(RigError::NoCuda)
    }

    /// What counts the queries: `cpu`, `gpu`, or `gpu xN` for N GPUs.
    pub fn backend(&self) -> String {
        match &self.0 {
            Kind::Cpu(_) => "cpu".into(),
            #[cfg(feature = "cuda")]
            Kind::Gpus(set) if set.len() == 1 => "gpu".into(),
            #[cfg(feature = "cuda")]
            Kind::Gpus(set) => format!("gpu x{}", set.len()),
        }
    }

    /// The CPU's worker threads, when the CPU counts.
    pub fn threads(&self) -> Option<usize> {
        match &self.0 {
            Kind::Cpu(pool) => Some(pool.current_num_threads()),
            #[cfg(feature = "cuda")]
            Kind::Gpus(_) => None,
        }
    }

    /// Runs `exp`'s shard here, reporting progress to and taking a stop from
    /// `control`; the findings say this rig and `version` (the program's
    /// version, so that only shards of one version merge) counted them.
    ///
    /// # Errors
    /// As [`Differential::run_with`](crate::Differential::run_with) and, on
    /// GPUs, `Differential::run_gpus` (the same for boomerangs).
    pub fn run(&self, exp: &Experiment, control: &Control, version: &str) -> Result<Findings, LabError> {
        let by = CountedBy { backend: self.backend(), threads: self.threads(), version: version.into() };
        match (&self.0, exp) {
            (Kind::Cpu(pool), Experiment::Differential(d)) => {
                pool.install(|| d.run_with(control)).map(|o| Findings::of_differential(d, &o, by))
            }
            (Kind::Cpu(pool), Experiment::Boomerang(b)) => {
                pool.install(|| b.run_with(control)).map(|o| Findings::of_boomerang(b, &o, by))
            }
            #[cfg(feature = "cuda")]
            (Kind::Gpus(set), Experiment::Differential(d)) => {
                d.run_gpus(set, control).map(|o| Findings::of_differential(d, &o, by))
            }
            #[cfg(feature = "cuda")]
            (Kind::Gpus(set), Experiment::Boomerang(b)) => {
                b.run_gpus(set, control).map(|o| Findings::of_boomerang(b, &o, by))
            }
        }
    }
}
