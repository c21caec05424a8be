//! The two members as types, for [`SkinnyHash`](crate::SkinnyHash): each marker
//! names its [`Member`] and the sizes the `digest` traits want as types.
//! [`SkinnyTk3Hash`](crate::SkinnyTk3Hash) is `SkinnyHash<parameters::Tk3>`,
//! [`SkinnyTk2Hash`](crate::SkinnyTk2Hash) is `SkinnyHash<parameters::Tk2>`.

use crate::member::Member;
use digest::array::ArraySize;
use digest::typenum::{Unsigned, U14, U16, U4};

/// What [`SkinnyHash`](crate::SkinnyHash) is generic over: one member, its
/// rate and its collision resistance as types. Sealed: implemented by the two
/// markers of this module only.
pub trait Parameters: sealed::Sealed + 'static {
    /// The absorbing rate in bytes (16 or 4), the hasher's
    /// [`BlockSize`](digest::common::BlockSizeUser::BlockSize).
    type RateSize: ArraySize;
    /// The claimed collision resistance in bytes (16 or 14), the hasher's
    /// [`CollisionResistance`](digest::CollisionResistance).
    type CollisionResistance: Unsigned;
    /// The member.
    const MEMBER: Member;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! marker {
    ($(#[$doc:meta])* $name:ident, rate = $rate:ty, collision = $collision:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        impl Parameters for $name {
            type RateSize = $rate;
            type CollisionResistance = $collision;
            const MEMBER: Member = Member::$name;
        }

        // The types agree with the member's numbers.
        const _: () = assert!(
            <$rate as Unsigned>::USIZE == Member::$name.rate_bytes()
                && <$collision as Unsigned>::USIZE * 8 == Member::$name.security_bits()
        );
    };
}

marker!(
    /// SKINNY-tk3-Hash: SKINNY-128-384, 128-bit rate, 128-bit security.
    Tk3, rate = U16, collision = U16
);
marker!(
    /// SKINNY-tk2-Hash: SKINNY-128-256, 32-bit rate, 112-bit security.
    Tk2, rate = U4, collision = U14
);
