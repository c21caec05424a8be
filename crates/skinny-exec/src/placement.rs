//! Where a run's work goes: the CPU (with a thread count), GPUs (with a
//! selection), or `auto`, which starts on the CPU and takes an accelerator
//! only where the product's rule says it pays.
//!
//! The decision is made once, here, by one mechanism: a product states what
//! it knows of the run as a [`Verdict`] (its own rule, its own constants), and
//! [`Placement::route`] turns placement and verdict into a [`Route`]. Nothing
//! else in the workspace decides between CPU and GPU.

use crate::gpus::GpuSelection;
use crate::handover::{Keep, OnFailure};
use std::fmt;
use std::io;
use std::num::NonZeroUsize;
use std::str::FromStr;

/// Stack size of every worker thread the crates start: 1 MiB. Every public
/// call of the library crates, the pieces of work these pools run included,
/// needs at most 64 KiB of stack in every build profile (each crate's
/// `tests/stack.rs` runs them on 64 KiB threads, at opt-level 0 too; the
/// measured figures are in docs/architecture.md, *Stack use*). The rest is
/// margin for what else runs there: a GPU driver's calls from the sealed
/// format's work, a caller's closure in [`Threads::install`]. (It was 16 MiB
/// while unoptimised builds needed megabytes for one bitsliced batch.)
pub const WORKER_STACK_BYTES: usize = 1 << 20;

/// The most worker threads worth starting per core: more only take turns on
/// the same cores, and each one costs a start-up and a stack.
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads worth starting in this process:
/// [`THREADS_PER_CORE`] per core it may use.
pub fn most_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    cores.saturating_mul(THREADS_PER_CORE)
}

/// How many CPU threads a run uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Threads {
    /// rayon's global pool (one thread per core, or `RAYON_NUM_THREADS`).
    #[default]
    All,
    /// A pool of exactly this many threads.
    Exactly(NonZeroUsize),
}

impl Threads {
    /// `None` is [`Threads::All`]; `Some(0)` too (no pool of zero threads).
    pub fn from_count(count: Option<usize>) -> Self {
        count.and_then(NonZeroUsize::new).map_or(Threads::All, Threads::Exactly)
    }

    /// The count asked for, if any.
    pub fn count(self) -> Option<usize> {
        match self {
            Threads::All => None,
            Threads::Exactly(n) => Some(n.get()),
        }
    }

    /// A pool of its own of the threads asked for, one a core for
    /// [`Threads::All`] ([`WORKER_STACK_BYTES`] of stack each).
    ///
    /// # Errors
    /// The operating system would not start the threads.
    pub fn own_pool(self) -> io::Result<rayon::ThreadPool> {
        worker_pool(self.count().unwrap_or(0))
    }

    /// A pool of the threads asked for ([`WORKER_STACK_BYTES`] of stack
    /// each), or `None` for rayon's global pool.
    ///
    /// # Errors
    /// The operating system would not start the threads.
    pub fn pool(self) -> io::Result<Option<rayon::ThreadPool>> {
        match self {
            Threads::All => Ok(None),
            Threads::Exactly(n) => worker_pool(n.get()).map(Some),
        }
    }

    /// Runs `f` on the pool asked for (rayon's global pool for
    /// [`Threads::All`]).
    ///
    /// # Errors
    /// The operating system would not start the threads.
    pub fn install<T: Send>(self, f: impl FnOnce() -> T + Send) -> io::Result<T> {
        Ok(match self.pool()? {
            Some(pool) => pool.install(f),
            None => f(),
        })
    }
}

/// A rayon pool of `threads` workers (0: one a core, as rayon counts them)
/// with [`WORKER_STACK_BYTES`] of stack each, named `skinny-worker-N`.
///
/// # Errors
/// The operating system would not start the threads.
pub fn worker_pool(threads: usize) -> io::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(WORKER_STACK_BYTES)
        .thread_name(|i| format!("skinny-worker-{i}"))
        .build()
        .map_err(io::Error::other)
}

