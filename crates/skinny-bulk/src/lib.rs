//! # skinny-bulk
//!
//! SKINNY over many blocks: the five classic modes on streams of any size, and the
//! backends that encrypt many blocks at once.
//!
//! - [`mode`]: ECB, CTR, CBC, CFB, OFB as a [`mode::Processor`] (streaming or
//!   in place) with PKCS#7 padding for ECB and CBC.
//! - [`stream`]: `io::Write` and `io::Read` adapters, and [`stream::pipe`], which
//!   moves a message from a reader to a writer with reading, processing and
//!   writing overlapped (on the execution layer's one pipeline,
//!   [`skinny_exec::pipeline`]).
//! - [`backend`]: the [`backend::Backend`] / [`backend::BlockEngine`] traits and the
//!   backends: `cpu-serial` (the portable specification code, one block at a
//!   time, one thread), `cpu` (bitsliced, all cores), and with the `cuda` feature
//!   `gpu-paper` and `gpu`.
//!   `auto` starts on the CPU and takes a GPU only where it pays (through the
//!   execution layer's hand-over, [`skinny_exec::handover`]).
//! - `gpu` (feature `cuda`): the GPU backends' host code: one key on a GPU
//!   (`GpuCipher`), its host transfer paths, data already on the device, and
//!   several GPUs (`MultiGpuCipher`), over `skinny-cuda`'s kernels.
//!
//! Parallel work (ECB, CTR, CBC and CFB decryption) goes to the backend's engine;
//! the serial modes (CBC and CFB encryption, OFB) run block after block on the
//! CPU, as they must, through the RustCrypto `cbc`, `cfb-mode` and `ofb` crates.
//!
//! ```
//! use skinny::{Skinny, Variant};
//! use skinny_bulk::backend::{self, BackendChoice, Options};
//! use skinny_bulk::mode::{Direction, Mode, Processor};
//!
//! let cipher = Skinny::new(Variant::Skinny128_256, &[1u8; 32]).unwrap();
//! let cpu = backend::open(BackendChoice::Cpu, &Options::default()).unwrap();
//! let iv = [0u8; 16];
//!
//! // Streaming: any amount of input per call, output as soon as it is safe.
//! let mut enc = Processor::builder(&cipher, Mode::Cbc, Direction::Encrypt).iv(&iv).backend(cpu.as_ref()).build().unwrap();
//! let mut ct = Vec::new();
//! enc.update(b"hello, world", &mut ct).unwrap();
//! enc.finish(&mut ct).unwrap();
//! assert_eq!(ct.len(), 16);
//!
//! // A whole message in place.
//! let dec = Processor::builder(&cipher, Mode::Cbc, Direction::Decrypt).iv(&iv).backend(cpu.as_ref()).build().unwrap();
//! dec.finish_in_place(&mut ct).unwrap();
//! assert_eq!(ct, b"hello, world");
//! ```
//!
//! The modes are unauthenticated: a changed ciphertext decrypts to changed
//! plaintext without any error (only a broken PKCS#7 padding is noticed).

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Unsafe code only in the GPU host code (launches, page-locked memory), where
// each block says why it holds.
#![cfg_attr(not(feature = "cuda"), forbid(unsafe_code))]
#![cfg_attr(feature = "cuda", deny(unsafe_code))]
#![warn(missing_docs)]

pub mod backend;
mod error;
#[cfg(feature = "cuda")]
#[allow(unsafe_code)]
pub mod gpu;
pub mod mode;
mod operation;
pub mod stream;
mod typed;

pub use error::Error;
pub use skinny;

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
