//! How a backend is asked for: its name ([`BackendChoice`]) and the
//! [`Options`] it opens with, including which GPU kernels
//! ([`GpuKernel`]) and which host copies ([`HostCopies`]) a GPU backend uses.

use skinny_exec::{GpuSelection, PlacementKind};
use std::fmt;
use std::str::FromStr;

/// The backends by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendChoice {
    /// The CPU, and the GPU for work large enough to repay its start-up (see
    /// [`super::auto`]).
    Auto,
    /// Portable code on one thread (the paper's CPU side).
    CpuSerial,
    /// The constant-time CPU code on all cores.
    Cpu,
    /// The paper's T-table CUDA kernel (SKINNY-128 only; not constant time).
    GpuPaper,
    /// The fast CUDA kernels.
    Gpu,
}

impl BackendChoice {
    /// Every choice, in the order reports list them.
    pub const ALL: [BackendChoice; 5] = [
        BackendChoice::Auto,
        BackendChoice::CpuSerial,
        BackendChoice::Cpu,
        BackendChoice::GpuPaper,
        BackendChoice::Gpu,
    ];

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::CpuSerial => "cpu-serial",
            BackendChoice::Cpu => "cpu",
            BackendChoice::GpuPaper => "gpu-paper",
            BackendChoice::Gpu => "gpu",
        }
    }

    /// Whether this choice needs a GPU to open.
    pub const fn needs_gpu(self) -> bool {
        matches!(self, BackendChoice::GpuPaper | BackendChoice::Gpu)
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<PlacementKind> for BackendChoice {
    /// The backend of a placement's kind: `auto`, `cpu` or `gpu` (the
    /// bitsliced kernels), named alike.
    fn from(kind: PlacementKind) -> Self {
        match kind {
            PlacementKind::Auto => BackendChoice::Auto,
            PlacementKind::Cpu => BackendChoice::Cpu,
            PlacementKind::Gpu => BackendChoice::Gpu,
        }
    }
}

/// A backend name that is none of [`BackendChoice::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend (expected auto, cpu-serial, cpu, gpu-paper or gpu)")]
pub struct UnknownBackend;

impl FromStr for BackendChoice {
    type Err = UnknownBackend;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BackendChoice::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(s.trim())).ok_or(UnknownBackend)
    }
}

/// Which CUDA kernels a GPU backend runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GpuKernel {
    /// Bitsliced across 32 blocks per thread: every variant, constant time
    /// (`gpu`).
    #[default]
    Bitsliced,
    /// The T-table kernel of Xie, Wei and Liu (2021): SKINNY-128 only, NOT
    /// constant time (`gpu-paper`).
    PaperTTable,
}

/// How a GPU engine moves data between the caller's memory and the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HostCopies {
    /// The fastest path for the memory and the size (pinned staging buffers
    /// overlapped with the kernels, where that pays).
    #[default]
    Fastest,
    /// Plain copies from and to the caller's pageable memory, one piece at a
    /// time: the paper's way, for benchmarks that compare like with like.
    Pageable,
}

/// Options for opening a backend.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// Worker threads for `cpu` and `auto`'s CPU side (None: one per core).
    pub threads: Option<usize>,
    /// The GPUs of `gpu`, `gpu-paper` and `auto`'s GPU side (default: all).
    pub gpus: GpuSelection,
    /// How the `gpu` and `gpu-paper` engines copy (default: the fastest way).
    pub host_copies: HostCopies,
}

impl Options {
    /// Options with `threads` CPU workers (None: one per core).
    pub fn with_threads(threads: Option<usize>) -> Self {
        Self { threads, gpus: GpuSelection::All, host_copies: HostCopies::Fastest }
    }

    /// These options with the GPU engines copying as `copies` says.
    pub fn host_copies(mut self, copies: HostCopies) -> Self {
        self.host_copies = copies;
        self
    }

    /// These options with the GPUs `gpus`.
    pub fn gpus(mut self, gpus: GpuSelection) -> Self {
        self.gpus = gpus;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placements_backend_bears_its_name() {
        for kind in PlacementKind::ALL {
            assert_eq!(BackendChoice::from(kind).name(), kind.name());
        }
        for choice in BackendChoice::ALL {
            assert_eq!(format!(" {choice} ").parse(), Ok(choice));
        }
    }
}
