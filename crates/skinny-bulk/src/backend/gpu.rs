//! The CUDA backends (`gpu-paper`, `gpu`): adapter from skinny-cuda to the
//! Backend/Engine traits. Being written under issue 3; until then it reports
//! that no GPU backend is available.

use crate::backend::Backend;
use crate::Error;

/// Opens a GPU backend.
///
/// # Errors
/// Always, for now: the CUDA backend is not written yet.
pub fn open(_paper: bool) -> Result<Box<dyn Backend>, Error> {
    Err(Error::Backend("the CUDA backend is not available in this build yet".into()))
}

/// Describes the GPUs.
///
/// # Errors
/// Always, for now.
pub fn describe_gpus() -> Result<Vec<String>, String> {
    Err("the CUDA backend is not available in this build yet".into())
}
