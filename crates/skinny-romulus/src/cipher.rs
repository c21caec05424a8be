//! [`Romulus`]: one scheme and key behind the RustCrypto `aead` traits.

use crate::scheme::{self, Scheme};
use crate::tbc::Block;
use aead::consts::U16;
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Error, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};
use core::marker::PhantomData;
use zeroize::Zeroize;

/// Romulus with the scheme `S` ([`scheme::N`], [`scheme::M`] or [`scheme::T`];
/// named [`RomulusN`], [`RomulusM`], [`RomulusT`]): 128-bit key, nonce and tag,
/// the tag after the ciphertext.
///
/// The key is wiped when the value is dropped and never printed.
pub struct Romulus<S: Scheme> {
    key: Block,
    scheme: PhantomData<S>,
}

/// Romulus-N, the nonce-based AEAD.
pub type RomulusN = Romulus<scheme::N>;
/// Romulus-M, the nonce-misuse-resistant AEAD.
pub type RomulusM = Romulus<scheme::M>;
/// Romulus-T, the leakage-resilient AEAD.
pub type RomulusT = Romulus<scheme::T>;

impl<S: Scheme> KeySizeUser for Romulus<S> {
    type KeySize = U16;
}

impl<S: Scheme> KeyInit for Romulus<S> {
    fn new(key: &Key<Self>) -> Self {
        let mut k = [0u8; 16];
        k.copy_from_slice(key);
        Self { key: k, scheme: PhantomData }
    }
}

impl<S: Scheme> AeadCore for Romulus<S> {
    type NonceSize = U16;
    type TagSize = U16;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

impl<S: Scheme> AeadInOut for Romulus<S> {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> Result<Tag<Self>, Error> {
        let mut tag = S::seal(&self.key, &block(nonce), associated_data, buffer)?;
        let out = Tag::<Self>::from(tag);
        tag.zeroize();
        Ok(out)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> Result<(), Error> {
        S::open(&self.key, &block(nonce), associated_data, buffer, &block(tag))
    }
}

/// A 16-byte array from the traits' `Array`.
fn block(x: &aead::array::Array<u8, U16>) -> Block {
    let mut b = [0u8; 16];
    b.copy_from_slice(x);
    b
}

impl<S: Scheme> Clone for Romulus<S> {
    fn clone(&self) -> Self {
        Self { key: self.key, scheme: PhantomData }
    }
}

impl<S: Scheme> Drop for Romulus<S> {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl<S: Scheme> zeroize::ZeroizeOnDrop for Romulus<S> {}

impl<S: Scheme> core::fmt::Debug for Romulus<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} {{ .. }}", S::NAME)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::format;

    #[test]
    fn the_key_is_never_printed() {
        let cipher = RomulusN::new(&[0x42u8; 16].into());
        assert_eq!(format!("{cipher:?}"), "Romulus-N { .. }");
        assert_eq!(format!("{:?}", RomulusT::new(&[0x42u8; 16].into()).clone()), "Romulus-T { .. }");
    }
}
