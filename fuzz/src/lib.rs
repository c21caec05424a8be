//! What the fuzz targets and the seed generator share: the fixed key every
//! seed is sealed under, the plaintext every seed holds, and the checks on
//! what an open gave back.

use skinny_seal::{hazmat, OpenError, OpenOptions, Scheme, SealOptions, SealReport, SymmetricKey};

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

/// What a seed's version-1 header holds besides [`PREFIX`]: its member and
/// chunk size.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// The SKINNY-AEAD member (M1 to M6).
    pub scheme: Scheme,
    /// The chunk size, as a power of two (4 to 24).
    pub chunk_log2: u8,
}

impl Layout {
    /// The plaintext bytes of every chunk but the last.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }
}

/// The version-1 header's length.
const HEADER_LEN: usize = 24;

/// `plain` sealed as the seeds are: a version-1 file of `layout`'s member and
/// chunk size, [`PREFIX`].
pub fn seal_like(layout: &Layout, plain: &[u8]) -> Vec<u8> {
    let options = SealOptions { scheme: layout.scheme, chunk_log2: layout.chunk_log2, ..SealOptions::default() };
    let prefix = &PREFIX[..layout.scheme.nonce_len() - 5];
    let mut out = Vec::new();
    hazmat::seal_v1_with_prefix(plain, &mut out, &KEY, &options, prefix).expect("sealing to memory cannot fail");
    out
}

/// Opens `file` as the target does: under [`KEY`] (a version-1 file's raw
/// key), the member its header names allowed (64-bit tags too).
pub fn open(file: &[u8], out: &mut Vec<u8>) -> Result<SealReport, OpenError> {
    let key = SymmetricKey::from_bytes(&KEY).expect("a 16-byte key");
    let named = file.get(11).and_then(|&id| Scheme::from_id(id)).filter(|s| s.short_tag());
    let options = OpenOptions { allow_short_tag_scheme: named, ..OpenOptions::default() };
    skinny_seal::open(file, out, &[&key], &options)
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
pub fn check_open(file: &[u8], out: &[u8], result: &Result<SealReport, OpenError>) {
    assert!(out.iter().enumerate().all(|(i, &b)| b == plain_byte(i)), "unverified bytes written");
    match result {
        Ok(report) => {
            assert_eq!(report.plaintext_bytes, out.len() as u64, "report and output disagree");
            let header = head(file).expect("an open succeeded without a header");
            assert_eq!((report.version, report.scheme), (1, header.scheme), "report and header disagree");
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

/// `file`'s version-1 header, if it has one that parses (the format's rules,
/// written here again as the oracle: magic, version 1, a member, a chunk
/// size in range, zeros after a 7-byte prefix).
fn head(file: &[u8]) -> Option<Layout> {
    let h = file.get(..HEADER_LEN)?;
    if h[..10] != *b"SKINNYSEAL" || h[10] != 1 {
        return None;
    }
    let scheme = Scheme::from_id(h[11]).filter(|s| s.id() <= 6)?;
    let chunk_log2 = Some(h[12]).filter(|c| (4..=24).contains(c))?;
    h[13 + scheme.nonce_len() - 5..].iter().all(|&b| b == 0).then_some(Layout { scheme, chunk_log2 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(scheme: Scheme, chunk_log2: u8, len: usize) -> Vec<u8> {
        seal_like(&Layout { scheme, chunk_log2 }, &plaintext(len))
    }

    #[test]
    fn seeds_open_and_keep_the_promises() {
        for member in Scheme::ALL.into_iter().filter(|s| s.id() <= 6) {
            let file = seed(member, 4, 40);
            let mut out = Vec::new();
            let result = open(&file, &mut out);
            assert!(result.is_ok());
            check_open(&file, &out, &result);
        }
    }

    #[test]
    fn a_changed_chunk_fails_after_the_verified_ones() {
        let mut file = seed(Scheme::M1, 4, 40);
        let last = file.len() - 1;
        file[last] ^= 1;
        let mut out = Vec::new();
        let result = open(&file, &mut out);
        assert!(result.is_err());
        check_open(&file, &out, &result);
    }

    #[test]
    #[should_panic(expected = "changed file")]
    fn success_on_another_file_is_caught() {
        let file = seed(Scheme::M2, 5, 17);
        let mut out = Vec::new();
        let result = open(&file, &mut out);
        check_open(&seed(Scheme::M2, 5, 18), &out, &result);
    }

    #[test]
    fn lab_inputs_never_panic_on_junk() {
        lab::read_and_merge(b"{}\x1e[]\x1enot json");
        lab::read_and_merge(b"");
    }
}
