//! Where an experiment's queries are counted: the CPU's threads or a set of
//! GPUs, routed once by the execution layer ([`Placement::route`]) from what
//! was asked for and the lab's rule for `auto` ([`verdict`],
//! [`AUTO_GPU_QUERIES`]), then opened as a [`Rig`].

use crate::common::Common;
use crate::control::Control;
use crate::error::{GpuFailure, LabError};
use crate::experiment::Experiment;
use crate::findings::{CountedBy, Findings};
use skinny_exec::{GpuSelection, GpuSelectionError, OnFailure, Placement, Route, Verdict};

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

/// The lab's verdict on GPUs for `common`'s shard, for [`Placement::route`].
pub fn verdict(common: &Common) -> Verdict {
    if !cfg!(feature = "cuda") {
        Verdict::Unfit("built without CUDA support".into())
    } else if gpu_repays(common) {
        Verdict::Pays
    } else {
        Verdict::NotWorthIt("fewer than 2^26 queries in the shard".into())
    }
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
    Threads(std::io::Error),
}

impl RigError {
    /// What the error means to the caller: hardware that cannot be had, or
    /// threads the operating system would not start (a failure).
    pub fn kind(&self) -> skinny_exec::ErrorKind {
        match self {
            RigError::Threads(_) => skinny_exec::ErrorKind::Failure,
            _ => skinny_exec::ErrorKind::Unavailable,
        }
    }
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
    /// Opens what `placement` asks for, for `common`'s shard.
    ///
    /// # Errors
    /// [`RigError`]: GPUs asked for that cannot be had (for
    /// [`Placement::Auto`], only a selection that does not fit a machine with
    /// GPUs; GPUs that do not open leave it on the CPU), threads that do not
    /// start.
    pub fn open(placement: &Placement, common: &Common) -> Result<Rig, RigError> {
        let threads = placement.threads();
        match placement.route(verdict(common)) {
            Err(_) => Err(RigError::NoCuda),
            Ok(Route::Cpu { .. }) => Rig::cpu(threads),
            Ok(Route::Accelerator { gpus, on_failure: OnFailure::Fail, .. }) => Rig::gpus(&gpus),
            Ok(Route::Accelerator { gpus, on_failure: OnFailure::UseCpu, .. }) => match Rig::gpus(&gpus) {
                Ok(rig) => Ok(rig),
                // GPUs that cannot be had leave `auto` on the CPU; a selection
                // that does not fit the GPUs there are is the caller's to fix.
                Err(RigError::Selection(e)) => Err(RigError::Selection(e)),
                Err(_) => Rig::cpu(threads),
            },
        }
    }

    fn cpu(threads: skinny_exec::Threads) -> Result<Rig, RigError> {
        threads.own_pool().map(|pool| Rig(Kind::Cpu(pool))).map_err(RigError::Threads)
    }

    #[cfg(feature = "cuda")]
    fn gpus(gpus: &GpuSelection) -> Result<Rig, RigError> {
        use skinny_cuda::{GpuSet, SelectError};
        GpuSet::select(gpus).map(|set| Rig(Kind::Gpus(set))).map_err(|e| match e {
            SelectError::Selection(e) => RigError::Selection(e),
            SelectError::Gpu(e) => RigError::Gpu(e.into()),
        })
    }

    #[cfg(not(feature = "cuda"))]
    fn gpus(_: &GpuSelection) -> Result<Rig, RigError> {
        Err(RigError::NoCuda)
    }

    /// Whether the lab's GPU kernels are compiled for every GPU of this rig
    /// (always, on the CPU). When they are not, [`Rig::prepare`] compiles them:
    /// on a freshly started machine that has taken 25-35 s, so a program may
    /// want to say so first.
    pub fn kernels_compiled(&self) -> bool {
        match &self.0 {
            Kind::Cpu(_) => true,
            #[cfg(feature = "cuda")]
            Kind::Gpus(set) => set.gpus().iter().all(|g| g.is_compiled(&crate::gpu::source::LAB)),
        }
    }

    /// Compiles (or loads from the cache) the lab's kernels on every GPU of
    /// this rig, so that a run's timing starts with its first query (runs
    /// count from their first launch anyway; this moves the wait to a moment
    /// the caller chooses). Nothing to do on the CPU.
    ///
    /// # Errors
    /// The kernels do not compile or load.
    pub fn prepare(&self) -> Result<(), LabError> {
        match &self.0 {
            Kind::Cpu(_) => Ok(()),
            #[cfg(feature = "cuda")]
            Kind::Gpus(set) => {
                for g in set.gpus() {
                    g.load_module(&crate::gpu::source::LAB)?;
                }
                Ok(())
            }
        }
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
            (Kind::Cpu(pool), Experiment::DifferentialLinear(d)) => {
                pool.install(|| d.run_with(control)).map(|o| Findings::of_differential_linear(d, &o, by))
            }
            (Kind::Cpu(pool), Experiment::Linear(l)) => {
                pool.install(|| l.run_with(control)).map(|o| Findings::of_linear(l, &o, by))
            }
            #[cfg(feature = "cuda")]
            (Kind::Gpus(set), Experiment::Linear(l)) => {
                l.run_gpus(set, control).map(|o| Findings::of_linear(l, &o, by))
            }
            #[cfg(feature = "cuda")]
            (Kind::Gpus(set), Experiment::DifferentialLinear(d)) => {
                d.run_gpus(set, control).map(|o| Findings::of_differential_linear(d, &o, by))
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
