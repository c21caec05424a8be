//! The GPUs work runs on ([`GpuSet`]), and the one way to open them, which
//! every product takes:
//!
//! 1. [`GpuSet::probe`]: how many GPUs this machine offers, or why it offers
//!    none (no driver, no NVRTC, a driver that cannot start, no GPU): that
//!    reason is kept as the answer;
//! 2. the caller's [`GpuSelection`] (all, the first N, a list) resolved
//!    against that count;
//! 3. [`GpuSet::open`]: those GPUs, each opened once per process
//!    ([`Gpu::get`]) and all at once.
//!
//! [`GpuSet::select`] is the three steps; [`GpuSet::choose`] the first two,
//! for a product that opens the GPUs itself (one engine a GPU).
//!
//! ```no_run
//! use skinny_cuda::{GpuSet, SelectError};
//! use skinny_exec::GpuSelection;
//! # fn main() -> Result<(), SelectError> {
//! let set = GpuSet::select(&GpuSelection::First(2))?;
//! println!("{}", set.describe());
//! # Ok(())
//! # }
//! ```
//!
//! [`GpuSet::all`] is the three steps with every ordinal.

use super::gpu::Gpu;
use crate::driver::device_count;
use crate::error::GpuError;
use skinny_exec::{ErrorKind, GpuSelection, GpuSelectionError};
use std::sync::Arc;

/// Why the GPUs a selection names cannot be had.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SelectError {
    /// No GPU can be used here (the reason: no driver, no NVRTC, a driver
    /// that cannot start, no GPU), or one chosen failed to open (the error
    /// names it).
    #[error(transparent)]
    Gpu(GpuError),
    /// The selection does not fit the GPUs this machine has.
    #[error(transparent)]
    Selection(GpuSelectionError),
}

impl SelectError {
    /// What the error means to the caller: GPUs that cannot be had (a GPU
    /// that fails as it opens: [`GpuError::kind`]).
    pub fn kind(&self) -> ErrorKind {
        match self {
            SelectError::Gpu(e) => e.kind(),
            SelectError::Selection(_) => ErrorKind::Unavailable,
        }
    }
}

/// The GPUs work is spread over, in the order stripes are given out.
#[derive(Clone, Debug)]
pub struct GpuSet {
    gpus: Vec<Arc<Gpu>>,
}

impl GpuSet {
    /// How many GPUs this machine offers: the driver and NVRTC loaded, the
    /// driver started, at least one GPU seen. The count that a selection of
    /// ordinals for [`GpuSet::open`] is checked against.
    ///
    /// # Errors
    /// One line saying why no GPU can be used: [`GpuError::NoDriver`],
    /// [`GpuError::NoNvrtc`], a driver that cannot start, [`GpuError::NoDevice`].
    pub fn probe() -> Result<usize, GpuError> {
        match device_count()? {
            0 => Err(GpuError::NoDevice),
            n => Ok(n),
        }
    }

    /// The ordinals `selection` names on this machine: [`GpuSet::probe`]
    /// (why no GPU can be used is the answer), then the selection resolved
    /// against the count. For a product that opens the GPUs itself; the
    /// others take [`GpuSet::select`].
    ///
    /// # Errors
    /// [`SelectError::Gpu`] as [`GpuSet::probe`]; [`SelectError::Selection`]
    /// for more GPUs than there are or a number the driver does not see.
    pub fn choose(selection: &GpuSelection) -> Result<Vec<usize>, SelectError> {
        let count = Self::probe().map_err(SelectError::Gpu)?;
        selection.resolve(count).map_err(SelectError::Selection)
    }

    /// The GPUs `selection` names, opened: [`GpuSet::choose`], then
    /// [`GpuSet::open`]. The one way the products open GPUs.
    ///
    /// # Errors
    /// As [`GpuSet::choose`]; a GPU that fails to open ([`SelectError::Gpu`],
    /// naming it).
    pub fn select(selection: &GpuSelection) -> Result<Self, SelectError> {
        Self::open(&Self::choose(selection)?).map_err(SelectError::Gpu)
    }

