//! Exact tables of an S-box: SKINNY's S4 and S8 or any permutation of up to
//! 8 bits. Every model of a differential, linear, boomerang or
//! differential-linear distinguisher starts from these.
//!
//! | table | indices | entry | definition (`u·v`: parity of `u & v`) |
//! |---|---|---|---|
//! | [`ddt`] | `[a, b]` | `u16` | `#{x : S(x)⊕S(x⊕a) = b}` |
//! | [`lat`] | `[a, b]` | `i32` | `#{x : a·x = b·S(x)} − 2^(n−1)` |
//! | [`bct`] | `[Δi, ∇o]` | `u16` | `#{x : S⁻¹(S(x)⊕∇o) ⊕ S⁻¹(S(x⊕Δi)⊕∇o) = Δi}` |
//! | [`dlct`] | `[a, l]` | `i32` | `#{x : l·S(x) = l·S(x⊕a)} − 2^(n−1)` |
//! | [`ubct`] | `[Δi, Δo, ∇o]` | `u16` | BCT's quartets with `S(x)⊕S(x⊕Δi) = Δo` |
//! | [`lbct`] | `[Δi, ∇i, ∇o]` | `u16` | BCT's quartets with `x ⊕ S⁻¹(S(x)⊕∇o) = ∇i` |
//! | [`ebct`] | `[Δi, Δo, ∇i, ∇o]` | `u16` | BCT's quartets with both |
//! | [`ddlct`] | `[a, l]` | `i32` | `Σ_d DDT[a][d]·DLCT[d][l]`: two S-box layers, a key between |
//!
//! Each function's page has the full definition and its source. The signed
//! tables count minus half (so a correlation is `entry / 2^(n−1)`, for the
//! DDLCT `entry / 2^(2n−1)`); the counting tables give the number of x (a
//! probability is `entry / 2^n`). Integer types are fixed: `u16` for counts
//! (up to 2^n = 256), `i32` for signed entries (the DDLCT reaches ±2^15).
//!
//! Sizes: a table of r indices has 2^(rn) entries. Everything is computed in
//! full for any S-box up to 8 bits except the EBCT, whose 2^32 entries for
//! S8 (8 GiB) [`ebct`] refuses; for S8 take [`ebct_slice`] (one `Δi`, one
//! `∇o`, time O(2^n)) or [`ebct_entry`]. The full UBCT and LBCT of S8 are
//! 2^24 entries, 32 MiB, and take O(8^n) time; [`ubct_slice`] and
//! [`lbct_slice`] give one `Δi` in O(4^n), the `_entry` functions one entry in
//! O(2^n).
//!
//! [`export`] writes two-index tables as CSV, as lists of transitions with
//! their weights, and as PLA truth tables for ESPRESSO (the step before CNF
//! and MILP models).
//!
//! ```
//! use skinny_lab::tables::{self, Sbox};
//!
//! let s8 = Sbox::s8();
//! let ddt = tables::ddt(&s8);
//! // SKINNY's S8: no difference goes through with probability above 64/256.
//! let best = ddt.iter_indexed().filter(|(i, _)| i[0] != 0).map(|(_, v)| v).max();
//! assert_eq!(best, Some(64));
//! // One slice of the 8 GiB EBCT: Δi = 0x01, ∇o = 0x01, over (Δo, ∇i).
//! let slice = tables::ebct_slice(&s8, 0x01, 0x01)?;
//! assert_eq!(slice.shape(), vec![256, 256]);
//! // Any permutation: the tables of PRESENT's S-box.
//! let present = Sbox::new(&[0xc, 5, 6, 0xb, 9, 0, 0xa, 0xd, 3, 0xe, 0xf, 8, 4, 7, 1, 2])?;
//! assert_eq!(tables::lat(&present).get(&[0, 0]), Some(8));
//! # Ok::<(), tables::TableError>(())
//! ```

mod boomerang;
mod differential;
mod differential_linear;
pub mod export;
mod linear;
mod sbox;
mod table;

#[cfg(test)]
mod tests;

pub use boomerang::{bct, ebct, ebct_entry, ebct_slice, lbct, lbct_entry, lbct_slice, ubct, ubct_entry, ubct_slice};
pub use differential::ddt;
pub use differential_linear::{ddlct, dlct};
pub use linear::lat;
pub use sbox::{Sbox, TableError, MAX_BITS, MAX_ENTRIES};
pub use table::Table;

/// SKINNY's 4-bit S-box S4 as a table (`S4[x]` = S4(x)), from the core crate.
pub const S4: [u8; 16] = skinny::hazmat::spec::sbox::S4_TABLE;
/// S4⁻¹ as a table.
pub const S4_INV: [u8; 16] = skinny::hazmat::spec::sbox::S4_INV_TABLE;
/// SKINNY's 8-bit S-box S8 as a table (`S8[x]` = S8(x)), from the core crate.
pub const S8: [u8; 256] = skinny::hazmat::spec::sbox::S8_TABLE;
/// S8⁻¹ as a table.
pub const S8_INV: [u8; 256] = skinny::hazmat::spec::sbox::S8_INV_TABLE;
