//! The AEAD schemes a sealed file's payload can use: [`Scheme`] is
//! `skinny-many`'s, the one scheme set of the products (names, lengths). A
//! header's scheme byte is [`Scheme::id`]: 1 to 6 for SKINNY-AEAD M1 to M6, 7
//! for Romulus-N, 8 for Romulus-M (version-1 files know only 1 to 6).

pub use skinny_many::{Scheme, UnknownScheme};
