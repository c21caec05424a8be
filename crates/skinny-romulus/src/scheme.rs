//! The three AEAD schemes of Romulus as types, for [`Romulus`](crate::Romulus)'s
//! parameter (as `skinny-aead`'s `parameters` name its members).

use crate::mode;
use crate::tbc::Block;
use aead::inout::InOutBuf;
use aead::Error;

/// One of the schemes: [`N`], [`M`] or [`T`]. Sealed: the crate's three only.
pub trait Scheme: sealed::Mode {
    /// The scheme's name, e.g. `"Romulus-N"`.
    const NAME: &'static str;
}

pub(crate) mod sealed {
    use super::*;

    /// What a scheme does: the crate's modes behind one seam.
    pub trait Mode {
        /// Encrypts `buf` (input to output); returns the tag.
        fn seal(key: &Block, nonce: &Block, ad: &[u8], buf: InOutBuf<'_, '_, u8>) -> Result<Block, Error>;
        /// Decrypts `buf` (input to output) if `tag` is right; else zeros the output.
        fn open(key: &Block, nonce: &Block, ad: &[u8], buf: InOutBuf<'_, '_, u8>, tag: &Block) -> Result<(), Error>;
    }
}

macro_rules! scheme {
    ($(#[$doc:meta])* $name:ident, $label:literal, $module:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Scheme for $name {
            const NAME: &'static str = $label;
        }

        impl sealed::Mode for $name {
            fn seal(key: &Block, nonce: &Block, ad: &[u8], buf: InOutBuf<'_, '_, u8>) -> Result<Block, Error> {
                mode::$module::seal(key, nonce, ad, buf)
            }

            fn open(
                key: &Block,
                nonce: &Block,
                ad: &[u8],
                buf: InOutBuf<'_, '_, u8>,
                tag: &Block,
            ) -> Result<(), Error> {
                mode::$module::open(key, nonce, ad, buf, tag)
            }
        }
    };
}

scheme!(
    /// Romulus-N, the nonce-based AEAD (the primary scheme): one SKINNY call
    /// per message block and per two AD blocks. Nonces must never repeat
    /// under one key.
    N, "Romulus-N", n
);
scheme!(
    /// Romulus-M, the nonce-misuse-resistant AEAD (SIV-like: a MAC over the AD
    /// and the message, then encryption from the tag): a repeated nonce reveals
    /// only whether the same (AD, message) was sealed twice. Two passes; opening
    /// decrypts before it can check.
    M, "Romulus-M", m
);
scheme!(
    /// Romulus-T, the leakage-resilient AEAD: a fresh block key for every
    /// message block, and a tag over a Romulus-H hash; opening checks the tag
    /// before decrypting. About three SKINNY calls per 16 bytes.
    T, "Romulus-T", t
);
