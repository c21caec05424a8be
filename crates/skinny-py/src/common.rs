//! What the bindings share: names of variants and devices, and the backends
//! opened once per process (a CPU pool, a GPU with its compiled kernels).

use crate::errors::{Error, Kind, PyResultOf};
use skinny::Variant;
use skinny_bulk::backend::{self, Backend, BackendChoice, Options};
use std::sync::{Arc, Mutex};

/// Where work runs, as Python names it: `"cpu"`, `"gpu"` or `"auto"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// Every CPU core.
    Cpu,
    /// The GPU(s); an error when none can be used.
    Gpu,
    /// The CPU, and a GPU where the product's rule says it pays.
    Auto,
}

impl Device {
    /// Reads `"cpu"`, `"gpu"` or `"auto"` (any case).
    pub fn parse(name: &str) -> PyResultOf<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "cpu" => Ok(Device::Cpu),
            "gpu" | "cuda" => Ok(Device::Gpu),
            "auto" => Ok(Device::Auto),
            _ => Err(Error::input(format!("device must be \"cpu\", \"gpu\" or \"auto\", not {name:?}"))),
        }
    }

    /// Where the execution layer puts work for this device.
    pub fn placement(self, threads: Option<usize>) -> skinny_lab::Placement {
        use skinny_lab::{GpuSelection, Placement, Threads};
        let threads = Threads::from_count(threads);
        match self {
            Device::Cpu => Placement::Cpu { threads },
            Device::Gpu => Placement::Gpu { threads, gpus: GpuSelection::All },
            Device::Auto => Placement::Auto { threads, gpus: GpuSelection::All },
        }
    }
}

/// Reads a variant name such as `"skinny-128-256"` (any case, `_` for `-`).
pub fn variant(name: &str) -> PyResultOf<Variant> {
    name.parse().map_err(|_| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        Error::input(format!("unknown cipher {name:?} (expected one of {})", names.join(", ")))
    })
}

/// The round count: the variant's full count when `None`, else checked.
pub fn rounds(v: Variant, rounds: Option<usize>) -> PyResultOf<usize> {
    let r = rounds.unwrap_or(v.rounds());
    if !(1..=v.rounds()).contains(&r) {
        return Err(Error::input(format!("{v} has 1 to {} rounds, not {r}", v.rounds())));
    }
    Ok(r)
}

/// A cipher of `rounds` rounds under `tweakey` (whose length is checked).
pub fn cipher(v: Variant, tweakey: &[u8], rounds: usize) -> PyResultOf<skinny::Skinny> {
    skinny::Skinny::with_rounds(v, tweakey, rounds).map_err(|e| Error::input(e.to_string()))
}

static CPU: Mutex<Option<Arc<dyn Backend>>> = Mutex::new(None);
static GPU: Mutex<Option<Arc<dyn Backend>>> = Mutex::new(None);

/// The backend of `device`, opened on first use and kept (a GPU's kernels are
/// compiled once per process). A failed GPU open is not kept: the next call
/// tries again.
pub fn backend(device: Device) -> PyResultOf<Arc<dyn Backend>> {
    let (slot, choice) = match device {
        Device::Cpu => (&CPU, BackendChoice::Cpu),
        Device::Gpu => (&GPU, BackendChoice::Gpu),
        Device::Auto => return Err(Error::unsupported("device \"auto\" is not offered here: use \"cpu\" or \"gpu\"")),
    };
    let mut held = slot.lock().map_err(|_| Error::new(Kind::Other, "a previous call panicked"))?;
    if let Some(b) = held.as_ref() {
        return Ok(Arc::clone(b));
    }
    let opened: Arc<dyn Backend> = Arc::from(backend::open(choice, &Options::default())?);
    *held = Some(Arc::clone(&opened));
    Ok(opened)
}