/// Where a run's work may go.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// The CPU at once; an accelerator too where the product's rule says it
    /// pays, opened in the background, kept only while it proves faster.
    Auto {
        /// The CPU's threads.
        threads: Threads,
        /// The GPUs `auto` may open.
        gpus: GpuSelection,
    },
    /// The CPU only.
    Cpu {
        /// The CPU's threads.
        threads: Threads,
    },
    /// The GPUs, whatever the size; a GPU that cannot be had fails the run.
    /// The CPU still does what the GPU leaves (a message's ends, tags).
    Gpu {
        /// The CPU's threads, for the work the GPU leaves.
        threads: Threads,
        /// The GPUs.
        gpus: GpuSelection,
    },
}

impl Default for Placement {
    fn default() -> Self {
        Placement::Auto { threads: Threads::All, gpus: GpuSelection::All }
    }
}

/// A placement by name, before threads and GPUs are given: what a face's
/// `--backend` or `device=` names. The names are these (`auto`, `cpu`,
/// `gpu`), written and read here only ([`PlacementKind::name`], its
/// `FromStr`), so that every face spells them alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlacementKind {
    /// [`Placement::Auto`].
    Auto,
    /// [`Placement::Cpu`].
    Cpu,
    /// [`Placement::Gpu`].
    Gpu,
}

impl PlacementKind {
    /// Every kind, in the order help texts list them.
    pub const ALL: [PlacementKind; 3] = [PlacementKind::Auto, PlacementKind::Cpu, PlacementKind::Gpu];

    /// The name: `auto`, `cpu` or `gpu`.
    pub const fn name(self) -> &'static str {
        match self {
            PlacementKind::Auto => "auto",
            PlacementKind::Cpu => "cpu",
            PlacementKind::Gpu => "gpu",
        }
    }

    /// The placement of this kind with these threads and GPUs (the CPU's
    /// placement takes no GPUs).
    pub fn with(self, threads: Threads, gpus: GpuSelection) -> Placement {
        match self {
            PlacementKind::Auto => Placement::Auto { threads, gpus },
            PlacementKind::Cpu => Placement::Cpu { threads },
            PlacementKind::Gpu => Placement::Gpu { threads, gpus },
        }
    }
}

