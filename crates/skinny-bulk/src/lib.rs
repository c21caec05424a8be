//! # skinny-bulk
//!
//! SKINNY over many blocks: the five classic modes on streams of any size, and the
//! backends that encrypt many blocks at once.
//!
//! - [`mode`]: ECB, CTR, CBC, CFB, OFB as a streaming [`mode::Processor`] with
//!   bounded memory and PKCS#7 padding for ECB and CBC.
//! - [`backend`]: the [`backend::Backend`] / [`backend::Engine`] traits and the
//!   backends: `cpu-serial` (the portable specification code, one block at a
//!   time, one thread), `cpu` (bitsliced, all cores), and with the `cuda` feature
//!   `gpu-paper` and `gpu`.
//!   `auto` picks by hardware and input size.
//!
//! Parallel work (ECB, CTR, CBC and CFB decryption) goes to the backend's engine;
//! the serial modes (CBC and CFB encryption, OFB) run block after block on the
//! CPU, as they must, through the RustCrypto `cbc`, `cfb-mode` and `ofb` crates.
//!
//! ```
//! use skinny::{Skinny, Variant};
//! use skinny_bulk::backend::{self, BackendChoice};
//! use skinny_bulk::mode::{Direction, Mode, Processor};
//!
//! let cipher = Skinny::new(Variant::Skinny128_256, &[1u8; 32]).unwrap();
//! let be = backend::open(BackendChoice::CpuSerial, None).unwrap();
//! let mut enc = Processor::new(&cipher, Mode::Cbc, Direction::Encrypt, Some(&[0u8; 16]), true, be.as_ref()).unwrap();
//! let mut ct = Vec::new();
//! enc.update(b"hello, world", &mut ct).unwrap();
//! enc.finish(&mut ct).unwrap();
//! assert_eq!(ct.len(), 16);
//!
//! let mut dec = Processor::new(&cipher, Mode::Cbc, Direction::Decrypt, Some(&[0u8; 16]), true, be.as_ref()).unwrap();
//! let mut pt = Vec::new();
//! dec.update(&ct, &mut pt).unwrap();
//! dec.finish(&mut pt).unwrap();
//! assert_eq!(pt, b"hello, world");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod backend;
mod error;
pub mod mode;
mod typed;

pub use error::Error;
pub use skinny;
