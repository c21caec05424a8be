//! `cpu-serial`: the portable specification code (`skinny::hazmat::spec`), one block at a
//! time on one thread. The paper's CPU side, and the reference every other
//! backend must match. It deliberately does not use the bitsliced batches that
//! `Skinny::encrypt_blocks` and the RustCrypto types' parallel blocks run on, nor
//! the single-block path (`skinny::hazmat::single`) behind `Skinny::encrypt_block`:
//! it calls the specification code by name.

use super::engine::{xor_in_place, Backend, BlockEngine, Workload};
use crate::operation::Direction;
use crate::Error;
use skinny::counter::Counter;
use skinny::hazmat::{round_tweakeys, spec};
use skinny::{Skinny, Variant};

/// The portable one-thread backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct SerialBackend;

impl Backend for SerialBackend {
    fn name(&self) -> &'static str {
        "cpu-serial"
    }

    fn describe(&self) -> String {
        "portable specification code, one block at a time, one thread".into()
    }

    fn constant_time(&self) -> bool {
        true
    }

    fn supports(&self, _variant: Variant) -> bool {
        true
    }

    fn engine_for(&self, cipher: &Skinny, _work: &Workload) -> Result<Box<dyn BlockEngine>, Error> {
        Ok(Box::new(SpecEngine { cipher: cipher.clone() }))
    }
}

/// One key on the portable backend.
struct SpecEngine {
    cipher: Skinny,
}

impl SpecEngine {
    /// One block through the specification code.
    fn encrypt(&self, block: &mut [u8]) {
        spec::encrypt_block(self.cipher.variant().cell_width(), round_tweakeys(&self.cipher), block);
    }
}

impl BlockEngine for SpecEngine {
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), Error> {
        for block in blocks.chunks_exact_mut(self.cipher.block_bytes()) {
            match dir {
                Direction::Encrypt => self.encrypt(block),
                Direction::Decrypt => {
                    spec::decrypt_block(self.cipher.variant().cell_width(), round_tweakeys(&self.cipher), block)
                }
            }
        }
        Ok(())
    }

    fn ctr(&mut self, mut counter: Counter, data: &mut [u8]) -> Result<(), Error> {
        let bs = self.cipher.block_bytes();
        let mut keystream = [0u8; 16];
        for piece in data.chunks_mut(bs) {
            counter.write_block(&mut keystream[..bs]);
            self.encrypt(&mut keystream[..bs]);
            xor_in_place(piece, &keystream[..bs]);
            counter.advance(1);
        }
        Ok(())
    }

    fn name(&self) -> &'static str {
        "cpu-serial"
    }
}
