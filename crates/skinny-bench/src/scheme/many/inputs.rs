//! One point's inputs, and the single-message path they are compared with:
//! a batch of random messages (each its own random key and nonce, no AD),
//! the same messages sealed, and every message through its scheme's
//! single-message type (the RustCrypto `aead` traits of `skinny-romulus` and
//! `skinny-aead`), spread over the run's threads.

use super::plan::many_scheme;
use crate::measure::random_bytes;
use crate::scheme::{Algorithm, Operation};
use rayon::prelude::*;
use skinny_aead::aead::inout::InOutBuf;
use skinny_aead::aead::{AeadInOut, KeyInit, Nonce, Tag};
use skinny_aead::{Member, SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_many::{Batch, Scheme};
use skinny_romulus::{RomulusM, RomulusN};
use zeroize::Zeroizing;

/// The batches of one scheme and size: the plaintexts, and the same
/// messages sealed (ciphertext ‖ tag, by the single-message path).
pub(super) struct Inputs {
    /// Plaintexts: what `seal` is timed on.
    pub plain: Batch,
    /// Ciphertext ‖ tag under the same keys and nonces: what `open` is timed on.
    pub sealed: Batch,
    /// The sealed messages back to back, one stride of bytes + tag each:
    /// what a seal must give.
    pub sealed_bytes: Zeroizing<Vec<u8>>,
}

/// `messages` random messages of `bytes` bytes for `algorithm`, sealed too,
/// on `pool`.
///
/// # Errors
/// The single-message path refused a message (never expected).
pub(super) fn inputs(
    algorithm: Algorithm,
    bytes: usize,
    messages: usize,
    pool: &rayon::ThreadPool,
) -> Result<Inputs, String> {
    let scheme = many_scheme(algorithm).ok_or_else(|| format!("the many-message engine has no {algorithm}"))?;
    let (key_len, nonce_len) = (scheme.key_len(), scheme.nonce_len());
    let keys = Zeroizing::new(random_bytes(messages * key_len));
    let nonces = random_bytes(messages * nonce_len);
    let data = Zeroizing::new(random_bytes(messages * bytes));
    let mut plain = Batch::with_capacity(scheme, messages, data.len());
    for i in 0..messages {
        let key = &keys[i * key_len..][..key_len];
        let nonce = &nonces[i * nonce_len..][..nonce_len];
        plain.push(key, nonce, &[], &data[i * bytes..][..bytes]).map_err(|e| e.to_string())?;
    }
    let sealed_bytes = pool.install(|| single(algorithm, Operation::Seal, &plain, bytes))?;
    let stride = bytes + scheme.tag_len();
    let mut sealed = Batch::with_capacity(scheme, messages, sealed_bytes.len());
    for (i, s) in sealed_bytes.chunks_exact(stride).enumerate() {
        sealed.push(&keys[i * key_len..][..key_len], plain.nonce(i), &[], s).map_err(|e| e.to_string())?;
    }
    Ok(Inputs { plain, sealed, sealed_bytes })
}

/// Every message of `batch` (all `bytes` bytes of plaintext) sealed or
/// opened one per call through its scheme's single-message type, each under
/// its own key (its key schedule included), over the current rayon pool:
/// the outputs back to back (ciphertext ‖ tag, or plaintext).
///
/// # Errors
/// A tag that did not verify, or a scheme without a single-message type here.
pub(super) fn single(
    algorithm: Algorithm,
    operation: Operation,
    batch: &Batch,
    bytes: usize,
) -> Result<Zeroizing<Vec<u8>>, String> {
    let Some(scheme) = many_scheme(algorithm) else {
        return Err(format!("the many-message engine has no {algorithm}"));
    };
    let sealing = operation == Operation::Seal;
    match scheme {
        Scheme::RomulusN => each::<RomulusN>(batch, bytes, sealing),
        Scheme::RomulusM => each::<RomulusM>(batch, bytes, sealing),
        Scheme::SkinnyAead(m) => match m {
            Member::M1 => each::<SkinnyAeadM1>(batch, bytes, sealing),
            Member::M2 => each::<SkinnyAeadM2>(batch, bytes, sealing),
            Member::M3 => each::<SkinnyAeadM3>(batch, bytes, sealing),
            Member::M4 => each::<SkinnyAeadM4>(batch, bytes, sealing),
            Member::M5 => each::<SkinnyAeadM5>(batch, bytes, sealing),
            Member::M6 => each::<SkinnyAeadM6>(batch, bytes, sealing),
        },
    }
}

/// [`single`] for one type: the output is allocated per call, as the
/// engine's is, and wiped when dropped.
fn each<A: KeyInit + AeadInOut>(batch: &Batch, bytes: usize, sealing: bool) -> Result<Zeroizing<Vec<u8>>, String> {
    let tag_len = batch.scheme().tag_len();
    let key_len = batch.scheme().key_len();
    let stride = if sealing { bytes + tag_len } else { bytes };
    let mut out = Zeroizing::new(vec![0u8; stride * batch.len()]);
    let keys = batch.flat().keys;
    out.par_chunks_mut(stride).enumerate().try_for_each(|(i, o)| {
        let cipher = A::new_from_slice(&keys[i * key_len..][..key_len]).map_err(|_| "a key of the wrong length")?;
        let nonce = <&Nonce<A>>::try_from(batch.nonce(i)).map_err(|_| "a nonce of the wrong length")?;
        let data = batch.data(i);
        if sealing {
            let (body, tag) = o.split_at_mut(bytes);
            body.copy_from_slice(data);
            let t = cipher.encrypt_inout_detached(nonce, &[], body.into()).map_err(|_| "sealing failed")?;
            tag.copy_from_slice(&t);
        } else {
            let (body, tag) = data.split_at(data.len() - tag_len);
            let tag = <&Tag<A>>::try_from(tag).map_err(|_| "a tag of the wrong length")?;
            let io = InOutBuf::new(body, o).map_err(|_| "a message of the wrong length")?;
            cipher.decrypt_inout_detached(nonce, &[], io, tag).map_err(|_| "a tag did not verify")?;
        }
        Ok::<(), &str>(())
    })?;
    Ok(out)
}

/// Whether every message of `out` is its stride of `want`; the first that
/// is not, in words.
pub(super) fn check(out: &skinny_many::Output, want: &[u8], messages: usize) -> Result<(), String> {
    if out.len() != messages || !want.len().is_multiple_of(messages.max(1)) {
        return Err(format!("{} outputs for {messages} messages", out.len()));
    }
    let stride = want.len() / messages.max(1);
    for (i, w) in want.chunks_exact(stride.max(1)).take(messages).enumerate() {
        match out.message(i) {
            Ok(got) if got == w => {}
            Ok(_) => return Err(format!("message {i} differs from the single-message path")),
            Err(e) => return Err(format!("message {i}: {e}")),
        }
    }
    Ok(())
}
