//! stub
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use aead;
pub use digest;

pub mod reference;
