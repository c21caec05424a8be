//! The five classic modes as a streaming [`Processor`]: feed any amount of input,
//! get output as soon as it is safe to give, with memory bounded by what one call
//! hands in.
//!
//! Conventions (as RustCrypto's mode crates and OpenSSL): CTR's IV is one
//! big-endian integer of a block's width, +1 per block, wrapping modulo 2^n; CFB is
//! full-block CFB; CTR, CFB and OFB take any length; ECB and CBC pad with PKCS#7
//! unless told not to.

mod builder;
mod pkcs7;
mod processor;

pub use crate::operation::{Direction, Mode, Padding, UnknownMode};
pub use builder::ProcessorBuilder;
pub use processor::Processor;
