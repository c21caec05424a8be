//! The header parser and the openers never panic, whatever the bytes.

use proptest::prelude::*;
use skinny_seal::header::Header;
use skinny_seal::{open, OpenOptions, OpenReader, SymmetricKey};
use std::io::Read;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = Header::parse(&bytes);
    }

    #[test]
    fn a_v2_start_then_any_bytes(tail in proptest::collection::vec(any::<u8>(), 0..400), scheme in 0u8..10, log2 in 8u8..26, count in 0u8..4) {
        let mut bytes = b"SKINNYSEAL\x02".to_vec();
        bytes.extend_from_slice(&[scheme, log2, 0]);
        bytes.extend_from_slice(&[9u8; 16]);
        bytes.push(count);
        bytes.extend_from_slice(&tail);
        if let Ok((h, n)) = Header::parse(&bytes) {
            prop_assert_eq!(&h.to_bytes()[..], &bytes[..n]);
        }
        let k = SymmetricKey::from_bytes(&[1u8; 16]).unwrap();
        let _ = open(&bytes[..], Vec::new(), &[&k], &OpenOptions::default());
        if let Ok(mut r) = OpenReader::new(&bytes[..], &[&k], &OpenOptions::default()) {
            let _ = r.read_to_end(&mut Vec::new());
        }
    }

    #[test]
    fn stanzas_of_known_kinds(kinds in proptest::collection::vec((1u8..4, 60u16..90), 1..5), tail in proptest::collection::vec(any::<u8>(), 0..64)) {
        let mut bytes = b"SKINNYSEAL\x02\x01\x10\x00".to_vec();
        bytes.extend_from_slice(&[9u8; 16]);
        bytes.push(kinds.len() as u8);
        for (k, len) in &kinds {
            bytes.push(*k);
            bytes.extend_from_slice(&len.to_be_bytes());
            bytes.extend(std::iter::repeat_n(*k, usize::from(*len)));
        }
        bytes.extend_from_slice(&tail);
        if let Ok((h, n)) = Header::parse(&bytes) {
            prop_assert_eq!(&h.to_bytes()[..], &bytes[..n]);
        }
    }
}
