//! One file's payload as chunks: its scheme, key, nonces and AD, and a chunk
//! sealed or opened on the CPU by the scheme's own code (every path but the
//! whole-stream SKINNY-AEAD engine uses this: the Romulus windows, the
//! adapters, random access).

use crate::error::OpenError;
use crate::scheme::Scheme;
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce, Tag};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_romulus::{RomulusM, RomulusN};
use zeroize::{Zeroize, Zeroizing};

/// A payload's parameters: chunk `i` is `scheme(key, prefix | i (4) | last
/// flag (1), ad, plaintext_i)`. For v2 the prefix is zeros and the AD the
/// header MAC; for v1 the prefix is the header's and the AD the 24 header bytes.
pub(crate) struct Stream {
    pub scheme: Scheme,
    pub key: Zeroizing<[u8; 16]>,
    pub prefix: [u8; 11],
    pub ad: Vec<u8>,
    pub chunk_log2: u8,
    /// A v1 file (takes an empty last chunk after full ones, as v1 did).
    pub v1: bool,
    /// Where the first chunk starts in the file.
    pub data_start: u64,
}

impl Stream {
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// A whole chunk's bytes in the file (plaintext and tag).
    pub fn piece(&self) -> usize {
        self.chunk_size() + self.scheme.tag_len()
    }

    /// The nonce of chunk `index` (`index` < 2^32, checked by the callers).
    pub fn nonce(&self, index: u64, last: bool) -> ([u8; 16], usize) {
        let len = self.scheme.nonce_len();
        let p = len - 5;
        let mut n = [0u8; 16];
        n[..p].copy_from_slice(&self.prefix[..p]);
        n[p..p + 4].copy_from_slice(&(index as u32).to_be_bytes());
        n[p + 4] = u8::from(last);
        (n, len)
    }

    /// Encrypts `buf` (chunk `index`'s plaintext) in place and appends the tag.
    pub fn seal_chunk(&self, index: u64, last: bool, buf: &mut Vec<u8>) {
        let (nonce, len) = self.nonce(index, last);
        let ok = match self.scheme {
            Scheme::M1 => seal_with::<SkinnyAeadM1>(&self.key, &nonce[..len], &self.ad, buf),
            Scheme::M2 => seal_with::<SkinnyAeadM2>(&self.key, &nonce[..len], &self.ad, buf),
            Scheme::M3 => seal_with::<SkinnyAeadM3>(&self.key, &nonce[..len], &self.ad, buf),
            Scheme::M4 => seal_with::<SkinnyAeadM4>(&self.key, &nonce[..len], &self.ad, buf),
            Scheme::M5 => seal_with::<SkinnyAeadM5>(&self.key, &nonce[..len], &self.ad, buf),
            Scheme::M6 => seal_with::<SkinnyAeadM6>(&self.key, &nonce[..len], &self.ad, buf),
            Scheme::RomulusN => seal_with::<RomulusN>(&self.key, &nonce[..len], &self.ad, buf),
            Scheme::RomulusM => seal_with::<RomulusM>(&self.key, &nonce[..len], &self.ad, buf),
        };
        // Cannot fail: key and nonce have the scheme's lengths, and a chunk
        // (16 MiB at most) is far below every scheme's message limit.
        debug_assert!(ok);
    }

    /// Verifies chunk `index` (ciphertext ‖ tag) and decrypts it into `out`:
    /// whether it verified (on failure `out` holds nothing).
    pub fn open_chunk(&self, index: u64, last: bool, chunk: &[u8], out: &mut Vec<u8>) -> bool {
        let (nonce, len) = self.nonce(index, last);
        let n = &nonce[..len];
        let ok = match self.scheme {
            Scheme::M1 => open_with::<SkinnyAeadM1>(&self.key, n, &self.ad, chunk, out),
            Scheme::M2 => open_with::<SkinnyAeadM2>(&self.key, n, &self.ad, chunk, out),
            Scheme::M3 => open_with::<SkinnyAeadM3>(&self.key, n, &self.ad, chunk, out),
            Scheme::M4 => open_with::<SkinnyAeadM4>(&self.key, n, &self.ad, chunk, out),
            Scheme::M5 => open_with::<SkinnyAeadM5>(&self.key, n, &self.ad, chunk, out),
            Scheme::M6 => open_with::<SkinnyAeadM6>(&self.key, n, &self.ad, chunk, out),
            Scheme::RomulusN => open_with::<RomulusN>(&self.key, n, &self.ad, chunk, out),
            Scheme::RomulusM => open_with::<RomulusM>(&self.key, n, &self.ad, chunk, out),
        };
        if !ok {
            out.zeroize();
            out.clear();
        }
        ok
    }

    /// Opens chunk `index` that the reader says is (or is not) the file's
    /// last, and says why it fails: the file cut at a chunk boundary, data
    /// appended, an empty last chunk after full ones, or a changed chunk.
    pub fn open_checked(&self, index: u64, last: bool, chunk: &[u8], out: &mut Vec<u8>) -> Result<(), OpenError> {
        if chunk.len() < self.scheme.tag_len() {
            return Err(OpenError::TruncatedInside);
        }
        if self.open_chunk(index, last, chunk, out) {
            if last && index > 0 && out.is_empty() && !self.v1 {
                return Err(OpenError::EmptyLastChunk { chunk: index });
            }
            return Ok(());
        }
        let mut other = Zeroizing::new(Vec::new());
        Err(match self.open_chunk(index, !last, chunk, &mut other) {
            true if last => OpenError::Truncated { chunks: index + 1 },
            true => OpenError::TrailingData { chunk: index },
            false => OpenError::Authentication { chunk: index },
        })
    }
}

fn seal_with<A: AeadInOut + KeyInit>(key: &[u8; 16], nonce: &[u8], ad: &[u8], buf: &mut Vec<u8>) -> bool
where
    Key<A>: From<[u8; 16]>,
{
    let cipher = A::new(&Key::<A>::from(*key));
    let Ok(nonce) = Nonce::<A>::try_from(nonce) else { return false };
    match cipher.encrypt_inout_detached(&nonce, ad, buf.as_mut_slice().into()) {
        Ok(tag) => {
            buf.extend_from_slice(&tag);
            true
        }
        Err(_) => false,
    }
}

fn open_with<A: AeadInOut + KeyInit>(key: &[u8; 16], nonce: &[u8], ad: &[u8], chunk: &[u8], out: &mut Vec<u8>) -> bool
where
    Key<A>: From<[u8; 16]>,
{
    use aead::array::typenum::Unsigned;
    let t = <A as AeadCore>::TagSize::USIZE;
    let Some(body) = chunk.len().checked_sub(t) else { return false };
    let cipher = A::new(&Key::<A>::from(*key));
    let Ok(nonce) = Nonce::<A>::try_from(nonce) else { return false };
    let Ok(tag) = Tag::<A>::try_from(&chunk[body..]) else { return false };
    out.resize(body, 0);
    let Ok(buf) = InOutBuf::new(&chunk[..body], &mut out[..]) else { return false };
    cipher.decrypt_inout_detached(&nonce, ad, buf, &tag).is_ok()
}