    /// Every GPU the driver sees ([`GpuSet::probe`], then [`GpuSet::open`] of
    /// every ordinal).
    ///
    /// # Errors
    /// As [`GpuSet::probe`]; a GPU that fails to open (the error names it).
    pub fn all() -> Result<Self, GpuError> {
        let count = Self::probe()?;
        Self::open(&(0..count).collect::<Vec<_>>())
    }

    /// The GPUs with these ordinals, each opened once per process
    /// ([`Gpu::get`]), in this order; the same ordinal twice is one GPU listed
    /// twice (see [`GpuSet::from_gpus`]).
    ///
    /// # Errors
    /// [`GpuError::EmptySet`] for no ordinal; as [`Gpu::get`] for each:
    /// [`GpuError::NoSuchDevice`] for an ordinal the driver does not see.
    pub fn open(ordinals: &[usize]) -> Result<Self, GpuError> {
        if ordinals.is_empty() {
            return Err(GpuError::EmptySet);
        }
        // Each GPU's context starts in about 0.3 s: all at once, not one after the other.
        let gpus = if ordinals.len() == 1 {
            vec![Gpu::get(ordinals[0])?]
        } else {
            std::thread::scope(|sc| {
                let handles: Vec<_> = ordinals.iter().map(|&i| sc.spawn(move || Gpu::get(i))).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(Err(GpuError::Internal("a GPU opening thread panicked"))))
                    .collect::<Result<Vec<_>, _>>()
            })?
        };
        Ok(Self { gpus })
    }

    /// A set of GPUs opened already. The same GPU may be listed more than once:
    /// each entry then gets its own cipher, streams and buffers on it, which
    /// exercises the striping on a machine with one GPU (and gains nothing).
    ///
    /// # Errors
    /// [`GpuError::EmptySet`] for none.
    pub fn from_gpus(gpus: Vec<Arc<Gpu>>) -> Result<Self, GpuError> {
        if gpus.is_empty() {
            return Err(GpuError::EmptySet);
        }
        Ok(Self { gpus })
    }

    /// The GPUs.
    pub fn gpus(&self) -> &[Arc<Gpu>] {
        &self.gpus
    }

    /// How many entries (at least one).
    pub fn len(&self) -> usize {
        self.gpus.len()
    }

    /// Always false: a set holds at least one GPU.
    pub fn is_empty(&self) -> bool {
        self.gpus.is_empty()
    }

    /// The ordinals, in order.
    pub fn ordinals(&self) -> Vec<usize> {
        self.gpus.iter().map(|g| g.ordinal()).collect()
    }

    /// One line: the GPU itself when there is one, else how many and which
    /// (`2 x NVIDIA H200 (GPUs 0,1; ...)`).
    pub fn describe(&self) -> String {
        if self.gpus.len() == 1 {
            return self.gpus[0].describe();
        }
        let list = self.ordinals().iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        let first = self.gpus[0].describe();
        if self.gpus.iter().all(|g| g.describe() == first) {
            format!("{} x {first} (GPUs {list})", self.gpus.len())
        } else {
            let each = self.gpus.iter().map(|g| format!("GPU {}: {}", g.ordinal(), g.describe()));
            format!("{} GPUs ({list}): {}", self.gpus.len(), each.collect::<Vec<_>>().join("; "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_of_no_gpu_is_refused_before_the_driver_is_asked() {
        assert!(matches!(GpuSet::open(&[]), Err(GpuError::EmptySet)));
        assert!(matches!(GpuSet::from_gpus(Vec::new()), Err(GpuError::EmptySet)));
    }

    #[test]
    fn a_selection_that_cannot_be_had_says_why() {
        // With GPUs, a selection past them; without, the probe's reason.
        let past = GpuSelection::List(vec![usize::MAX - 1]);
        match GpuSet::choose(&past) {
            Err(SelectError::Selection(GpuSelectionError::NoSuchGpu { ordinal, .. })) => {
                assert_eq!(ordinal, usize::MAX - 1);
            }
            Err(SelectError::Gpu(e)) => {
                assert_eq!(e.kind(), ErrorKind::Unavailable, "{e}");
                assert_eq!(GpuSet::probe().unwrap_err().to_string(), e.to_string());
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(SelectError::Selection(GpuSelectionError::Zero).kind(), ErrorKind::Unavailable);
    }
}
