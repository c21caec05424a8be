//! The AEAD kernels' entry points (`kernels/aead.cu`, registered in
//! `skinny-cuda` as `kernels::AEAD`): by counter and operation, checked
//! against the source by a test.

use super::inputs::AeadCounter;
use skinny_cuda::cudarc::driver::{CudaFunction, CudaModule};
use skinny_cuda::GpuError;
use std::format;
use std::string::String;
use std::sync::Arc;

/// What a launch does with its blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AeadOp {
    /// Output = E(input); the sum is over the input (the plaintext).
    Encrypt,
    /// Output = D(input); the sum is over the output (the plaintext).
    Decrypt,
    /// No output; the sum is over E(input) (associated data).
    Authenticate,
}

impl AeadOp {
    /// In declaration order, so `ALL[op.index()] == op`.
    pub(crate) const ALL: [AeadOp; 3] = [AeadOp::Encrypt, AeadOp::Decrypt, AeadOp::Authenticate];

    /// Position in [`AeadOp::ALL`] (and in a kernel's function list).
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    fn suffix(self) -> &'static str {
        match self {
            AeadOp::Encrypt => "enc",
            AeadOp::Decrypt => "dec",
            AeadOp::Authenticate => "auth",
        }
    }
}

fn prefix(counter: AeadCounter) -> &'static str {
    match counter {
        AeadCounter::Lfsr64 => "aead_m1",
        AeadCounter::Lfsr24 => "aead_m5",
    }
}

/// The entry point of `op` for `counter`: one message's run of blocks.
pub(crate) fn entry_point(counter: AeadCounter, op: AeadOp) -> String {
    format!("{}_{}", prefix(counter), op.suffix())
}

/// The chunk kernel's entry point of `op` (encrypt or decrypt) for `counter`.
pub(crate) fn chunks_entry_point(counter: AeadCounter, op: AeadOp) -> String {
    format!("{}_{}_chunks", prefix(counter), op.suffix())
}

/// The per-warp counter kernel's entry point for `counter`.
pub(crate) fn counters_entry_point(counter: AeadCounter) -> String {
    format!("{}_counters", prefix(counter))
}

/// The chunk kernels' mask expansion (one for both counters).
pub(crate) const EXPAND_MASKS: &str = "aead_expand_masks";

/// Function `name` of `module`.
pub(crate) fn function(module: &Arc<CudaModule>, name: &str) -> Result<CudaFunction, GpuError> {
    module.load_function(name).map_err(GpuError::driver("loading a kernel"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinny_cuda::kernels::AEAD;

    #[test]
    fn entry_points_are_in_the_source() {
        for counter in [AeadCounter::Lfsr64, AeadCounter::Lfsr24] {
            for op in AeadOp::ALL {
                assert!(AEAD.text.contains(&format!("AEAD_ENTRY({},", entry_point(counter, op))));
            }
            assert!(AEAD.text.contains(&format!("AEAD_COUNTERS({},", counters_entry_point(counter))));
            for op in [AeadOp::Encrypt, AeadOp::Decrypt] {
                assert!(AEAD.text.contains(&format!("AEAD_CHUNKS_ENTRY({},", chunks_entry_point(counter, op))));
            }
        }
        assert!(AEAD.text.contains(&format!("void {EXPAND_MASKS}(")));
    }
}
