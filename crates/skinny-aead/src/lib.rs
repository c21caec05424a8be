//! # SKINNY-AEAD
//!
//! The SKINNY-AEAD family (Beierle, Jean, Kölbl, Leander, Moradi, Peyrin,
//! Sasaki, Sasdrich, Sim: *SKINNY-AEAD and SKINNY-Hash*, v1.1, NIST lightweight
//! cryptography round 2), on the [`skinny`] crate, behind the RustCrypto
//! [`aead`] 0.6 traits, and checked against the submission's known-answer tests
//! (1089 cases per member, `tests/data/`).
//!
//! One generic type, [`SkinnyAead`], over the member's [`parameters`] (as
//! RustCrypto's `aes-gcm` is generic over its cipher and sizes), with a name
//! for each member; [`Member`] names the six as values.
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
//! for one key and nonce. With the `cuda` feature, the `gpu` module runs a
//! message's whole blocks on an NVIDIA GPU and the rest through the same mode
//! code. The repository's `docs/aead.md` has the design and what is left.
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
//! Files and streams of any length sealed in chunks (STREAM over SKINNY-AEAD
//! or Romulus, with keys, recipients and passphrases) are the `skinny-seal`
//! crate's; with the `cuda` feature, `gpu::GpuChunks` is the GPU primitive
//! its chunks run on.
//!
//! `no_std` without the `std` feature; `alloc` (part of the default `std`) adds
//! `aead::Aead` (results in a `Vec`). Without it, use [`aead::AeadInOut`] (in
//! place, or from one buffer to another).
// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
// No `unsafe` but the GPU's kernel launches (feature `cuda`), each file of
// them allowed on its own.
#![cfg_attr(not(feature = "cuda"), forbid(unsafe_code))]
#![cfg_attr(feature = "cuda", deny(unsafe_code))]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub use aead;

mod cipher;
mod engine;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod hazmat;
mod member;
mod mode;
pub mod parameters;
mod tweakey;

pub use cipher::{SkinnyAead, SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
pub use member::Member;

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
