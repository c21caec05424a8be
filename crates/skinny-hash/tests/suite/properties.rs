//! Random checks: the hashers against the reference on messages of 0 to 4 KiB,
//! any split of a message into updates gives the same digest, and the
//! `digest` traits' routes (reset, clone, `DynDigest`) agree.

use proptest::prelude::*;
use skinny_hash::digest::{Digest, FixedOutputReset};
use skinny_hash::parameters::{Parameters, Tk2, Tk3};
use skinny_hash::{spec, SkinnyHash, SkinnyTk3Hash};

/// The digest of `msg` fed in pieces that end at `cuts` (taken modulo the
/// length, in any order, repeats allowed: empty updates are fine too).
fn in_pieces<P: Parameters>(msg: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut ends: Vec<usize> = cuts.iter().map(|c| c % (msg.len() + 1)).collect();
    ends.push(msg.len());
    ends.sort_unstable();
    let mut h = SkinnyHash::<P>::new();
    let mut start = 0;
    for end in ends {
        Digest::update(&mut h, &msg[start..end]);
        start = end;
    }
    h.finalize().to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tk3_matches_the_reference(msg in proptest::collection::vec(any::<u8>(), 0..4096)) {
        prop_assert_eq!(&SkinnyHash::<Tk3>::digest(&msg)[..], &spec::hash(Tk3::MEMBER, &msg)[..]);
    }

    #[test]
    fn tk2_matches_the_reference(msg in proptest::collection::vec(any::<u8>(), 0..4096)) {
        prop_assert_eq!(&SkinnyHash::<Tk2>::digest(&msg)[..], &spec::hash(Tk2::MEMBER, &msg)[..]);
    }

    #[test]
    fn splits_do_not_change_the_digest(
        msg in proptest::collection::vec(any::<u8>(), 0..600),
        cuts in proptest::collection::vec(any::<usize>(), 0..24),
    ) {
        prop_assert_eq!(in_pieces::<Tk3>(&msg, &cuts), SkinnyHash::<Tk3>::digest(&msg).to_vec());
        prop_assert_eq!(in_pieces::<Tk2>(&msg, &cuts), SkinnyHash::<Tk2>::digest(&msg).to_vec());
    }

    #[test]
    fn clones_and_resets_agree(a in proptest::collection::vec(any::<u8>(), 0..100), b in proptest::collection::vec(any::<u8>(), 0..100)) {
        let mut h = SkinnyTk3Hash::new_with_prefix(&a);
        let fork = h.clone();
        Digest::update(&mut h, &b);
        let whole: Vec<u8> = [&a[..], &b[..]].concat();
        prop_assert_eq!(h.finalize_fixed_reset(), SkinnyTk3Hash::digest(&whole));
        prop_assert_eq!(fork.finalize(), SkinnyTk3Hash::digest(&a));
        // After the reset, a fresh hasher.
        prop_assert_eq!(h.finalize(), SkinnyTk3Hash::digest(b""));
    }
}

/// Boxed, through the object-safe trait (feature `alloc`).
#[cfg(feature = "alloc")]
#[test]
fn dyn_digest_boxes() {
    use skinny_hash::digest::DynDigest;
    let mut hashers: Vec<Box<dyn DynDigest>> =
        vec![Box::new(SkinnyHash::<Tk3>::new()), Box::new(SkinnyHash::<Tk2>::new())];
    for h in &mut hashers {
        assert_eq!(h.output_size(), 32);
        h.update(b"abc");
    }
    assert_eq!(&hashers[0].box_clone().finalize()[..], &spec::hash(Tk3::MEMBER, b"abc")[..]);
    assert_eq!(&hashers[1].finalize_reset()[..], &spec::hash(Tk2::MEMBER, b"abc")[..]);
    assert_eq!(&hashers[1].finalize_reset()[..], &spec::hash(Tk2::MEMBER, b"")[..]);
}
