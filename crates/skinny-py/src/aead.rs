//! The AEAD schemes on one message: SKINNY-AEAD M1-M6 and Romulus-N, -M, -T.
//! Bytes in, bytes out (ciphertext ‖ tag); a tag that does not verify raises
//! `AuthenticationError` and releases nothing.

use crate::common::Bytes;
use crate::errors::{Error, Kind, PyResultOf};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use skinny_aead::aead::array::typenum::Unsigned;
use skinny_aead::aead::{Aead, AeadCore, KeyInit, KeySizeUser, Payload};
use skinny_many::Scheme;
use zeroize::Zeroizing;

/// A scheme `aead_encrypt` takes: one of the products' shared set
/// (`skinny_many::Scheme`, which names it), or Romulus-T, which only this
/// one-message API offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AeadScheme {
    /// SKINNY-AEAD M1-M6, Romulus-N, Romulus-M.
    Shared(Scheme),
    /// Romulus-T (leakage-resilient).
    RomulusT,
}

impl AeadScheme {
    /// Every scheme: the shared ones by their number (M1..M6, Romulus-N,
    /// Romulus-M), then Romulus-T.
    pub fn all() -> impl Iterator<Item = AeadScheme> {
        (1..=u8::MAX).map_while(Scheme::from_id).map(AeadScheme::Shared).chain([AeadScheme::RomulusT])
    }

    /// The name: the library's (`skinny-aead-m1`, `romulus-t`).
    pub fn name(self) -> &'static str {
        match self {
            AeadScheme::Shared(s) => s.name(),
            AeadScheme::RomulusT => "romulus-t",
        }
    }

    /// Reads any name `skinny_many::Scheme` reads (`m1` and `skinny-aead-m1`,
    /// any case, `_` for `-`), or Romulus-T's likewise.
    pub fn parse(name: &str) -> Option<Self> {
        if let Ok(s) = name.parse::<Scheme>() {
            return Some(AeadScheme::Shared(s));
        }
        let n = name.trim().to_ascii_lowercase().replace('_', "-");
        (n == AeadScheme::RomulusT.name()).then_some(AeadScheme::RomulusT)
    }

    /// Key, nonce and tag lengths in bytes, as the scheme's type has them.
    pub fn lengths(self) -> (usize, usize, usize) {
        match self {
            AeadScheme::Shared(s) => (s.key_len(), s.nonce_len(), s.tag_len()),
            AeadScheme::RomulusT => lengths_of::<skinny_romulus::RomulusT>(),
        }
    }
}

fn lengths_of<A: AeadCore + KeySizeUser>() -> (usize, usize, usize) {
    (A::KeySize::USIZE, A::NonceSize::USIZE, A::TagSize::USIZE)
}

/// Every name `aead_encrypt` takes (Python's `AEAD_SCHEMES`).
pub fn names() -> Vec<&'static str> {
    AeadScheme::all().map(AeadScheme::name).collect()
}

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
    let Some(which) = AeadScheme::parse(scheme) else {
        return Err(Error::input(format!("unknown scheme {scheme:?} (expected one of {})", names().join(", "))));
    };
    let (name, (klen, nlen, _)) = (which.name(), which.lengths());
    if key.len() != klen {
        return Err(Error::input(format!("{name} takes a {klen}-byte key, not {}", key.len())));
    }
    if nonce.len() != nlen {
        return Err(Error::input(format!("{name} takes a {nlen}-byte nonce, not {}", nonce.len())));
    }
    use skinny_aead::*;
    use skinny_romulus::{RomulusM, RomulusN, RomulusT};
    let f = match which {
        AeadScheme::Shared(Scheme::SkinnyAead(m)) => match m {
            Member::M1 => seal_or_open::<SkinnyAeadM1>,
            Member::M2 => seal_or_open::<SkinnyAeadM2>,
            Member::M3 => seal_or_open::<SkinnyAeadM3>,
            Member::M4 => seal_or_open::<SkinnyAeadM4>,
            Member::M5 => seal_or_open::<SkinnyAeadM5>,
            Member::M6 => seal_or_open::<SkinnyAeadM6>,
        },
        AeadScheme::Shared(Scheme::RomulusN) => seal_or_open::<RomulusN>,
        AeadScheme::Shared(Scheme::RomulusM) => seal_or_open::<RomulusM>,
        AeadScheme::RomulusT => seal_or_open::<RomulusT>,
    };
    f(seal, key, nonce, ad, msg)
}

/// Encrypts and authenticates: ciphertext ‖ tag.
///
/// ``scheme``: ``"skinny-aead-m1"`` .. ``"skinny-aead-m6"`` (or ``"m1"`` ..
/// ``"m6"``), ``"romulus-n"``, ``"romulus-m"``, ``"romulus-t"`` (lengths:
/// :func:`aead_lengths`). A nonce
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
    AeadScheme::parse(scheme)
        .map(AeadScheme::lengths)
        .ok_or_else(|| Error::input(format!("unknown scheme {scheme:?}")).into())
}
