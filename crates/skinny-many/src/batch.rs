//! [`Batch`]: many independent messages laid out flat, each with its own key,
//! nonce, associated data and length, ready for an engine.
//!
//! The layout is the same for every engine (and is what a GPU engine copies
//! to the device as is): the keys back to back (16 bytes each), the nonces
//! back to back, all AD bytes back to back with one end offset per message,
//! and all data bytes back to back with one end offset per message. The data
//! is the plaintext for `seal` and ciphertext ‖ tag for `open`. Keys and data
//! are wiped when the batch is dropped.

use crate::wipe::wipe;
use crate::Scheme;
use core::ops::Range;

/// Why [`Batch::push`] refused a message (the batch is unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// The key is not the scheme's key length.
    #[error("a key of {got} bytes for {scheme}, which takes {want}")]
    KeyLength {
        /// The batch's scheme.
        scheme: Scheme,
        /// The length given.
        got: usize,
        /// The scheme's key length.
        want: usize,
    },
    /// The nonce is not the scheme's nonce length.
    #[error("a nonce of {got} bytes for {scheme}, which takes {want}")]
    NonceLength {
        /// The batch's scheme.
        scheme: Scheme,
        /// The length given.
        got: usize,
        /// The scheme's nonce length.
        want: usize,
    },
}

/// Many messages for one scheme, stored flat (see the module docs).
pub struct Batch {
    scheme: Scheme,
    // Keys and data are wiped by `Drop` (eight bytes a write).
    keys: Vec<u8>,
    nonces: Vec<u8>,
    ad: Vec<u8>,
    ad_ends: Vec<usize>,
    data: Vec<u8>,
    data_ends: Vec<usize>,
}

impl Batch {
    /// An empty batch for `scheme`.
    pub fn new(scheme: Scheme) -> Self {
        Self::with_capacity(scheme, 0, 0)
    }

    /// An empty batch with room for `messages` messages of `data_bytes` data
    /// bytes in all (AD grows as needed).
    pub fn with_capacity(scheme: Scheme, messages: usize, data_bytes: usize) -> Self {
        Self {
            scheme,
            keys: Vec::with_capacity(messages * scheme.key_len()),
            nonces: Vec::with_capacity(messages * scheme.nonce_len()),
            ad: Vec::new(),
            ad_ends: Vec::with_capacity(messages),
            data: Vec::with_capacity(data_bytes),
            data_ends: Vec::with_capacity(messages),
        }
    }

    /// Adds a message and returns its index. `data` is the plaintext for
    /// `seal`, or the ciphertext followed by the tag for `open`.
    ///
    /// # Errors
    /// [`BatchError`] for a key or nonce of the wrong length.
    pub fn push(&mut self, key: &[u8], nonce: &[u8], ad: &[u8], data: &[u8]) -> Result<usize, BatchError> {
        let scheme = self.scheme;
        if key.len() != scheme.key_len() {
            return Err(BatchError::KeyLength { scheme, got: key.len(), want: scheme.key_len() });
        }
        if nonce.len() != scheme.nonce_len() {
            return Err(BatchError::NonceLength { scheme, got: nonce.len(), want: scheme.nonce_len() });
        }
        extend_secret(&mut self.keys, key);
        self.nonces.extend_from_slice(nonce);
        self.ad.extend_from_slice(ad);
        self.ad_ends.push(self.ad.len());
        extend_secret(&mut self.data, data);
        self.data_ends.push(self.data.len());
        Ok(self.data_ends.len() - 1)
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The number of messages.
    pub fn len(&self) -> usize {
        self.data_ends.len()
    }

    /// Whether the batch has no message.
    pub fn is_empty(&self) -> bool {
        self.data_ends.is_empty()
    }

    /// All data bytes (every message's, back to back).
    pub fn data_bytes(&self) -> usize {
        self.data.len()
    }

    /// Message `i`'s nonce.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn nonce(&self, i: usize) -> &[u8] {
        let n = self.scheme.nonce_len();
        &self.nonces[i * n..(i + 1) * n]
    }

    /// Message `i`'s associated data.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn ad(&self, i: usize) -> &[u8] {
        &self.ad[self.ad_range(i)]
    }

    /// Message `i`'s data (plaintext, or ciphertext ‖ tag).
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn data(&self, i: usize) -> &[u8] {
        &self.data[self.data_range(i)]
    }

    /// Where message `i`'s AD lies in [`Batch::flat`]'s AD bytes.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn ad_range(&self, i: usize) -> Range<usize> {
        (if i == 0 { 0 } else { self.ad_ends[i - 1] })..self.ad_ends[i]
    }

    /// Where message `i`'s data lies in [`Batch::flat`]'s data bytes.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn data_range(&self, i: usize) -> Range<usize> {
        (if i == 0 { 0 } else { self.data_ends[i - 1] })..self.data_ends[i]
    }

    /// The flat layout, for engines (secret: the keys and the data).
    pub fn flat(&self) -> Flat<'_> {
        Flat {
            keys: &self.keys,
            nonces: &self.nonces,
            ad: &self.ad,
            ad_ends: &self.ad_ends,
            data: &self.data,
            data_ends: &self.data_ends,
        }
    }
}

/// Appends secret `bytes` to `v`, growing it by a copy that wipes the old
/// buffer (a plain reallocation would free it with the secrets in it).
fn extend_secret(v: &mut Vec<u8>, bytes: &[u8]) {
    let need = v.len() + bytes.len();
    if need > v.capacity() {
        let mut grown = Vec::with_capacity(need.max(2 * v.capacity()));
        grown.extend_from_slice(v);
        wipe(v);
        *v = grown;
    }
    v.extend_from_slice(bytes);
}

impl Drop for Batch {
    fn drop(&mut self) {
        wipe(&mut self.keys);
        wipe(&mut self.data);
    }
}

impl core::fmt::Debug for Batch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Batch")
            .field("scheme", &self.scheme)
            .field("messages", &self.len())
            .field("data_bytes", &self.data.len())
            .field("ad_bytes", &self.ad.len())
            .finish_non_exhaustive()
    }
}

/// A batch's flat arrays (see the module docs): what an engine reads. Holds
/// the keys: never log or display it.
#[derive(Clone, Copy)]
pub struct Flat<'a> {
    /// Every key, `key_len` bytes each.
    pub keys: &'a [u8],
    /// Every nonce, `nonce_len` bytes each.
    pub nonces: &'a [u8],
    /// Every message's AD, back to back.
    pub ad: &'a [u8],
    /// The end of message `i`'s AD in `ad` (its start is the previous end, or 0).
    pub ad_ends: &'a [usize],
    /// Every message's data, back to back.
    pub data: &'a [u8],
    /// The end of message `i`'s data in `data`.
    pub data_ends: &'a [usize],
}
