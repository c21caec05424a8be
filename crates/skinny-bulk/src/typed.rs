//! Bridges from the run-time [`Skinny`] to the typed ciphers, so the RustCrypto
//! mode crates (ecb, ctr, cbc, cfb-mode, ofb) can do the serial work.

use crate::backend::{Engine, EngineError};
use crate::mode::Direction;
use cipher::array::Array;
use cipher::common::InnerInit;
use cipher::{BlockModeDecrypt, BlockModeEncrypt, InnerIvInit, StreamCipher};
use ctr::flavors::{Ctr128BE, Ctr64BE};
use skinny::{Skinny, Variant};

/// A mode running block after block, keeping its chaining value between calls.
pub(crate) trait SerialStream: Send {
    /// Processes data in place. CBC takes whole blocks; CFB and OFB any length, but
    /// only the last call may end in a partial block.
    fn apply(&mut self, data: &mut [u8]);
}

/// The serial side of every mode for one typed cipher.
pub(crate) trait Typed: Send + Sync {
    fn cbc_encryptor(&self, iv: &[u8]) -> Box<dyn SerialStream>;
    fn cfb_encryptor(&self, iv: &[u8]) -> Box<dyn SerialStream>;
    fn cfb_decryptor(&self, iv: &[u8]) -> Box<dyn SerialStream>;
    fn ofb(&self, iv: &[u8]) -> Box<dyn SerialStream>;
    fn serial_engine(&self) -> Box<dyn Engine>;
}

/// One typed cipher `C` with its CTR flavour `F` (Ctr64BE for 64-bit blocks,
/// Ctr128BE for 128-bit ones). The trait impls are written out per concrete type
/// by `impl_typed!`, which keeps the mode crates' generic bounds out of sight.
pub(crate) struct TypedCipher<C, F> {
    cipher: C,
    _flavor: core::marker::PhantomData<fn() -> F>,
}

/// The portable one-thread engine: each parallel mode through its RustCrypto crate.
struct SerialEngine<C, F> {
    cipher: C,
    _flavor: core::marker::PhantomData<fn() -> F>,
}

/// A RustCrypto mode object driven as a [`SerialStream`].
struct Stream<M>(M);

fn iv_array<N: cipher::array::ArraySize>(iv: &[u8]) -> Array<u8, N> {
    Array::try_from(iv).expect("IV length checked by the caller")
}

