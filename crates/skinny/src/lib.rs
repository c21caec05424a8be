//! # SKINNY
//!
//! The SKINNY family of tweakable block ciphers (Beierle, Jean, Kölbl, Leander,
//! Moradi, Peyrin, Sasaki, Sasdrich, Sim; CRYPTO 2016): all six variants,
//! encryption and decryption, behind the RustCrypto [`cipher`] traits.
//!
//! | type | block | tweakey | rounds |
//! |---|---|---|---|
//! | [`Skinny64_64`]   | 64  | 64  | 32 |
//! | [`Skinny64_128`]  | 64  | 128 | 36 |
//! | [`Skinny64_192`]  | 64  | 192 | 40 |
//! | [`Skinny128_128`] | 128 | 128 | 40 |
//! | [`Skinny128_256`] | 128 | 256 | 48 |
//! | [`Skinny128_384`] | 128 | 384 | 56 |
//!
//! The key of these types is the whole tweakey TK1 ‖ TK2 ‖ TK3 in the
//! specification's byte order. The `Tweakable*` types take TK1 as a per-call tweak
//! and the rest as the key ([`cipher::TweakBlockCipherEncrypt`]).
//!
//! Where the code lives:
//! - [`Skinny`]: a cipher whose variant is chosen at run time, for bulk layers;
//!   [`BitslicedSkinny`]: the same with its bitsliced round-tweakey masks kept,
//!   for engines that encrypt many pieces with one key.
//! - [`hazmat`]: the specification code, the bitsliced engine, the single-block
//!   path and the round tweakeys, for this workspace's other crates and for
//!   tests; not a stable API.
//!
//! # Security
//!
//! These are bare block ciphers: a building block, not a way to protect data by
//! themselves. Encrypting several blocks takes a mode, and the block modes
//! (ECB, CBC, CTR, ... whether from RustCrypto or from `skinny-bulk`) are
//! **unauthenticated**: they hide data but let anyone change it undetected. ECB
//! shows which blocks are equal. Use an authenticated construction (an AEAD, or
//! encrypt-then-MAC) for anything that needs integrity. All code here is constant
//! time (no branch or table index depends on secret data) and wipes key material
//! when dropped.
//!
//! # Platforms
//!
//! `#![no_std]`; the `alloc` feature (part of the default `std`) puts the
//! bitsliced engine's big state on the heap (see *Stack use* below), and
//! without it the crate needs no allocator. AVX-512F and AVX2 (many blocks) and SSSE3 or
//! AVX-512VL with GFNI (single blocks) are found at run time on x86-64 (with
//! `cpufeatures`, also without std); every other CPU runs the portable
//! bitsliced and single-block code.
//! `checks/no-std` in the repository builds a `#![no_std]` static library on it.
//!
//! ```
//! use skinny::Skinny128_256;
//! use skinny::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! let key = [0x42u8; 32];
//! let cipher = Skinny128_256::new(&key.into());
//! let mut block = Array::from([0u8; 16]);
//! cipher.encrypt_block(&mut block);
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, Array::from([0u8; 16]));
//! ```
//!
//! With a RustCrypto mode crate (here CTR with a 128-bit big-endian counter):
//!
//! ```
//! use skinny::Skinny128_256;
//! use skinny::cipher::{KeyIvInit, StreamCipher};
//!
//! let mut data = *b"attack at dawn, attack at dawn!";
//! let mut ctr = ctr::Ctr128BE::<Skinny128_256>::new(&[7u8; 32].into(), &[0u8; 16].into());
//! ctr.apply_keystream(&mut data);
//! let mut ctr = ctr::Ctr128BE::<Skinny128_256>::new(&[7u8; 32].into(), &[0u8; 16].into());
//! ctr.apply_keystream(&mut data);
//! assert_eq!(&data, b"attack at dawn, attack at dawn!");
//! ```
//!
//! # Stack use
//!
//! With `alloc`, no call needs more than 64 KiB of stack, in any build
//! profile (opt-level 0 included): the bitsliced masks (up to 14 KiB) and
//! each call's batch buffers (up to 56 KiB on AVX-512) are allocated, once per
//! call (or per value, for [`BitslicedSkinny`] and the `hazmat` engines' masks).
//! Without `alloc` they are on the stack.

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
// Only the x86 intrinsics modules (bitsliced AVX2 and AVX-512, single-block
// SSSE3 / AVX-512) opt back in to `unsafe`, each block with a SAFETY comment.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub use cipher;

mod bitsliced_skinny;
pub mod counter;
mod error;
pub mod hazmat;
mod skinny;
mod tweakable;
mod typed;
mod variant;

// Short paths for the crate's own code.
use hazmat::spec::tweakey::RoundTweakeys;
use hazmat::{bitsliced, spec};

pub use bitsliced_skinny::BitslicedSkinny;
pub use error::{InvalidRounds, InvalidTweakeyLength, SetupError};
pub use hazmat::spec::CellWidth;
pub use skinny::Skinny;
pub use tweakable::{TweakableSkinny128_256, TweakableSkinny128_384, TweakableSkinny64_128, TweakableSkinny64_192};
pub use typed::{Skinny128_128, Skinny128_256, Skinny128_384, Skinny64_128, Skinny64_192, Skinny64_64};
pub use variant::{UnknownVariant, Variant};

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
