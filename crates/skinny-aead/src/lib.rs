//! # SKINNY-AEAD
//!
//! The SKINNY-AEAD family (Beierle, Jean, Kölbl, Leander, Moradi, Peyrin,
//! Sasaki, Sasdrich, Sim: *SKINNY-AEAD and SKINNY-Hash*, v1.1, NIST lightweight
//! cryptography round 2), on the [`skinny`] crate, behind the RustCrypto
//! [`aead`] 0.6 traits, and checked against the submission's known-answer tests
//! (1089 cases per member, `tests/data/`).
//!
//! | type | cipher | key | nonce | tag | domain prefix |
//! |---|---|---|---|---|---|
//! | [`SkinnyAeadM1`] (primary) | SKINNY-128-384 | 128 | 128 | 128 | `0x00` |
//! | [`SkinnyAeadM2`] | SKINNY-128-384 | 128 | 96 | 128 | `0x10` |
//! | [`SkinnyAeadM3`] | SKINNY-128-384 | 128 | 128 | 64 | `0x08` |
//! | [`SkinnyAeadM4`] | SKINNY-128-384 | 128 | 96 | 64 | `0x18` |
//! | [`SkinnyAeadM5`] | SKINNY-128-256 | 128 | 96 | 128 | `0x10` |
//! | [`SkinnyAeadM6`] | SKINNY-128-256 | 128 | 96 | 64 | `0x18` |
//!
//! # The mode
//!
//! ΘCB3 as in Deoxys-I: every 128-bit block is one tweakable-block-cipher call,
//! its tweakey made of a block counter (an LFSR started at 1), a domain byte
//! (message block, partial message block, AD block, partial AD block, tag; ORed
//! with the member's prefix), the nonce and the key. M1-M4 (SKINNY-128-384):
//! TK1 = 64-bit LFSR (little-endian) ‖ 0^56 ‖ domain, TK2 = nonce (a 96-bit one
//! zero-padded), TK3 = key. M5-M6 (SKINNY-128-256): TK1 = 24-bit LFSR ‖ domain
//! ‖ nonce, TK2 = key. Message blocks are encrypted (a partial last block is
//! XORed with the encryption of zero); the checksum of the plaintext is
//! encrypted under the tag domain; the encrypted AD blocks are XORed into it,
//! and the tag is its first 16 or 8 bytes. The ciphertext is C ‖ tag.
//!
//! M5 and M6 refuse (with [`aead::Error`], before touching the buffer) a message
//! of 2^24 - 2 full blocks or more, or AD of more than 2^24 - 1 blocks (both
//! about 256 MiB): the message uses up to l + 2 values of the 24-bit counter,
//! whose period is 2^24 - 1, and no value may repeat. M1-M4 (64-bit counter)
//! have no practical limit.
//!
//! # Security
//!
//! - **Nonces must never repeat under one key**: a repeated nonce gives away
//!   the XOR of plaintexts block by block and allows forgeries.
//! - Constant time: the block calls run `skinny`'s bitsliced code, or for calls
//!   of a few blocks its single-block code, both table-free (S-boxes as Boolean
//!   circuits, no secret-dependent branch or index); which one runs depends on
//!   the number of blocks only; the mode branches and indexes on lengths only;
//!   the tag is compared with [`subtle::ConstantTimeEq`].
//! - Keys are wiped when a cipher value is dropped; the per-message tweakeys,
//!   round tweakeys, checksums and scratch blocks are wiped after each call.
//! - On a wrong tag nothing is released: decryption writes into the output
//!   buffer as it goes, and on failure **overwrites the whole output with
//!   zeros** before returning [`aead::Error`]. Decrypting in place therefore
//!   destroys the ciphertext on failure (the tag bytes of a `Vec` given to
//!   `decrypt_in_place` are left as they were); keep a copy if you need it.
//!
//! # Speed, and what can replace the block code
//!
//! Every block has its own tweakey (the counter changes every block). The
//! blocks go in batches of 256 through `skinny`'s constant-time bitsliced code
//! with a tweakey per block (AVX2 when the CPU has it): a few hundred MiB/s on
//! one core of the dev VM, `examples/aead_speed.rs`. All calls go through one
//! internal seam, a *block engine* that takes a batch of (tweak, block) pairs
//! for one key and nonce; a GPU engine could replace it without touching the
//! mode code.
//! The repository's `docs/aead.md` has the design and what is left.
//!
//! # Example
//!
//! ```
//! use skinny_aead::SkinnyAeadM1;
//! use skinny_aead::aead::{Aead, KeyInit, Payload};
//!
//! let cipher = SkinnyAeadM1::new(&[7u8; 16].into());
//! let nonce = [1u8; 16].into(); // never reuse a nonce with the same key
//! let ct = cipher.encrypt(&nonce, Payload { msg: b"attack at dawn", aad: b"header" }).unwrap();
//! assert_eq!(ct.len(), 14 + 16);
//! let pt = cipher.decrypt(&nonce, Payload { msg: &ct, aad: b"header" }).unwrap();
//! assert_eq!(pt, b"attack at dawn");
//! assert!(cipher.decrypt(&nonce, Payload { msg: &ct, aad: b"other" }).is_err());
//! ```
//!
//! # Sealed files
//!
//! With the default feature `std`, [`sealed`] encrypts a stream of any length
//! into a versioned, chunked file format (STREAM over SKINNY-AEAD) and back,
//! detecting truncation, reordering, splicing and header changes.
//!
//! `no_std` without the `std` feature; `alloc` (part of the default `std`) adds
//! [`aead::Aead`] (results in a `Vec`). Without it, use [`aead::AeadInOut`] (in
//! place, or from one buffer to another).
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(any(test, feature = "std"))]
extern crate std;

