//! `auto`: the GPU for inputs large enough to gain from it, the CPU otherwise.

use super::{cpu::CpuBackend, Backend, Engine, EngineError};
use crate::mode::Direction;
use crate::Error;
use skinny::{Skinny, Variant};

/// Below this many bytes per call the CPU is used even when there is a GPU: the
/// transfers and launch cost more than the CPU takes. Measured on the H200
/// machine (see docs/); a conservative figure.
pub const GPU_MIN_BYTES: usize = 1 << 20;

/// The `auto` backend.
pub struct AutoBackend {
    cpu: CpuBackend,
    gpu: Option<Box<dyn Backend>>,
}

impl AutoBackend {
    pub(super) fn new(cpu: CpuBackend, gpu: Option<Box<dyn Backend>>) -> Self {
        Self { cpu, gpu }
    }
}

impl Backend for AutoBackend {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn describe(&self) -> String {
        match &self.gpu {
            Some(g) => {
                format!("{} for calls of {} bytes and more, else {}", g.describe(), GPU_MIN_BYTES, self.cpu.describe())
            }
            None => self.cpu.describe(),
        }
    }

    fn constant_time(&self) -> bool {
        self.cpu.constant_time() && self.gpu.as_ref().is_none_or(|g| g.constant_time())
    }

    fn supports(&self, _variant: Variant) -> bool {
        true
    }

    fn engine(&self, cipher: &Skinny) -> Result<Box<dyn Engine>, Error> {
        let gpu = match &self.gpu {
            Some(g) if g.supports(cipher.variant()) => Some(g.engine(cipher)?),
            _ => None,
        };
        Ok(Box::new(AutoEngine { cpu: self.cpu.engine(cipher)?, gpu }))
    }
}

struct AutoEngine {
    cpu: Box<dyn Engine>,
    gpu: Option<Box<dyn Engine>>,
}

impl AutoEngine {
    fn pick(&mut self, len: usize) -> &mut dyn Engine {
        match &mut self.gpu {
            Some(g) if len >= GPU_MIN_BYTES => g.as_mut(),
            _ => self.cpu.as_mut(),
        }
    }
}

impl Engine for AutoEngine {
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), EngineError> {
        self.pick(blocks.len()).ecb(dir, blocks)
    }
    fn ctr(&mut self, counter: &[u8], data: &mut [u8]) -> Result<(), EngineError> {
        self.pick(data.len()).ctr(counter, data)
    }
    fn cbc_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), EngineError> {
        self.pick(blocks.len()).cbc_decrypt(iv, blocks)
    }
    fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), EngineError> {
        self.pick(blocks.len()).cfb_decrypt(iv, blocks)
    }
}
