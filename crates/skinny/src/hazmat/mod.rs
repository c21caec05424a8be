//! Hazardous materials: the parts under the cipher types, for the other crates of
//! this workspace and for tests. **Not part of the stable API**: names, layouts and
//! signatures here may change in any release.
//!
//! Everything here handles key material without the guard rails of the cipher
//! types: round tweakeys are secret and must not be logged, copied around
//! carelessly or kept longer than needed.
//!
//! - [`spec`]: the portable implementation, written like the specification
//!   (S-box circuits, round function, tweakey schedule). Constant time: no
//!   secret-dependent branch or table index. Every faster backend is checked
//!   against it.
//! - [`bitsliced`]: many blocks at once in bitsliced form (AVX-512 or AVX2 found at run
//!   time, portable `u64` otherwise), constant time; what
//!   [`Skinny::encrypt_blocks`] and the RustCrypto types' parallel blocks use.
//!   Tests and benchmarks pick a path with [`bitsliced::Path`].
//! - [`single`]: one block at a time for the serial modes, built for latency
//!   (AVX-512 with GFNI or SSSE3 found at run time, portable `u64` otherwise),
//!   constant time; what [`Skinny::encrypt_block`] and the RustCrypto types'
//!   single blocks use. Tests pick a path with [`single::Path`].
//! - [`ct`]: the hooks of the constant-time check (valgrind client
//!   requests with the `ct-check` feature, nothing without it).
//! - [`partial`]: rounds `s ..= s + r - 1` on their own (round `s`'s
//!   constants and tweakey state), for distinguishers over the middle rounds.
//! - [`round_tweakeys`]: a cipher's expanded round tweakeys, for backends that
//!   run the rounds elsewhere (the GPU crate uploads them).

pub mod bitsliced;
pub mod ct;
pub mod partial;
pub mod single;
pub mod spec;

pub use spec::tweakey::RoundTweakeys;

use crate::Skinny;

/// The expanded round tweakeys of `cipher`, for backends that run the rounds
/// elsewhere (a GPU). Secret: never display or log them.
pub fn round_tweakeys(cipher: &Skinny) -> &RoundTweakeys {
    &cipher.rtk
}
