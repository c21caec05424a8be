//! The CPU's work on a window: every chunk sealed or opened by the member's
//! [`SkinnyAead`](crate::SkinnyAead) on rayon's current pool, and the
//! diagnosis of a chunk that does not open.

use super::error::SealedError;
use super::header::Header;
use crate::cipher::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use crate::member::Member;
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce, Tag};
use rayon::prelude::*;
use skinny_exec::pipeline::Window;
use std::vec::Vec;
use zeroize::Zeroizing;

pub(super) type SealFn = fn(&[u8; 16], &[u8], &[u8], &mut Vec<u8>) -> Result<(), aead::Error>;
pub(super) type OpenFn = fn(&[u8; 16], &[u8], &[u8], &[u8], &mut Vec<u8>) -> Result<(), aead::Error>;

/// Encrypts `buf` in place and appends the tag.
fn seal_chunk<A: AeadInOut + KeyInit>(
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    buf: &mut Vec<u8>,
) -> Result<(), aead::Error>
where
    Key<A>: From<[u8; 16]>,
{
    let cipher = A::new(&Key::<A>::from(*key));
    let nonce = Nonce::<A>::try_from(nonce).map_err(|_| aead::Error)?;
    let tag: Tag<A> = cipher.encrypt_inout_detached(&nonce, ad, buf.as_mut_slice().into())?;
    buf.extend_from_slice(&tag);
    Ok(())
}

/// Verifies and decrypts `chunk` (ciphertext ‖ tag) into `out`, which then
/// holds the plaintext; on failure `out` holds nothing of it, and `chunk` is
/// untouched (for [`diagnose`]).
fn open_chunk<A: AeadInOut + KeyInit>(
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    chunk: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), aead::Error>
where
    Key<A>: From<[u8; 16]>,
{
    use aead::array::typenum::Unsigned;
    let t = <A as AeadCore>::TagSize::USIZE;
    let Some(body) = chunk.len().checked_sub(t) else {
        return Err(aead::Error);
    };
    let cipher = A::new(&Key::<A>::from(*key));
    let nonce = Nonce::<A>::try_from(nonce).map_err(|_| aead::Error)?;
    let tag = Tag::<A>::try_from(&chunk[body..]).map_err(|_| aead::Error)?;
    // Reuses the buffer: zero-fills only bytes it never held.
    out.resize(body, 0);
    let buf = InOutBuf::new(&chunk[..body], &mut out[..]).map_err(|_| aead::Error)?;
    cipher.decrypt_inout_detached(&nonce, ad, buf, &tag)
}

/// The member's chunk functions (a function pointer each: the windows call
/// them in parallel without matching on the member per chunk).
pub(super) fn chunk_ops(member: Member) -> (SealFn, OpenFn) {
    match member {
        Member::M1 => (seal_chunk::<SkinnyAeadM1>, open_chunk::<SkinnyAeadM1>),
        Member::M2 => (seal_chunk::<SkinnyAeadM2>, open_chunk::<SkinnyAeadM2>),
        Member::M3 => (seal_chunk::<SkinnyAeadM3>, open_chunk::<SkinnyAeadM3>),
        Member::M4 => (seal_chunk::<SkinnyAeadM4>, open_chunk::<SkinnyAeadM4>),
        Member::M5 => (seal_chunk::<SkinnyAeadM5>, open_chunk::<SkinnyAeadM5>),
        Member::M6 => (seal_chunk::<SkinnyAeadM6>, open_chunk::<SkinnyAeadM6>),
    }
}

/// Seals a window in place on rayon's pool.
pub(super) fn cpu_seal(header: &Header, key: &[u8; 16], ad: &[u8], w: &mut Window) -> Result<(), SealedError> {
    let (seal_fn, _) = chunk_ops(header.member);
    let (first, last, n) = (w.first, w.last, w.input.len());
    w.input
        .par_iter_mut()
        .enumerate()
        .try_for_each(|(i, buf)| {
            let (nonce, len) = header.nonce(first + i as u64, last && i + 1 == n);
            seal_fn(key, &nonce[..len], ad, buf)
        })
        // Cannot fail: the nonce and key lengths are the member's, and
        // chunks are far below every member's message limit.
        .map_err(|_| SealedError::InvalidOptions("the AEAD refused a chunk"))
}

/// Opens a window into its output buffers on rayon's pool: whether each
/// chunk verified.
pub(super) fn cpu_open(header: &Header, key: &[u8; 16], ad: &[u8], w: &mut Window) -> Vec<bool> {
    let (_, open_fn) = chunk_ops(header.member);
    let (first, last, n) = (w.first, w.last, w.input.len());
    w.input
        .par_iter()
        .zip(w.output[..n].par_iter_mut())
        .enumerate()
        .map(|(i, (chunk, out))| {
            let (nonce, len) = header.nonce(first + i as u64, last && i + 1 == n);
            open_fn(key, &nonce[..len], ad, chunk, out).is_ok()
        })
        .collect()
}

/// Why chunk `index` failed: if it verifies with the other value of the last
/// flag, the file was cut at a chunk boundary (or has data appended);
/// otherwise the key is wrong or the file was changed.
pub(super) fn diagnose(
    header: &Header,
    open_fn: OpenFn,
    key: &[u8; 16],
    ad: &[u8],
    index: u64,
    last: bool,
    ciphertext: &[u8],
) -> SealedError {
    let (nonce, len) = header.nonce(index, !last);
    let mut plain = Zeroizing::new(Vec::new());
    match open_fn(key, &nonce[..len], ad, ciphertext, &mut plain) {
        Ok(()) if last => SealedError::Truncated { chunks: index + 1 },
        Ok(()) => SealedError::TrailingData { chunk: index },
        Err(_) => SealedError::Authentication { chunk: index },
    }
}
