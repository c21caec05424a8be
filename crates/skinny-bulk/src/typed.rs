//! Bridges from the run-time [`Skinny`] to the typed ciphers, so the RustCrypto
//! mode crates (cbc, cfb-mode, ofb) can do the serial work.

use cipher::array::Array;
use cipher::{BlockModeEncrypt, InnerIvInit, StreamCipher};
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
}

/// One typed cipher. The trait impls are written out per concrete type by
/// `impl_typed!`, which keeps the mode crates' generic bounds out of sight.
pub(crate) struct TypedCipher<C> {
    cipher: C,
}

/// A RustCrypto mode object driven as a [`SerialStream`].
struct Stream<M>(M);

fn iv_array<N: cipher::array::ArraySize>(iv: &[u8]) -> Array<u8, N> {
    Array::try_from(iv).expect("IV length checked by the caller")
}

macro_rules! impl_typed {
    ($ty:ty) => {
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

        impl Typed for TypedCipher<$ty> {
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
        }
    };
}

impl_typed!(skinny::Skinny64_64);
impl_typed!(skinny::Skinny64_128);
impl_typed!(skinny::Skinny64_192);
impl_typed!(skinny::Skinny128_128);
impl_typed!(skinny::Skinny128_256);
impl_typed!(skinny::Skinny128_384);

macro_rules! typed {
    ($ty:ty, $cipher:expr) => {
        Box::new(TypedCipher::<$ty> { cipher: <$ty>::from_dyn($cipher.clone()).expect("variant matched") })
    };
}

/// The typed form of a run-time cipher (no new key expansion).
pub(crate) fn typed(cipher: &Skinny) -> Box<dyn Typed> {
    match cipher.variant() {
        Variant::Skinny64_64 => typed!(skinny::Skinny64_64, cipher),
        Variant::Skinny64_128 => typed!(skinny::Skinny64_128, cipher),
        Variant::Skinny64_192 => typed!(skinny::Skinny64_192, cipher),
        Variant::Skinny128_128 => typed!(skinny::Skinny128_128, cipher),
        Variant::Skinny128_256 => typed!(skinny::Skinny128_256, cipher),
        Variant::Skinny128_384 => typed!(skinny::Skinny128_384, cipher),
    }
}
