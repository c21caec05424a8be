//! `cpu-serial`: the portable implementation on one thread, each mode through its
//! RustCrypto crate. The paper's CPU side, and the reference the others must match.

use super::{Backend, Engine};
use crate::Error;
use skinny::{Skinny, Variant};

/// The portable one-thread backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct SerialBackend;

impl Backend for SerialBackend {
    fn name(&self) -> &'static str {
        "cpu-serial"
    }

    fn describe(&self) -> String {
        "portable specification code, one thread, constant time".into()
    }

    fn constant_time(&self) -> bool {
        true
    }

    fn supports(&self, _variant: Variant) -> bool {
        true
    }

    fn engine(&self, cipher: &Skinny) -> Result<Box<dyn Engine>, Error> {
        Ok(crate::typed::typed(cipher).serial_engine())
    }
}
