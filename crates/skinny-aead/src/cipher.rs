//! [`SkinnyAead`]: one member and key behind the RustCrypto `aead` traits, the
//! mode run on the bitsliced block engine.

use crate::engine::bitsliced::BitslicedEngine;
use crate::mode;
use crate::parameters::{self, Parameters};
use aead::consts::U16;
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Error, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};
use core::marker::PhantomData;
use zeroize::Zeroize;

/// SKINNY-AEAD with the member `P` (one of [`parameters`]); the six have
/// names of their own, [`SkinnyAeadM1`] to [`SkinnyAeadM6`].
///
/// The key is wiped when the value is dropped and never printed.
pub struct SkinnyAead<P: Parameters> {
    key: [u8; 16],
    parameters: PhantomData<P>,
}

/// SKINNY-AEAD-M1, the primary member: SKINNY-128-384, 128-bit key, nonce
/// and tag.
pub type SkinnyAeadM1 = SkinnyAead<parameters::M1>;
/// SKINNY-AEAD-M2: SKINNY-128-384, 128-bit key, 96-bit nonce, 128-bit tag.
pub type SkinnyAeadM2 = SkinnyAead<parameters::M2>;
/// SKINNY-AEAD-M3: SKINNY-128-384, 128-bit key, 128-bit nonce, 64-bit tag.
pub type SkinnyAeadM3 = SkinnyAead<parameters::M3>;
/// SKINNY-AEAD-M4: SKINNY-128-384, 128-bit key, 96-bit nonce, 64-bit tag.
pub type SkinnyAeadM4 = SkinnyAead<parameters::M4>;
/// SKINNY-AEAD-M5: SKINNY-128-256, 128-bit key, 96-bit nonce, 128-bit tag.
pub type SkinnyAeadM5 = SkinnyAead<parameters::M5>;
/// SKINNY-AEAD-M6: SKINNY-128-256, 128-bit key, 96-bit nonce, 64-bit tag.
pub type SkinnyAeadM6 = SkinnyAead<parameters::M6>;

impl<P: Parameters> KeySizeUser for SkinnyAead<P> {
    type KeySize = U16;
}

impl<P: Parameters> KeyInit for SkinnyAead<P> {
    fn new(key: &Key<Self>) -> Self {
        let mut k = [0u8; 16];
        k.copy_from_slice(key);
        Self { key: k, parameters: PhantomData }
    }
}

impl<P: Parameters> AeadCore for SkinnyAead<P> {
    type NonceSize = P::NonceSize;
    type TagSize = P::TagSize;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

impl<P: Parameters> AeadInOut for SkinnyAead<P> {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> Result<Tag<Self>, Error> {
        let member = P::MEMBER;
        let engine = BitslicedEngine::new(member.layout(), &self.key, nonce);
        let mut full = mode::seal(member, &engine, associated_data, buffer)?;
        let mut tag = Tag::<Self>::default();
        tag.copy_from_slice(&full[..member.tag_len()]);
        full.zeroize();
        Ok(tag)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> Result<(), Error> {
        let member = P::MEMBER;
        let engine = BitslicedEngine::new(member.layout(), &self.key, nonce);
        mode::open(member, &engine, associated_data, buffer, tag)
    }
}

impl<P: Parameters> Clone for SkinnyAead<P> {
    fn clone(&self) -> Self {
        Self { key: self.key, parameters: PhantomData }
    }
}

impl<P: Parameters> Drop for SkinnyAead<P> {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl<P: Parameters> zeroize::ZeroizeOnDrop for SkinnyAead<P> {}

impl<P: Parameters> core::fmt::Debug for SkinnyAead<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SkinnyAeadM{} {{ .. }}", P::MEMBER.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;

    #[test]
    fn the_key_is_never_printed() {
        let cipher = SkinnyAeadM5::new(&[0x42u8; 16].into());
        assert_eq!(format!("{cipher:?}"), "SkinnyAeadM5 { .. }");
        assert_eq!(format!("{:?}", SkinnyAeadM1::new(&[0x42u8; 16].into()).clone()), "SkinnyAeadM1 { .. }");
    }
}
