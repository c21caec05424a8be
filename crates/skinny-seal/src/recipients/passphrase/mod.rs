//! Passphrase stanzas (kind 2): the file key wrapped under a key derived from a
//! passphrase with Argon2id (RFC 9106, version 0x13).
//!
//! Body (73 bytes): `m_cost KiB (4, big-endian) | t_cost (4) | p (1) | salt (16) |
//! wrapped (48)`; `K_wrap = Argon2id(passphrase, salt, m, t, p)` (16 bytes, no
//! secret, no associated data). The parameters travel in the header so the sealer
//! chooses them; the opener checks them against [`PassphraseParams::MAX`] and
//! their work (memory times passes) against its cap
//! ([`PassphraseParams::DEFAULT_MAX_WORK`] unless raised) before running
//! anything, so a hostile header cannot make it allocate or spin for long
//! before anything is authenticated. A passphrase stanza must be a file's only
//! stanza.

use crate::file_key::FileKey;
use crate::stanza::{
    unwrap_file_key, wrap_file_key, Identity, Recipient, Stanza, StanzaError, KIND_PASSPHRASE, WRAPPED_LEN,
};
use argon2::{Algorithm, Argon2, Params, Version};
use zeroize::Zeroizing;

/// Length of a passphrase stanza's body.
pub const BODY_LEN: usize = 4 + 4 + 1 + SALT_LEN + WRAPPED_LEN;
const SALT_LEN: usize = 16;
const NAME: &str = "passphrase";

/// Argon2id's cost parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassphraseParams {
    /// Memory in KiB.
    pub m_kib: u32,
    /// Passes over the memory.
    pub t: u32,
    /// Lanes (parallelism).
    pub p: u8,
}

impl PassphraseParams {
    /// What `seal` uses unless told otherwise: 128 MiB, 2 passes, 1 lane (the
    /// argon2 crate runs lanes one after another, so more lanes add time, not
    /// speed). Measured at 1.2 s on a shared 2-core x86-64 machine
    /// (docs/sealed-format.md, Keys).
    pub const DEFAULT: Self = Self { m_kib: 128 * 1024, t: 2, p: 1 };
    /// The most an opener will run: 4 GiB, 64 passes, 16 lanes.
    pub const MAX: Self = Self { m_kib: 4 * 1024 * 1024, t: 64, p: 16 };
    /// The most work an opener runs unless told otherwise, in MiB times passes
    /// ([`Self::work`]): 4096, sixteen times [`Self::DEFAULT`]'s 256 (about
    /// 20 s where the default takes 1.2 s), e.g. 1 GiB and 4 passes, or 2 GiB
    /// and 2. A file sealed with more opens only when the cap is raised
    /// ([`Passphrase::with_max_work`]).
    pub const DEFAULT_MAX_WORK: u64 = 4096;

    /// Argon2id's work for these parameters in MiB times passes: the blocks it
    /// fills, whatever the lanes (they share the memory, not multiply it).
    pub fn work(&self) -> u64 {
        u64::from(self.m_kib) * u64::from(self.t) / 1024
    }

    /// Whether these parameters are within Argon2's rules (`m >= 8 p`, `t >= 1`,
    /// `p >= 1`) and within [`Self::MAX`].
    pub fn check(&self) -> Result<(), StanzaError> {
        let max = Self::MAX;
        if self.p == 0 || self.p > max.p {
            return Err(StanzaError::Kdf(format!(
                "passphrase parameters out of bounds: {} lanes (1..={})",
                self.p, max.p
            )));
        }
        if self.t == 0 || self.t > max.t {
            return Err(StanzaError::Kdf(format!(
                "passphrase parameters out of bounds: {} passes (1..={})",
                self.t, max.t
            )));
        }
        let min_m = 8 * u32::from(self.p);
        if self.m_kib < min_m || self.m_kib > max.m_kib {
            return Err(StanzaError::Kdf(format!(
                "passphrase parameters out of bounds: {} KiB of memory ({min_m}..={} KiB)",
                self.m_kib, max.m_kib
            )));
        }
        Ok(())
    }