macro_rules! impl_typed {
    ($ty:ty, $flavor:ty) => {
        impl SerialStream for Stream<cbc::Encryptor<$ty>> {
            fn apply(&mut self, data: &mut [u8]) {
                let (blocks, rest) = Array::slice_as_chunks_mut(data);
                debug_assert!(rest.is_empty());
                self.0.encrypt_blocks(blocks);
            }
        }

        impl SerialStream for Stream<cfb_mode::BufEncryptor<$ty>> {
            fn apply(&mut self, data: &mut [u8]) {
                self.0.encrypt(data);
            }
        }

        impl SerialStream for Stream<cfb_mode::BufDecryptor<$ty>> {
            fn apply(&mut self, data: &mut [u8]) {
                self.0.decrypt(data);
            }
        }

        impl SerialStream for Stream<ofb::Ofb<$ty>> {
            fn apply(&mut self, data: &mut [u8]) {
                self.0.apply_keystream(data);
            }
        }

        impl Typed for TypedCipher<$ty, $flavor> {
            fn cbc_encryptor(&self, iv: &[u8]) -> Box<dyn SerialStream> {
                Box::new(Stream(cbc::Encryptor::<$ty>::inner_iv_init(self.cipher.clone(), &iv_array(iv))))
            }
            fn cfb_encryptor(&self, iv: &[u8]) -> Box<dyn SerialStream> {
                Box::new(Stream(cfb_mode::BufEncryptor::<$ty>::inner_iv_init(self.cipher.clone(), &iv_array(iv))))
            }
            fn cfb_decryptor(&self, iv: &[u8]) -> Box<dyn SerialStream> {
                Box::new(Stream(cfb_mode::BufDecryptor::<$ty>::inner_iv_init(self.cipher.clone(), &iv_array(iv))))
            }
            fn ofb(&self, iv: &[u8]) -> Box<dyn SerialStream> {
                let core = ofb::OfbCore::<$ty>::inner_iv_init(self.cipher.clone(), &iv_array(iv));
                Box::new(Stream(ofb::Ofb::<$ty>::from_core(core)))
            }
            fn serial_engine(&self) -> Box<dyn Engine> {
                Box::new(SerialEngine::<$ty, $flavor> { cipher: self.cipher.clone(), _flavor: core::marker::PhantomData })
            }
        }

        impl Engine for SerialEngine<$ty, $flavor> {
            fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), EngineError> {
                let (blocks, _) = Array::slice_as_chunks_mut(blocks);
                match dir {
                    Direction::Encrypt => ecb::Encryptor::<$ty>::inner_init(self.cipher.clone()).encrypt_blocks(blocks),
                    Direction::Decrypt => ecb::Decryptor::<$ty>::inner_init(self.cipher.clone()).decrypt_blocks(blocks),
                }
                Ok(())
            }

            fn ctr(&mut self, counter: &[u8], data: &mut [u8]) -> Result<(), EngineError> {
                let core = ctr::CtrCore::<$ty, $flavor>::inner_iv_init(self.cipher.clone(), &iv_array(counter));
                // The wrapper handles a final partial block.
                cipher::StreamCipherCoreWrapper::from_core(core).apply_keystream(data);
                Ok(())
            }

            fn cbc_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), EngineError> {
                let (blocks, _) = Array::slice_as_chunks_mut(blocks);
                cbc::Decryptor::<$ty>::inner_iv_init(self.cipher.clone(), &iv_array(iv)).decrypt_blocks(blocks);
                Ok(())
            }

            fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), EngineError> {
                let (blocks, _) = Array::slice_as_chunks_mut(blocks);
                cfb_mode::Decryptor::<$ty>::inner_iv_init(self.cipher.clone(), &iv_array(iv)).decrypt_blocks(blocks);
                Ok(())
            }
        }
    };
}

impl_typed!(skinny::Skinny64_64, Ctr64BE);
impl_typed!(skinny::Skinny64_128, Ctr64BE);
impl_typed!(skinny::Skinny64_192, Ctr64BE);
impl_typed!(skinny::Skinny128_128, Ctr128BE);
impl_typed!(skinny::Skinny128_256, Ctr128BE);
impl_typed!(skinny::Skinny128_384, Ctr128BE);

macro_rules! typed {
    ($ty:ty, $flavor:ty, $cipher:expr) => {
        Box::new(TypedCipher::<$ty, $flavor> {
            cipher: <$ty>::from_dyn($cipher.clone()).expect("variant matched"),
            _flavor: core::marker::PhantomData,
        })
    };
}

/// The typed form of a run-time cipher (no new key expansion).
pub(crate) fn typed(cipher: &Skinny) -> Box<dyn Typed> {
    match cipher.variant() {
        Variant::Skinny64_64 => typed!(skinny::Skinny64_64, Ctr64BE, cipher),
        Variant::Skinny64_128 => typed!(skinny::Skinny64_128, Ctr64BE, cipher),
        Variant::Skinny64_192 => typed!(skinny::Skinny64_192, Ctr64BE, cipher),
        Variant::Skinny128_128 => typed!(skinny::Skinny128_128, Ctr128BE, cipher),
        Variant::Skinny128_256 => typed!(skinny::Skinny128_256, Ctr128BE, cipher),
        Variant::Skinny128_384 => typed!(skinny::Skinny128_384, Ctr128BE, cipher),
    }
}
