//! Version-1 files (skinny-aead's `sealed`) open here under their raw
//! 16-byte key, on every path, with the same policy on 64-bit tags.

mod common;
use common::*;
use skinny_aead::sealed::{self, Member};
use skinny_seal::{open, OpenError, OpenOptions, OpenReader, Scheme, SeekableOpener, SymmetricKey};
use std::io::Read;

#[test]
fn v1_files_open_on_every_path() {
    let raw = [0x24u8; 16];
    let k = SymmetricKey::from_bytes(&raw).unwrap();
    for member in Member::ALL {
        let scheme = Scheme::from_id(member.id()).unwrap();
        for len in [0usize, 1, 1023, 1024, 1025, 5000] {
            let msg = message(len, 9);
            let mut file = Vec::new();
            sealed::seal(&msg[..], &mut file, &raw, &sealed::SealOptions { member, chunk_log2: 10 }).unwrap();
            let oo = open_opts(scheme);
            let mut back = Vec::new();
            let r = open(&file[..], &mut back, &[&k], &oo).unwrap();
            assert_eq!((back.as_slice(), r.version), (&msg[..], 1));
            let mut back = Vec::new();
            OpenReader::new(&file[..], &[&k], &oo).unwrap().read_to_end(&mut back).unwrap();
            assert_eq!(back, msg);
            let mut back = Vec::new();
            SeekableOpener::new(std::io::Cursor::new(&file), &[&k], &oo).unwrap().read_to_end(&mut back).unwrap();
            assert_eq!(back, msg);
            if scheme.short_tag() {
                let e = open(&file[..], Vec::new(), &[&k], &OpenOptions::default()).unwrap_err();
                assert!(matches!(e, OpenError::ShortTagScheme(_)));
            }
        }
    }
    // A v1 file needs the raw 16-byte key; the wrong one fails its first chunk.
    let mut file = Vec::new();
    sealed::seal(&b"x"[..], &mut file, &raw, &sealed::SealOptions::default()).unwrap();
    let e = open(&file[..], Vec::new(), &[&key()], &OpenOptions::default()).unwrap_err();
    assert!(matches!(e, OpenError::V1NeedsRawKey), "{e}");
    let e = open(&file[..], Vec::new(), &[&SymmetricKey::from_bytes(&[1; 16]).unwrap()], &OpenOptions::default())
        .unwrap_err();
    assert!(matches!(e, OpenError::Authentication { chunk: 0 }), "{e}");
    let oo = OpenOptions { context: Some(b"c".to_vec()), ..OpenOptions::default() };
    assert!(matches!(open(&file[..], Vec::new(), &[&k], &oo), Err(OpenError::ContextNotBound)));
}
