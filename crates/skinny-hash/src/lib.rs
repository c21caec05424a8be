//! # SKINNY-Hash
//!
//! The SKINNY-Hash family (Beierle, Jean, Kölbl, Leander, Moradi, Peyrin,
//! Sasaki, Sasdrich, Sim: *SKINNY-AEAD and SKINNY-Hash*, v1.1, NIST lightweight
//! cryptography round 2; the AEAD half is the `skinny-aead` crate), on the
//! [`skinny`] crate, behind the RustCrypto [`digest`] 0.11 traits, and checked
//! against the submission's known-answer tests (1025 cases per member,
//! `tests/kat/`).
//!
//! One generic type, [`SkinnyHash`], over the member's [`parameters`], with a
//! name for each member; [`Member`] names the two as values.
//!
//! | type | cipher | state | rate (absorbing) | calls per permutation | digest |
//! |---|---|---|---|---|---|
//! | [`SkinnyTk3Hash`] (primary) | SKINNY-128-384 | 384 | 128 | 3 | 256 |
//! | [`SkinnyTk2Hash`] | SKINNY-128-256 | 256 | 32 | 2 | 256 |
//!
//! # The construction
//!
//! A sponge over a function F built from SKINNY: F encrypts the constant
//! blocks 0, 1 (and 2) under the *whole state* used as the tweakey, and the
//! ciphertexts are the next state. The state starts as 0^r ‖ 1 ‖ 0^(c−1); the
//! message is padded with pad10* (always at least one bit) and absorbed r bits
//! at a time; the digest is two squeezes of 128 bits with F between them.
//! [`spec`] writes it out step by step.
//!
//! # Security
//!
//! - The submission claims 128-bit security for SKINNY-tk3-Hash and 112-bit
//!   security for SKINNY-tk2-Hash: half of their capacities (256 and 224
//!   bits), the sponge's generic bound, with F assumed ideal. Hosoyamada and
//!   Iwata (ePrint 2020/1344) prove F indifferentiable from a random function
//!   up to about 2^128 queries. [`digest::CollisionResistance`] says 16 and 14
//!   bytes.
//! - These are plain hash functions: not a MAC by themselves (use a keyed
//!   construction), and not a password hash.
//! - Constant time: F runs `skinny`'s single-block code (S-boxes as circuits
//!   or register lookups, no secret-dependent branch or memory index) and its
//!   tweakey schedule, which
//!   depends on the state only through XORs, cell moves and LFSRs; the sponge
//!   branches and indexes on lengths only. So secret data can be hashed
//!   without timing leaks; comparing digests that stand for secrets still
//!   takes a constant-time equality (such as `subtle`'s), not `==`.
//! - The state is wiped when a hasher is dropped or reset, and so are the
//!   per-call round tweakeys (the state is the tweakey).
//!
//! # Speed
//!
//! The state is the tweakey, so every permutation call has a tweakey of its
//! own: the schedule runs inside the rounds, and the call's 3 (or 2) blocks
//! run side by side in one register where the CPU allows (see
//! `skinny::hazmat::single::encrypt_lanes`). SKINNY-tk2-Hash still absorbs
//! only 4 bytes a call, so it is about a third as fast as SKINNY-tk3-Hash;
//! both are far slower than SHA-256 in software: they were made for small
//! hardware. Figures per machine: `docs/bench.md`.
//!
//! `no_std` and no allocator; the default feature `alloc` only adds
//! [`digest::DynDigest`]'s boxing.
//!
//! # Example
//!
//! ```
//! use skinny_hash::digest::Digest;
//! use skinny_hash::{SkinnyTk2Hash, SkinnyTk3Hash};
//!
//! let digest = SkinnyTk3Hash::digest(b"");
//! assert_eq!(digest[..4], [0x15, 0xc8, 0x1e, 0x6e]); // the first KAT case
//!
//! let mut hasher = SkinnyTk2Hash::new();
//! hasher.update(b"attack at ");
//! hasher.update(b"dawn");
//! assert_eq!(hasher.finalize(), SkinnyTk2Hash::digest(b"attack at dawn"));
//! ```
// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(test)]
extern crate std;

pub use digest;

mod hasher;
mod member;
pub mod parameters;
mod permutation;
pub mod spec;

pub use hasher::{SkinnyHash, SkinnyTk2Hash, SkinnyTk3Hash};
pub use member::{Member, UnknownMember, DIGEST_BYTES, MAX_STATE_BYTES};

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
