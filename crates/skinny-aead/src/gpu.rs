//! SKINNY-AEAD with a message's whole blocks on an NVIDIA GPU (feature `cuda`):
//! [`GpuAead`] seals and opens data already in device memory, or host memory
//! through the device, giving the same bytes and tags as the CPU types;
//! [`GpuChunks`] seals and opens a batch of messages of one size (chunks,
//! each under its own nonce) in one launch.
//!
//! The whole blocks of the message (and of large associated data) are one
//! kernel run each (`kernels/aead.cu` of `skinny-cuda`; its host code is here,
//! on that crate's device, registry and memory): every block's counter is
//! computed on the device, the key and nonce are masks in `__constant__`
//! memory, and the checksum is summed there. The rest of the mode (the partial
//! last block, the tag block, short AD) is a handful of blocks, done on the CPU
//! by the same code as the CPU types (`mode.rs`). Constant time like the CPU engines: the
//! kernels are bitsliced (no table, no secret-dependent branch or address).
//!
//! On a wrong tag, `open` overwrites the whole message with zeros (on the
//! device, or in the host buffer) before returning the error: no unverified
//! plaintext is released.
//!
//! A GPU is a [`GpuDevice`], opened by its number: no type of the device
//! crate is needed to use this module. Only the `_device` calls take device
//! memory, cudarc's buffers (`skinny_cuda::cudarc`), made on
//! [`GpuDevice::cuda_context`].

mod chunks;
mod device;
mod error;
mod finish;
pub mod inputs;
// One message's kernel launches: with `chunks/kernel.rs`, the files of this
// module with `unsafe` code.
#[allow(unsafe_code)]
mod kernel;
mod kernels;
mod message;

pub use chunks::{GpuChunks, MAX_CHUNK_LOG2, MIN_CHUNK_LOG2};
pub use device::GpuDevice;
pub use error::GpuAeadError;
pub use message::GpuAead;