impl fmt::Display for PlacementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is none of [`PlacementKind::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown placement {0:?} (expected auto, cpu or gpu)")]
pub struct UnknownPlacement(pub String);

impl FromStr for PlacementKind {
    type Err = UnknownPlacement;

    /// A name of [`PlacementKind::ALL`], blanks around it and case ignored;
    /// `cuda` is read as `gpu` (the name some tools give the GPU).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("cuda") {
            return Ok(PlacementKind::Gpu);
        }
        PlacementKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| UnknownPlacement(s.into()))
    }
}

/// What a product's rule says of an accelerator for one run, before any is
/// opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It can serve the run and would repay its opening.
    Pays,
    /// It can serve the run but would not repay its opening (why, in words).
    NotWorthIt(String),
    /// It cannot serve the run at all (why, in words: a chunk size, a
    /// variant, a build without GPU support).
    Unfit(String),
}

/// What a run does, decided once from the placement and the product's
/// verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The CPU only; for `auto`, why.
    Cpu {
        /// Why `auto` stayed on the CPU (`None` when the CPU was asked for).
        why: Option<String>,
    },
    /// The CPU at once and the accelerator from when it is ready.
    Accelerator {
        /// The GPUs to open.
        gpus: GpuSelection,
        /// What a failure to open it does.
        on_failure: OnFailure,
        /// Whether it is kept however it performs.
        keep: Keep,
    },
}

/// `--backend gpu`-style placement asked for work the accelerator cannot do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unfit(pub String);

impl Placement {
    /// The CPU's threads.
    pub fn threads(&self) -> Threads {
        match self {
            Placement::Auto { threads, .. } | Placement::Cpu { threads } | Placement::Gpu { threads, .. } => *threads,
        }
    }

    /// Its kind: which of `auto`, `cpu` and `gpu` it is.
    pub fn kind(&self) -> PlacementKind {
        match self {
            Placement::Auto { .. } => PlacementKind::Auto,
            Placement::Cpu { .. } => PlacementKind::Cpu,
            Placement::Gpu { .. } => PlacementKind::Gpu,
        }
    }

    /// The GPUs the run may use, if any.
    pub fn gpus(&self) -> Option<&GpuSelection> {
        match self {
            Placement::Auto { gpus, .. } | Placement::Gpu { gpus, .. } => Some(gpus),
            Placement::Cpu { .. } => None,
        }
    }

    /// The route for a run of which the product's rule said `verdict`.
    ///
    /// # Errors
    /// [`Placement::Gpu`] with a verdict of [`Verdict::Unfit`]: the run
    /// cannot be done as asked.
    pub fn route(&self, verdict: Verdict) -> Result<Route, Unfit> {
        match (self, verdict) {
            (Placement::Cpu { .. }, _) => Ok(Route::Cpu { why: None }),
            (Placement::Gpu { .. }, Verdict::Unfit(why)) => Err(Unfit(why)),
            (Placement::Gpu { gpus, .. }, _) => {
                Ok(Route::Accelerator { gpus: gpus.clone(), on_failure: OnFailure::Fail, keep: Keep::Always })
            }
            (Placement::Auto { gpus, .. }, Verdict::Pays) => {
                Ok(Route::Accelerator { gpus: gpus.clone(), on_failure: OnFailure::UseCpu, keep: Keep::WhileFaster })
            }
            (Placement::Auto { .. }, Verdict::NotWorthIt(why) | Verdict::Unfit(why)) => {
                Ok(Route::Cpu { why: Some(why) })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn auto() -> Placement {
        Placement::default()
    }

    #[test]
    fn the_cpu_is_always_the_cpu() {
        let cpu = Placement::Cpu { threads: Threads::All };
        for v in [Verdict::Pays, Verdict::NotWorthIt("small".into()), Verdict::Unfit("chunks".into())] {
            assert_eq!(cpu.route(v), Ok(Route::Cpu { why: None }));
        }
    }

    #[test]
    fn gpu_fails_only_where_it_cannot_serve() {
        let gpu = Placement::Gpu { threads: Threads::All, gpus: GpuSelection::First(1) };
        let want = Route::Accelerator { gpus: GpuSelection::First(1), on_failure: OnFailure::Fail, keep: Keep::Always };
        assert_eq!(gpu.route(Verdict::Pays), Ok(want.clone()));
        assert_eq!(gpu.route(Verdict::NotWorthIt("small".into())), Ok(want));
        assert_eq!(gpu.route(Verdict::Unfit("chunks under 16K".into())), Err(Unfit("chunks under 16K".into())));
    }

    #[test]
    fn auto_takes_the_accelerator_only_where_it_pays_and_says_why_not() {
        let want =
            Route::Accelerator { gpus: GpuSelection::All, on_failure: OnFailure::UseCpu, keep: Keep::WhileFaster };
        assert_eq!(auto().route(Verdict::Pays), Ok(want));
        for why in ["input under 512 MiB", "chunks under 16K"] {
            let v =
                if why.starts_with("chunks") { Verdict::Unfit(why.into()) } else { Verdict::NotWorthIt(why.into()) };
            assert_eq!(auto().route(v), Ok(Route::Cpu { why: Some(why.into()) }));
        }
    }

    #[test]
    fn kinds_are_named_once_and_read_back() {
        for k in PlacementKind::ALL {
            assert_eq!(k.name().parse(), Ok(k));
            assert_eq!(format!(" {} ", k.name().to_uppercase()).parse(), Ok(k));
            assert_eq!(k.with(Threads::All, GpuSelection::First(2)).kind(), k);
        }
        assert_eq!("cuda".parse(), Ok(PlacementKind::Gpu));
        let e = "tpu".parse::<PlacementKind>().unwrap_err();
        assert_eq!(e.to_string(), "unknown placement \"tpu\" (expected auto, cpu or gpu)");
        assert_eq!(
            PlacementKind::Cpu.with(Threads::All, GpuSelection::First(2)),
            Placement::Cpu { threads: Threads::All }
        );
        assert_eq!(PlacementKind::Auto.with(Threads::All, GpuSelection::All), Placement::default());
    }

    #[test]
    fn threads_and_pools() {
        assert!(most_threads() >= THREADS_PER_CORE);
        assert_eq!(Threads::from_count(None), Threads::All);
        assert_eq!(Threads::from_count(Some(0)), Threads::All);
        assert_eq!(Threads::from_count(Some(3)).count(), Some(3));
        let on = Threads::from_count(Some(2)).install(rayon::current_num_threads).unwrap();
        assert_eq!(on, 2);
        let name = worker_pool(1).unwrap().install(|| std::thread::current().name().map(str::to_owned));
        assert_eq!(name.as_deref(), Some("skinny-worker-0"));
    }
}
