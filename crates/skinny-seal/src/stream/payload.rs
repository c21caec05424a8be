//! A file's payload as the loops and the codec see it ([`Stream`]): its
//! scheme, key, AD and chunk size, and its nonces ([`Nonces`]).

use crate::format::PREFIX_LEN;
use crate::scheme::Scheme;
use zeroize::Zeroizing;

/// The nonces of a stream: its prefix, then the chunk's index and whether
/// it is the last.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nonces {
    /// The scheme's nonce length (12 or 16).
    len: usize,
    /// The prefix: the first `len - 5` bytes count.
    prefix: [u8; PREFIX_LEN],
}

impl Nonces {
    /// The nonces of `scheme` after `prefix` (its first nonce length - 5
    /// bytes count).
    pub fn new(scheme: Scheme, prefix: [u8; PREFIX_LEN]) -> Self {
        Self { len: scheme.nonce_len(), prefix }
    }

    /// The nonce of chunk `index` (`last`: whether it ends the stream), in
    /// the first [`Nonces::nonce_len`] bytes.
    pub fn at(&self, index: u64, last: bool) -> [u8; 16] {
        let p = self.len - 5;
        let mut n = [0u8; 16];
        n[..p].copy_from_slice(&self.prefix[..p]);
        // index < MAX_CHUNKS = 2^32, checked by the callers.
        n[p..p + 4].copy_from_slice(&(index as u32).to_be_bytes());
        n[p + 4] = u8::from(last);
        n
    }

    /// The nonce length.
    pub fn nonce_len(&self) -> usize {
        self.len
    }
}

/// A file's payload: chunk `i` is `scheme(key, nonce_i, ad, plaintext_i)`.
#[derive(Clone)]
pub(crate) struct Stream {
    pub scheme: Scheme,
    pub key: Zeroizing<[u8; 16]>,
    pub nonces: Nonces,
    pub ad: Vec<u8>,
    pub chunk_log2: u8,
    /// A version-1 file (takes an empty last chunk after full ones, as v1 did).
    pub v1: bool,
    /// Where the first chunk starts in the file.
    pub data_start: u64,
}

impl Stream {
    /// The plaintext bytes of every chunk but the last.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// A whole chunk's bytes in the file (plaintext and tag).
    pub fn piece(&self) -> usize {
        self.chunk_size() + self.scheme.tag_len()
    }

    /// The format version (for reports).
    pub fn version(&self) -> u8 {
        if self.v1 {
            1
        } else {
            2
        }
    }
}
