//! The kernels of a call's pieces in order ([`KernelOrder`]), for the one kind
//! of kernel that loses by running beside itself.

use crate::gpu::kernels::KernelKind;
use skinny_cuda::cudarc::driver::{CudaEvent, CudaStream};
use skinny_cuda::GpuError;

/// The kernels of a call's pieces, one after the other although the pieces
/// travel on several streams: each piece's kernel waits for the event the
/// previous piece's kernel recorded (its copies still overlap the kernels).
///
/// Only for the paper's T-table kernel: it looks its tables up in
/// `__constant__` memory with indices that differ from thread to thread, and
/// launches of it that ran at once on different streams took 2.3 times as
/// long as the same launches one after the other on the H200 (8 MiB in four
/// quarters, 22.8 against 9.9 ms); the bitsliced kernels gain from running at
/// once.
pub(super) struct KernelOrder {
    on: bool,
    last: Option<CudaEvent>,
}

impl KernelOrder {
    pub(super) fn new(kind: KernelKind) -> Self {
        Self { on: kind == KernelKind::Paper, last: None }
    }

    /// Before a piece's kernel on `stream`.
    pub(super) fn before(&self, stream: &CudaStream) -> Result<(), GpuError> {
        match &self.last {
            Some(e) if self.on => stream.wait(e).map_err(GpuError::driver("ordering the kernels")),
            _ => Ok(()),
        }
    }

    /// After a piece's kernel was queued on `stream`.
    pub(super) fn after(&mut self, stream: &CudaStream) -> Result<(), GpuError> {
        if self.on {
            self.last = Some(stream.record_event(None).map_err(GpuError::driver("ordering the kernels"))?);
        }
        Ok(())
    }
}
