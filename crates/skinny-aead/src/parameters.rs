//! The six members as types, for [`SkinnyAead`](crate::SkinnyAead): each
//! marker names its [`Member`] and its nonce and tag sizes.
//! [`SkinnyAeadM1`](crate::SkinnyAeadM1) is `SkinnyAead<parameters::M1>`, and
//! so on.

use crate::member::Member;
use aead::array::typenum::{Unsigned, U12, U16, U8};
use aead::array::ArraySize;

/// What [`SkinnyAead`](crate::SkinnyAead) is generic over: one member's
/// nonce and tag sizes, and the member. Sealed: implemented by the six
/// markers of this module only.
pub trait Parameters: sealed::Sealed + 'static {
    /// The nonce size in bytes (16 or 12).
    type NonceSize: ArraySize;
    /// The tag size in bytes (16 or 8).
    type TagSize: ArraySize;
    /// The member.
    const MEMBER: Member;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! marker {
    ($(#[$doc:meta])* $name:ident, $member:ident, nonce = $nonce:ty, tag = $tag:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        impl Parameters for $name {
            type NonceSize = $nonce;
            type TagSize = $tag;
            const MEMBER: Member = Member::$member;
        }

        // The sizes agree with the member's lengths.
        const _: () = assert!(
            <$nonce as Unsigned>::USIZE == Member::$member.nonce_len()
                && <$tag as Unsigned>::USIZE == Member::$member.tag_len()
        );
    };
}

marker!(
    /// SKINNY-AEAD-M1: 128-bit nonce and tag.
    M1, M1, nonce = U16, tag = U16
);
marker!(
    /// SKINNY-AEAD-M2: 96-bit nonce, 128-bit tag.
    M2, M2, nonce = U12, tag = U16
);
marker!(
    /// SKINNY-AEAD-M3: 128-bit nonce, 64-bit tag.
    M3, M3, nonce = U16, tag = U8
);
marker!(
    /// SKINNY-AEAD-M4: 96-bit nonce, 64-bit tag.
    M4, M4, nonce = U12, tag = U8
);
marker!(
    /// SKINNY-AEAD-M5: 96-bit nonce, 128-bit tag.
    M5, M5, nonce = U12, tag = U16
);
marker!(
    /// SKINNY-AEAD-M6: 96-bit nonce, 64-bit tag.
    M6, M6, nonce = U12, tag = U8
);
