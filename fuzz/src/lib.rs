//! What the fuzz targets and the seed generator share: the fixed key every
//! seed is sealed under, the plaintext every seed holds, and the checks on
//! what an open gave back.

use skinny_aead::sealed::{self, Header, SealOptions, HEADER_LEN};

pub mod lab;

/// The key the sealed-file seeds are sealed under and the target opens with.
pub const KEY: [u8; 16] = *b"fuzz-sealed-key!";

/// The nonce prefix of every seed (the member's first 11 or 7 bytes).
pub const PREFIX: [u8; 11] = *b"fuzz prefix";

/// Byte `i` of every seed's plaintext: position-dependent, so a verified
/// chunk moved elsewhere would show up as wrong bytes.
pub fn plain_byte(i: usize) -> u8 {
    (i.wrapping_mul(31) ^ (i >> 8).wrapping_mul(7)) as u8
}

/// The first `len` bytes of every seed's plaintext.
pub fn plaintext(len: usize) -> Vec<u8> {
    (0..len).map(plain_byte).collect()
}

/// `plain` sealed as the seeds are: `header`'s member and chunk size, [`PREFIX`].
pub fn seal_like(header: &Header, plain: &[u8]) -> Vec<u8> {
    let options = SealOptions { member: header.member, chunk_log2: header.chunk_log2 };
    let mut out = Vec::new();
    sealed::hazmat::seal_with_prefix(plain, &mut out, &KEY, &options, &PREFIX[..header.member.prefix_len()])
        .expect("sealing to memory cannot fail");
    out
}

/// The sealed-format promises about one `open` of `file` that wrote `out`:
/// - only verified chunks reach the writer, and only a seed's chunks verify
///   under [`KEY`], so `out` is always the seeds' plaintext, and whole chunks
///   unless the open succeeded;
/// - an open succeeds only on an unmodified seed: `out` sealed again is `file`;
/// - an error is one line.
///
/// # Panics
/// When a promise is broken (the fuzzer's crash).
pub fn check_open(file: &[u8], out: &[u8], result: &Result<sealed::SealedReport, sealed::SealedError>) {
    assert!(out.iter().enumerate().all(|(i, &b)| b == plain_byte(i)), "unverified bytes written");
    match result {
        Ok(report) => {
            assert_eq!(report.plaintext_bytes, out.len() as u64, "report and output disagree");
            let header = head(file).expect("an open succeeded without a header");
            assert_eq!(seal_like(&header, out), file, "an open succeeded on a changed file");
        }
        Err(e) => {
            let line = e.to_string();
            assert!(!line.is_empty() && !line.contains('\n'), "error is not one line: {line:?}");
            if let Some(header) = head(file) {
                assert_eq!(out.len() % header.chunk_size(), 0, "a partial chunk written before an error");
            } else {
                assert!(out.is_empty(), "output without a header");
            }
        }
    }
}

/// `file`'s header, if it has one that parses.
fn head(file: &[u8]) -> Option<Header> {
    let bytes: &[u8; HEADER_LEN] = file.get(..HEADER_LEN)?.try_into().ok()?;
    Header::parse(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinny_aead::Member;

    fn seed(member: Member, chunk_log2: u8, len: usize) -> Vec<u8> {
        let mut prefix = [0u8; 11];
        prefix[..member.prefix_len()].copy_from_slice(&PREFIX[..member.prefix_len()]);
        seal_like(&Header { member, chunk_log2, prefix }, &plaintext(len))
    }

    #[test]
    fn seeds_open_and_keep_the_promises() {
        for member in Member::ALL {
            let file = seed(member, 4, 40);
            let mut out = Vec::new();
            let result = sealed::open(&file[..], &mut out, &KEY);
            assert!(result.is_ok());
            check_open(&file, &out, &result);
        }
    }

    #[test]
    fn a_changed_chunk_fails_after_the_verified_ones() {
        let mut file = seed(Member::M1, 4, 40);
        let last = file.len() - 1;
        file[last] ^= 1;
        let mut out = Vec::new();
        let result = sealed::open(&file[..], &mut out, &KEY);
        assert!(result.is_err());
        check_open(&file, &out, &result);
    }

    #[test]
    #[should_panic(expected = "changed file")]
    fn success_on_another_file_is_caught() {
        let file = seed(Member::M2, 5, 17);
        let mut out = Vec::new();
        let result = sealed::open(&file[..], &mut out, &KEY);
        check_open(&seed(Member::M2, 5, 18), &out, &result);
    }

    #[test]
    fn lab_inputs_never_panic_on_junk() {
        lab::read_and_merge(b"{}\x1e[]\x1enot json");
        lab::read_and_merge(b"");
    }
}
