//! What the bindings share: names of variants and devices, and the backends
//! opened once per process (a CPU pool, a GPU with its compiled kernels).

use crate::errors::{Error, PyResultOf};
use skinny::Variant;
use skinny_bulk::backend::{self, Backend, BackendChoice, Options};
use std::sync::{Arc, Mutex};

/// Where work runs, as Python names it: the library's placement names
/// (`"cpu"`, `"gpu"`, `"auto"`), spelled and read by the library.
pub use skinny_exec::PlacementKind as Device;

/// Reads a `device=` name (any case, blanks around it ignored).
pub fn device(name: &str) -> PyResultOf<Device> {
    name.parse().map_err(|e: skinny_exec::UnknownPlacement| Error::input(format!("device: {e}")))
}

/// Where the execution layer puts work for `device`, on every GPU.
pub fn placement(device: Device, threads: Option<usize>) -> skinny_exec::Placement {
    device.with(skinny_exec::Threads::from_count(threads), skinny_exec::GpuSelection::All)
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
    let slot = match device {
        Device::Cpu => &CPU,
        Device::Gpu => &GPU,
        Device::Auto => return Err(Error::unsupported("device \"auto\" is not offered here: use \"cpu\" or \"gpu\"")),
    };
    let choice = BackendChoice::from(device);
    let mut held = slot.lock().map_err(|_| Error::failure("a previous call panicked"))?;
    if let Some(b) = held.as_ref() {
        return Ok(Arc::clone(b));
    }
    let opened: Arc<dyn Backend> = Arc::from(backend::open(choice, &Options::default())?);
    *held = Some(Arc::clone(&opened));
    Ok(opened)
}
