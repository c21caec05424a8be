//! The AEAD schemes on one message: SKINNY-AEAD M1-M6 and Romulus-N, -M, -T.
//! Bytes in, bytes out (ciphertext ‖ tag); a tag that does not verify raises
//! `AuthenticationError` and releases nothing.

use crate::common::Bytes;
use crate::errors::{Error, Kind, PyResultOf};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use skinny_aead::aead::{Aead, AeadCore, KeyInit, Payload};
use zeroize::Zeroizing;

/// The names `aead_encrypt` takes, with key, nonce and tag lengths.
pub const SCHEMES: [(&str, usize, usize, usize); 9] = [
    ("skinny-aead-m1", 16, 16, 16),
    ("skinny-aead-m2", 16, 12, 16),
    ("skinny-aead-m3", 16, 16, 8),
    ("skinny-aead-m4", 16, 12, 8),
    ("skinny-aead-m5", 16, 12, 16),
    ("skinny-aead-m6", 16, 12, 8),
    ("romulus-n", 16, 16, 16),
    ("romulus-m", 16, 16, 16),
    ("romulus-t", 16, 16, 16),
];

fn seal_or_open<A: Aead + KeyInit + AeadCore>(
    seal: bool,
    key: &[u8],
    nonce: &[u8],
    ad: &[u8],
    msg: &[u8],
) -> PyResultOf<Zeroizing<Vec<u8>>> {
    let cipher = A::new_from_slice(key).map_err(|_| Error::input("wrong key length"))?;
    let nonce = skinny_aead::aead::Nonce::<A>::try_from(nonce).map_err(|_| Error::input("wrong nonce length"))?;
    let payload = Payload { msg, aad: ad };
    let out = if seal { cipher.encrypt(&nonce, payload) } else { cipher.decrypt(&nonce, payload) };
    match out {
        Ok(v) => Ok(Zeroizing::new(v)),
        Err(_) if seal => Err(Error::input("the message or its associated data is longer than the scheme allows")),
        Err(_) => Err(Error::new(
            Kind::Authentication,
            "the message is not authentic (wrong key, nonce, associated data or tag, or altered)",
        )),
    }
}

/// Seals (`seal`) or opens `msg` under `scheme` after checking the lengths.
pub fn aead(
    scheme: &str,
    seal: bool,
    key: &[u8],
    nonce: &[u8],
    ad: &[u8],
    msg: &[u8],
) -> PyResultOf<Zeroizing<Vec<u8>>> {
    let name = crate::common::scheme_name(scheme);
    let Some(&(_, klen, nlen, _)) = SCHEMES.iter().find(|s| s.0 == name) else {
        let names: Vec<&str> = SCHEMES.iter().map(|s| s.0).collect();
        return Err(Error::input(format!("unknown scheme {scheme:?} (expected one of {})", names.join(", "))));
    };
    if key.len() != klen {
        return Err(Error::input(format!("{name} takes a {klen}-byte key, not {}", key.len())));
    }
    if nonce.len() != nlen {
        return Err(Error::input(format!("{name} takes a {nlen}-byte nonce, not {}", nonce.len())));
    }
    use skinny_aead::*;
    use skinny_romulus::{RomulusM, RomulusN, RomulusT};
    let f = match name.as_str() {
        "skinny-aead-m1" => seal_or_open::<SkinnyAeadM1>,
        "skinny-aead-m2" => seal_or_open::<SkinnyAeadM2>,
        "skinny-aead-m3" => seal_or_open::<SkinnyAeadM3>,
        "skinny-aead-m4" => seal_or_open::<SkinnyAeadM4>,
        "skinny-aead-m5" => seal_or_open::<SkinnyAeadM5>,
        "skinny-aead-m6" => seal_or_open::<SkinnyAeadM6>,
        "romulus-n" => seal_or_open::<RomulusN>,
        "romulus-m" => seal_or_open::<RomulusM>,
        _ => seal_or_open::<RomulusT>,
    };
    f(seal, key, nonce, ad, msg)
}

/// Encrypts and authenticates: ciphertext ‖ tag.
///
/// ``scheme``: ``"skinny-aead-m1"`` .. ``"skinny-aead-m6"``, ``"romulus-n"``,
/// ``"romulus-m"``, ``"romulus-t"`` (lengths: :func:`aead_lengths`). A nonce
/// must never repeat under one key (Romulus-M tolerates it best).
#[pyfunction]
#[pyo3(signature = (scheme, key, nonce, data, ad=None))]
pub fn aead_encrypt<'py>(
    py: Python<'py>,
    scheme: &str,
    key: Bytes,
    nonce: Bytes,
    data: Bytes,
    ad: Option<Bytes>,
) -> PyResult<Bound<'py, PyBytes>> {
    let ad: &[u8] = ad.as_deref().unwrap_or(&[]);
    let out = py.detach(|| aead(scheme, true, &key, &nonce, ad, &data))?;
    Ok(PyBytes::new(py, &out))
}

/// Verifies and decrypts ciphertext ‖ tag; raises ``AuthenticationError`` (releasing nothing) on a bad tag.
#[pyfunction]
#[pyo3(signature = (scheme, key, nonce, data, ad=None))]
pub fn aead_decrypt<'py>(
    py: Python<'py>,
    scheme: &str,
    key: Bytes,
    nonce: Bytes,
    data: Bytes,
    ad: Option<Bytes>,
) -> PyResult<Bound<'py, PyBytes>> {
    let ad: &[u8] = ad.as_deref().unwrap_or(&[]);
    let out = py.detach(|| aead(scheme, false, &key, &nonce, ad, &data))?;
    Ok(PyBytes::new(py, &out))
}

/// (key, nonce, tag) lengths in bytes of an AEAD scheme.
#[pyfunction]
pub fn aead_lengths(scheme: &str) -> PyResult<(usize, usize, usize)> {
    let name = crate::common::scheme_name(scheme);
    SCHEMES
        .iter()
        .find(|s| s.0 == name)
        .map(|s| (s.1, s.2, s.3))
        .ok_or_else(|| Error::input(format!("unknown scheme {scheme:?}")).into())
}
