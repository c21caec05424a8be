//! # Romulus
//!
//! Romulus v1.3 (Iwata, Khairallah, Minematsu, Peyrin; a finalist of the NIST
//! lightweight cryptography competition, 2021), on the [`skinny`] crate's
//! SKINNY-128-384+ (SKINNY-128-384 cut to 40 rounds), behind the RustCrypto
//! [`aead`] 0.6 and [`digest`] 0.11 traits, and checked against the
//! submission's known-answer tests (1089 cases per AEAD scheme, 1025 for the
//! hash; `tests/kat/` names their source).
//!
//! | type | scheme | key | nonce | tag | SKINNY calls |
//! |---|---|---|---|---|---|
//! | [`RomulusN`] | nonce-based AEAD (the primary) | 128 | 128 | 128 | 1 per message block, 1 per 2 AD blocks |
//! | [`RomulusM`] | nonce-misuse-resistant AEAD | 128 | 128 | 128 | 2 per message block, 1 per 2 AD blocks |
//! | [`RomulusT`] | leakage-resilient AEAD | 128 | 128 | 128 | about 3 per message block, 1 per 2 blocks hashed |
//! | [`RomulusH`] | hash | | | 256-bit output | 2 per 32 input bytes |
//!
//! One generic type, [`Romulus`], over the [`scheme`] (as RustCrypto's
//! `aes-gcm` is generic over its cipher), with a name for each.
//!
//! # The construction
//!
//! Every call of SKINNY-128-384+ carries its own tweakey: TK1 = a 56-bit LFSR
//! block counter ‖ a domain byte ‖ 0^64, TK2 = the nonce or an AD block, TK3 =
//! the key (Romulus-T's keystream and Romulus-H use other TK2/TK3). Romulus-N
//! is a rate-1 feedback mode: the state S goes through ρ(S, M) = (S ⊕ M,
//! G(S) ⊕ M) with each block, then through the cipher; the tag is G(S) at the
//! end. Romulus-M authenticates the AD and the message that way and then
//! encrypts from the tag. Romulus-T derives a fresh key per block and tags a
//! Romulus-H hash of the AD and ciphertext. Romulus-H is MDPH: Hirose's
//! double-block-length compression over the 384-bit tweakey.
//!
//! The module [`reference`](mod@reference) is the specification written to be read, block by
//! block as its pseudocode goes; the tests check every known answer on it and
//! on the product code, and random inputs (0 to 4 KiB of message and AD) on
//! both against each other.
//!
//! # Security
//!
//! - **Romulus-N and Romulus-T nonces must never repeat under one key.**
//!   Romulus-M tolerates a repeat (it then only shows whether the same AD and
//!   message were sealed twice), but is best used with unique nonces too.
//! - Constant time: SKINNY runs on `skinny`'s single-block code (table-free:
//!   S-boxes as Boolean circuits, AVX-512/GFNI or SSSE3 found at run time,
//!   portable `u64` code elsewhere) and its table-free key schedule; G, ρ and
//!   the LFSR are shifts, masks and XORs; the modes branch and index on
//!   lengths only; the tag is compared with [`subtle::ConstantTimeEq`].
//! - Keys are wiped when a cipher value is dropped; tweakeys, round tweakeys,
//!   states, Romulus-T's block keys and scratch blocks are wiped after use; a
//!   [`RomulusH`] wipes its state when dropped.
//! - On a wrong tag nothing is released: the whole output is **overwritten
//!   with zeros** before [`aead::Error`] returns (as `skinny-aead` does), so
//!   opening in place destroys the ciphertext on failure; keep a copy if you
//!   need it. Romulus-T checks the tag before decrypting anything; Romulus-N and
//!   -M decrypt first and then wipe.
//! - Inputs of 2^56 - 2 blocks or more (AD and message together, about 2^60
//!   bytes) are refused with [`aead::Error`] before anything is written: the
//!   block counter must not repeat.
//!
//! # Speed
//!
//! Romulus is serial within a message. This first version runs every call
//! with a fresh 40-round tweakey schedule of all three arrays (module `tbc`
//! says what that costs and why); faster single messages and many messages at
//! once are later steps.
//!
//! # Example
//!
//! ```
//! use skinny_romulus::RomulusN;
//! use skinny_romulus::aead::{AeadInOut, KeyInit};
//!
//! let cipher = RomulusN::new(&[7u8; 16].into());
//! let nonce = [1u8; 16].into(); // never reuse a nonce with the same key
//! let mut buffer = *b"attack at dawn";
//! let tag = cipher.encrypt_inout_detached(&nonce, b"header", (&mut buffer[..]).into()).unwrap();
//! cipher.decrypt_inout_detached(&nonce, b"header", (&mut buffer[..]).into(), &tag).unwrap();
//! assert_eq!(&buffer, b"attack at dawn");
//! assert!(cipher.decrypt_inout_detached(&nonce, b"other", (&mut buffer[..]).into(), &tag).is_err());
//! assert_eq!(buffer, [0u8; 14]); // wiped on failure
//! ```
//!
//! `no_std` and no allocator; the default feature `alloc` adds `aead::Aead`
//! (results in a `Vec`) and `digest`'s boxed conveniences.
//!
//! Links: the specification and the designers' code,
//! <https://romulusae.github.io/romulus/> and
//! <https://github.com/romulusae/romulus>; NIST's final-round page,
//! <https://csrc.nist.gov/projects/lightweight-cryptography/finalists>.
// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use aead;
pub use digest;

mod cipher;
mod hash;
pub mod hazmat;
mod mode;
pub mod reference;
pub mod scheme;
mod tbc;

pub use cipher::{Romulus, RomulusM, RomulusN, RomulusT};
pub use hash::RomulusH;

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
