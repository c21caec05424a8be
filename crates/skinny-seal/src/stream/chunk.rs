//! The one CPU chunk codec: a chunk sealed or opened by the scheme's own
//! code (a window of them on rayon's pool), and the end-of-stream rules every
//! path applies to what it read: a piece too short for a tag (the stream cut
//! inside a chunk), a chunk that fails (cut at a chunk boundary, data after
//! the end, or changed), an empty last chunk after full ones. The window
//! loops, the io adapters and random access all open through here.

use super::payload::Stream;
use crate::error::OpenError;
use crate::scheme::Scheme;
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce, Tag};
use rayon::prelude::*;
use skinny_aead::{Member, SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_exec::pipeline::Window;
use skinny_romulus::{RomulusM, RomulusN};
use zeroize::{Zeroize, Zeroizing};

impl Stream {
    /// Encrypts `buf` (chunk `index`'s plaintext) in place and appends the tag.
    pub fn seal_chunk(&self, index: u64, last: bool, buf: &mut Vec<u8>) {
        let nonce = self.nonces.at(index, last);
        let (n, key, ad) = (&nonce[..self.nonces.nonce_len()], &*self.key, &self.ad[..]);
        let ok = match self.scheme {
            Scheme::SkinnyAead(Member::M1) => seal_with::<SkinnyAeadM1>(key, n, ad, buf),
            Scheme::SkinnyAead(Member::M2) => seal_with::<SkinnyAeadM2>(key, n, ad, buf),
            Scheme::SkinnyAead(Member::M3) => seal_with::<SkinnyAeadM3>(key, n, ad, buf),
            Scheme::SkinnyAead(Member::M4) => seal_with::<SkinnyAeadM4>(key, n, ad, buf),
            Scheme::SkinnyAead(Member::M5) => seal_with::<SkinnyAeadM5>(key, n, ad, buf),
            Scheme::SkinnyAead(Member::M6) => seal_with::<SkinnyAeadM6>(key, n, ad, buf),
            Scheme::RomulusN => seal_with::<RomulusN>(key, n, ad, buf),
            Scheme::RomulusM => seal_with::<RomulusM>(key, n, ad, buf),
        };
        // Cannot fail: key and nonce have the scheme's lengths, and a chunk
        // (16 MiB at most) is far below every scheme's message limit.
        debug_assert!(ok);
    }

    /// Verifies chunk `index` (ciphertext ‖ tag) and decrypts it into `out`:
    /// whether it verified (on failure `out` holds nothing).
    pub fn open_chunk(&self, index: u64, last: bool, chunk: &[u8], out: &mut Vec<u8>) -> bool {
        let nonce = self.nonces.at(index, last);
        let (n, key, ad) = (&nonce[..self.nonces.nonce_len()], &*self.key, &self.ad[..]);
        let ok = match self.scheme {
            Scheme::SkinnyAead(Member::M1) => open_with::<SkinnyAeadM1>(key, n, ad, chunk, out),
            Scheme::SkinnyAead(Member::M2) => open_with::<SkinnyAeadM2>(key, n, ad, chunk, out),
            Scheme::SkinnyAead(Member::M3) => open_with::<SkinnyAeadM3>(key, n, ad, chunk, out),
            Scheme::SkinnyAead(Member::M4) => open_with::<SkinnyAeadM4>(key, n, ad, chunk, out),
            Scheme::SkinnyAead(Member::M5) => open_with::<SkinnyAeadM5>(key, n, ad, chunk, out),
            Scheme::SkinnyAead(Member::M6) => open_with::<SkinnyAeadM6>(key, n, ad, chunk, out),
            Scheme::RomulusN => open_with::<RomulusN>(key, n, ad, chunk, out),
            Scheme::RomulusM => open_with::<RomulusM>(key, n, ad, chunk, out),
        };
        if !ok {
            out.zeroize();
            out.clear();
        }
        ok
    }

    /// Whether a last piece of `len` bytes is too short to hold a tag: the
    /// stream was cut inside a chunk.
    pub fn cut(&self, len: usize) -> bool {
        len < self.scheme.tag_len()
    }

    /// Why chunk `index`, read as the last or not (`last`), failed: if it
    /// verifies with the other value of the last flag, the stream was cut at
    /// a chunk boundary (or has data appended); otherwise the key is wrong or
    /// the file was changed.
    pub fn diagnose(&self, index: u64, last: bool, chunk: &[u8]) -> OpenError {
        let mut other = Zeroizing::new(Vec::new());
        match self.open_chunk(index, !last, chunk, &mut other) {
            true if last => OpenError::Truncated { chunks: index + 1 },
            true => OpenError::TrailingData { chunk: index },
            false => OpenError::Authentication { chunk: index },
        }
    }

    /// The rule on a chunk that verified as the last: an empty one after full
    /// ones is never written (a sealer ends on a full chunk instead), so
    /// version 2 refuses it; version 1 always took it.
    pub fn check_last(&self, index: u64, plaintext: &[u8]) -> Result<(), OpenError> {
        if index > 0 && plaintext.is_empty() && !self.v1 {
            return Err(OpenError::EmptyLastChunk { chunk: index });
        }
        Ok(())
    }

    /// Opens chunk `index`, which the reader says is (or is not) the
    /// stream's last, by every rule above: its plaintext in `out`, or why
    /// not (nothing in `out`).
    pub fn open_checked(&self, index: u64, last: bool, chunk: &[u8], out: &mut Vec<u8>) -> Result<(), OpenError> {
        if self.cut(chunk.len()) {
            return Err(OpenError::TruncatedInside);
        }
        if !self.open_chunk(index, last, chunk, out) {
            return Err(self.diagnose(index, last, chunk));
        }
        if last {
            self.check_last(index, out)?;
        }
        Ok(())
    }

    /// Seals a window in place on rayon's pool.
    pub fn seal_window(&self, w: &mut Window) {
        let (first, last, n) = (w.first, w.last, w.input.len());
        w.input.par_iter_mut().enumerate().for_each(|(i, buf)| {
            self.seal_chunk(first + i as u64, last && i + 1 == n, buf);
        });
    }

    /// Opens a window into its output buffers on rayon's pool: whether each
    /// chunk verified (a chunk that fails gets an empty output).
    pub fn open_window(&self, w: &mut Window) -> Vec<bool> {
        let (first, last, n) = (w.first, w.last, w.input.len());
        w.input
            .par_iter()
            .zip(w.output[..n].par_iter_mut())
            .enumerate()
            .map(|(i, (chunk, out))| self.open_chunk(first + i as u64, last && i + 1 == n, chunk, out))
            .collect()
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
    // Reuses the buffer: zero-fills only bytes it never held.
    out.resize(body, 0);
    let Ok(buf) = InOutBuf::new(&chunk[..body], &mut out[..]) else { return false };
    cipher.decrypt_inout_detached(&nonce, ad, buf, &tag).is_ok()
}