    /// The 16-byte wrapping key for `passphrase` and `salt` under these parameters
    /// (checked first).
    pub fn derive(&self, passphrase: &[u8], salt: &[u8; SALT_LEN]) -> Result<Zeroizing<[u8; 16]>, StanzaError> {
        self.check()?;
        let params = Params::new(self.m_kib, self.t, u32::from(self.p), Some(16))
            .map_err(|_| StanzaError::Kdf("passphrase parameters rejected by Argon2".into()))?;
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        let mut key = Zeroizing::new([0u8; 16]);
        argon
            .hash_password_into(passphrase, salt, key.as_mut_slice())
            .map_err(|_| StanzaError::Kdf("Argon2id could not run (out of memory or passphrase too long)".into()))?;
        Ok(key)
    }
}

/// A passphrase: a recipient (sealing with [`Passphrase::params`]) and an
/// identity (opening, within [`PassphraseParams::MAX`]). Zeroized on drop.
pub struct Passphrase {
    secret: Zeroizing<Vec<u8>>,
    params: PassphraseParams,
    max_work: u64,
}

impl Passphrase {
    /// A passphrase with the default parameters.
    pub fn new(passphrase: impl Into<Vec<u8>>) -> Self {
        Self {
            secret: Zeroizing::new(passphrase.into()),
            params: PassphraseParams::DEFAULT,
            max_work: PassphraseParams::DEFAULT_MAX_WORK,
        }
    }

    /// The same passphrase opening stanzas of up to `max_work` MiB times
    /// passes ([`PassphraseParams::work`]; default
    /// [`PassphraseParams::DEFAULT_MAX_WORK`]); [`PassphraseParams::MAX`]
    /// bounds every stanza whatever this cap.
    pub fn with_max_work(mut self, max_work: u64) -> Self {
        self.max_work = max_work;
        self
    }

    /// The same passphrase sealing with other parameters (checked when sealing).
    pub fn with_params(mut self, params: PassphraseParams) -> Self {
        self.params = params;
        self
    }

    /// The parameters used when sealing.
    pub fn params(&self) -> PassphraseParams {
        self.params
    }
}

impl core::fmt::Debug for Passphrase {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Passphrase")
            .field("params", &self.params)
            .field("max_work", &self.max_work)
            .finish_non_exhaustive()
    }
}

impl Recipient for Passphrase {
    fn wrap(&self, file_key: &FileKey, header_start: &[u8]) -> Result<Stanza, StanzaError> {
        let mut salt = [0u8; SALT_LEN];
        getrandom::fill(&mut salt)?;
        let key = self.params.derive(&self.secret, &salt)?;
        let wrapped = wrap_file_key(&key, file_key, header_start);
        let mut body = Vec::with_capacity(BODY_LEN);
        body.extend_from_slice(&self.params.m_kib.to_be_bytes());
        body.extend_from_slice(&self.params.t.to_be_bytes());
        body.push(self.params.p);
        body.extend_from_slice(&salt);
        body.extend_from_slice(&wrapped);
        Ok(Stanza { kind: KIND_PASSPHRASE, body })
    }

    fn must_be_alone(&self) -> bool {
        true
    }
}

impl Identity for Passphrase {
    fn unwrap(&self, stanza: &Stanza, header_start: &[u8]) -> Result<Option<FileKey>, StanzaError> {
        if stanza.kind != KIND_PASSPHRASE {
            return Ok(None);
        }
        let (fields, wrapped) = super::split_body(NAME, &stanza.body, BODY_LEN)?;
        let params = PassphraseParams {
            m_kib: u32::from_be_bytes([fields[0], fields[1], fields[2], fields[3]]),
            t: u32::from_be_bytes([fields[4], fields[5], fields[6], fields[7]]),
            p: fields[8],
        };
        let mut salt = [0u8; SALT_LEN];
        salt.copy_from_slice(&fields[9..9 + SALT_LEN]);
        params.check()?;
        if params.work() > self.max_work {
            return Err(StanzaError::PassphraseCost { work: params.work(), cap: self.max_work });
        }
        let key = params.derive(&self.secret, &salt)?;
        Ok(unwrap_file_key(&key, &wrapped, header_start))
    }
}

#[cfg(test)]
mod tests;