pub use aead;

mod engine;
#[cfg(feature = "cuda")]
pub mod gpu;
mod mode;
#[cfg(feature = "std")]
pub mod sealed;

use aead::consts::{U12, U16, U8};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Error, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};
use engine::{BitslicedEngine, Layout};
use mode::Member;
use zeroize::Zeroize;

macro_rules! member {
    (
        $(#[$doc:meta])*
        $name:ident, $label:literal, $layout:expr, nonce = $nonce:ty, tag = $tag:ty, tag_len = $tag_len:literal,
        prefix = $prefix:literal
    ) => {
        $(#[$doc])*
        ///
        /// The key is wiped when the value is dropped and never printed.
        #[derive(Clone)]
        pub struct $name {
            key: [u8; 16],
        }

        impl $name {
            const MEMBER: Member = Member { layout: $layout, tag_len: $tag_len, prefix: $prefix };
        }

        impl KeySizeUser for $name {
            type KeySize = U16;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                let mut k = [0u8; 16];
                k.copy_from_slice(key);
                Self { key: k }
            }
        }

        impl AeadCore for $name {
            type NonceSize = $nonce;
            type TagSize = $tag;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> Result<Tag<Self>, Error> {
                let engine = BitslicedEngine::new(Self::MEMBER.layout, &self.key, nonce);
                let mut full = mode::seal(Self::MEMBER, &engine, associated_data, buffer)?;
                let mut tag = Tag::<Self>::default();
                tag.copy_from_slice(&full[..$tag_len]);
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
                let engine = BitslicedEngine::new(Self::MEMBER.layout, &self.key, nonce);
                mode::open(Self::MEMBER, &engine, associated_data, buffer, tag)
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                self.key.zeroize();
            }
        }

        impl zeroize::ZeroizeOnDrop for $name {}

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!($label, " { .. }"))
            }
        }
    };
}

member!(
    /// SKINNY-AEAD-M1, the primary member: SKINNY-128-384, 128-bit key, nonce
    /// and tag.
    SkinnyAeadM1, "SkinnyAeadM1", Layout::Tk3, nonce = U16, tag = U16, tag_len = 16, prefix = 0x00
);
member!(
    /// SKINNY-AEAD-M2: SKINNY-128-384, 128-bit key, 96-bit nonce, 128-bit tag.
    SkinnyAeadM2, "SkinnyAeadM2", Layout::Tk3, nonce = U12, tag = U16, tag_len = 16, prefix = 0x10
);
member!(
    /// SKINNY-AEAD-M3: SKINNY-128-384, 128-bit key, 128-bit nonce, 64-bit tag.
    SkinnyAeadM3, "SkinnyAeadM3", Layout::Tk3, nonce = U16, tag = U8, tag_len = 8, prefix = 0x08
);
member!(
    /// SKINNY-AEAD-M4: SKINNY-128-384, 128-bit key, 96-bit nonce, 64-bit tag.
    SkinnyAeadM4, "SkinnyAeadM4", Layout::Tk3, nonce = U12, tag = U8, tag_len = 8, prefix = 0x18
);
member!(
    /// SKINNY-AEAD-M5: SKINNY-128-256, 128-bit key, 96-bit nonce, 128-bit tag.
    SkinnyAeadM5, "SkinnyAeadM5", Layout::Tk2, nonce = U12, tag = U16, tag_len = 16, prefix = 0x10
);
member!(
    /// SKINNY-AEAD-M6: SKINNY-128-256, 128-bit key, 96-bit nonce, 64-bit tag.
    SkinnyAeadM6, "SkinnyAeadM6", Layout::Tk2, nonce = U12, tag = U8, tag_len = 8, prefix = 0x18
);

// The tag lengths given to the macro agree with the `TagSize`s.
const _: () = {
    use aead::array::typenum::Unsigned;
    assert!(<SkinnyAeadM1 as AeadCore>::TagSize::USIZE == SkinnyAeadM1::MEMBER.tag_len);
    assert!(<SkinnyAeadM2 as AeadCore>::TagSize::USIZE == SkinnyAeadM2::MEMBER.tag_len);
    assert!(<SkinnyAeadM3 as AeadCore>::TagSize::USIZE == SkinnyAeadM3::MEMBER.tag_len);
    assert!(<SkinnyAeadM4 as AeadCore>::TagSize::USIZE == SkinnyAeadM4::MEMBER.tag_len);
    assert!(<SkinnyAeadM5 as AeadCore>::TagSize::USIZE == SkinnyAeadM5::MEMBER.tag_len);
    assert!(<SkinnyAeadM6 as AeadCore>::TagSize::USIZE == SkinnyAeadM6::MEMBER.tag_len);
};
