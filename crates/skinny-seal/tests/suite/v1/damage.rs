//! Every kind of damage to a version-1 file detected, with nothing of a
//! failing chunk released, on the one open loop every version and scheme
//! runs on.

use super::format::{data, open, open_into, options, seal_v1, seal_with, small, HEADER_LEN, KEY};
use super::members as all_members;
use skinny_seal::{OpenError, Scheme};

#[test]
fn every_flipped_byte_is_detected() {
    for member in all_members() {
        let (file, _) = small(member);
        for i in 0..file.len() {
            for bit in [0x01u8, 0x80] {
                let mut bad = file.clone();
                bad[i] ^= bit;
                let mut out = Vec::new();
                let e = open_into(&bad[..], &mut out, &KEY, Some(member)).unwrap_err();
                // A chunk that fails releases nothing of itself.
                let chunk = (i.saturating_sub(HEADER_LEN)) / (16 + member.tag_len());
                assert!(out.len() <= 16 * chunk, "{member:?} byte {i}: {} bytes out, {e}", out.len());
            }
        }
    }
}

#[test]
fn truncation_anywhere_is_detected_and_named_at_boundaries() {
    for member in all_members() {
        let (file, _) = small(member);
        let piece = 16 + member.tag_len();
        for cut in 0..file.len() {
            let e = open(&file[..cut], &KEY).unwrap_err();
            let at_boundary = cut > HEADER_LEN && (cut - HEADER_LEN).is_multiple_of(piece);
            match e {
                OpenError::Truncated { chunks } if at_boundary => {
                    assert_eq!(chunks as usize, (cut - HEADER_LEN) / piece)
                }
                OpenError::NotSealed if cut == 0 => {}
                OpenError::TruncatedHeader if cut < HEADER_LEN => {}
                OpenError::TruncatedInside | OpenError::Authentication { .. } if !at_boundary => {}
                other => panic!("{member:?} cut at {cut}: {other}"),
            }
        }
    }
}

/// A file cut inside a chunk releases every whole chunk before the cut (they
/// verify) and nothing of the cut one, with 1, 3 or 16 threads (windows of
/// different sizes): the output does not depend on how the pieces were
/// grouped. Bytes fewer than a tag after a whole last chunk are data after
/// the end.
#[test]
fn a_cut_inside_a_chunk_releases_exactly_the_whole_chunks_before_it() {
    let member = Scheme::M1;
    let log2 = 4u8;
    let plain = data(300 * 16 + 9);
    let file = seal_with(member, log2, &plain);
    let piece = 16 + member.tag_len();
    for threads in [1, 3, 16] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        for chunk in [0usize, 1, 7, 150, 299] {
            for extra in [1usize, 5, member.tag_len() - 1] {
                let cut = HEADER_LEN + chunk * piece + extra;
                let mut out = Vec::new();
                let e = pool.install(|| open_into(&file[..cut], &mut out, &KEY, None)).unwrap_err();
                assert!(matches!(e, OpenError::TruncatedInside), "{threads} threads, cut at {cut}: {e}");
                assert_eq!(out, plain[..chunk * 16], "{threads} threads, cut in chunk {chunk}");
            }
        }
        let whole = seal_with(member, log2, &plain[..300 * 16]);
        let mut longer = whole.clone();
        longer.extend_from_slice(&[0u8; 3]);
        let mut out = Vec::new();
        let e = pool.install(|| open_into(&longer[..], &mut out, &KEY, None)).unwrap_err();
        assert!(matches!(e, OpenError::TrailingData { chunk: 299 }), "{threads} threads: {e}");
        assert_eq!(out, plain[..299 * 16]);
    }
}

#[test]
fn swapped_spliced_and_appended_chunks_are_detected() {
    for member in all_members() {
        let (file, _) = small(member);
        let piece = 16 + member.tag_len();
        let chunk = |f: &[u8], i: usize| f[HEADER_LEN + i * piece..HEADER_LEN + (i + 1) * piece].to_vec();
        // Two chunks swapped.
        let mut swapped = file[..HEADER_LEN].to_vec();
        for i in [1, 0, 2] {
            swapped.extend(chunk(&file, i));
        }
        swapped.extend(&file[HEADER_LEN + 3 * piece..]);
        assert!(matches!(open(&swapped, &KEY), Err(OpenError::Authentication { chunk: 0 })));
        // A chunk from another file under the same key, same position.
        // (Its own prefix, as every sealed file draws one.)
        let mut other = Vec::new();
        let other_prefix = vec![0xee; member.nonce_len() - 5];
        seal_v1(&data(3 * 16 + 5)[..], &mut other, &options(member, 4), &other_prefix).unwrap();
        let mut spliced = file.clone();
        spliced[HEADER_LEN + piece..HEADER_LEN + 2 * piece].copy_from_slice(&chunk(&other, 1));
        let mut out = Vec::new();
        let r = open_into(&spliced[..], &mut out, &KEY, Some(member));
        assert!(matches!(r, Err(OpenError::Authentication { chunk: 1 })));
        assert!(out.len() <= 16, "{member:?}");
        // Another file's header on this file's chunks.
        let mut reheaded = other[..HEADER_LEN].to_vec();
        reheaded.extend(&file[HEADER_LEN..]);
        assert!(matches!(open(&reheaded, &KEY), Err(OpenError::Authentication { chunk: 0 })));
        // Bytes after the last chunk.
        let mut longer = file.clone();
        longer.extend([0u8; 7]);
        assert!(open(&longer, &KEY).is_err());
        // A whole chunk appended after a full last chunk: named.
        let full = seal_with(member, 4, &data(48));
        let mut appended = full.clone();
        appended.extend(chunk(&full, 0));
        assert!(matches!(open(&appended, &KEY), Err(OpenError::TrailingData { chunk: 2 })), "{member:?}");
        // A dropped middle chunk.
        let mut dropped = file[..HEADER_LEN + piece].to_vec();
        dropped.extend(&file[HEADER_LEN + 2 * piece..]);
        assert!(matches!(open(&dropped, &KEY), Err(OpenError::Authentication { chunk: 1 })));
    }
}

#[test]
fn a_failing_chunk_releases_exactly_the_chunks_before_it() {
    let plain = data(16 * 300);
    let file = seal_with(Scheme::M5, 4, &plain);
    let piece = 16 + Scheme::M5.tag_len();
    for bad in [0usize, 1, 37, 150, 299] {
        let mut damaged = file.clone();
        damaged[HEADER_LEN + bad * piece + 3] ^= 0x10;
        let mut out = Vec::new();
        let e = open_into(&damaged[..], &mut out, &KEY, None).unwrap_err();
        assert!(matches!(e, OpenError::Authentication { chunk } if chunk == bad as u64), "{bad}: {e}");
        assert_eq!(out, plain[..16 * bad], "chunk {bad}");
    }
}
