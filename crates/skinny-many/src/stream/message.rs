//! [`Message`] (what goes in), [`Ticket`] (its place in the order) and
//! [`Completion`] (what comes out).

use super::StreamError;
use crate::Output;
use std::sync::Arc;
use zeroize::Zeroizing;

/// A message's place in its stream's submission order: 0 for the first
/// message submitted, then 1, 2, … Completions come back in ticket order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket(pub u64);

impl Ticket {
    /// The sequence number.
    pub fn get(self) -> u64 {
        self.0
    }
}

impl core::fmt::Display for Ticket {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One message for a stream: key, nonce, associated data and data (the
/// plaintext to seal, or ciphertext ‖ tag to open). The key and the data are
/// wiped when it is dropped.
pub struct Message {
    key: Zeroizing<Vec<u8>>,
    nonce: Vec<u8>,
    ad: Vec<u8>,
    data: Zeroizing<Vec<u8>>,
}

impl Message {
    /// A message; `ad` and `data` are moved in where they are `Vec`s (no
    /// copy), copied otherwise. Lengths are checked when it is submitted.
    pub fn new(key: &[u8], nonce: &[u8], ad: impl Into<Vec<u8>>, data: impl Into<Vec<u8>>) -> Self {
        Self {
            key: Zeroizing::new(key.to_vec()),
            nonce: nonce.to_vec(),
            ad: ad.into(),
            data: Zeroizing::new(data.into()),
        }
    }

    /// The key (secret).
    pub fn key(&self) -> &[u8] {
        &self.key
    }

    /// The nonce.
    pub fn nonce(&self) -> &[u8] {
        &self.nonce
    }

    /// The associated data.
    pub fn ad(&self) -> &[u8] {
        &self.ad
    }

    /// The data (plaintext to seal, or ciphertext ‖ tag to open).
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// What the message counts against the byte cap: its AD and data.
    pub(super) fn weight(&self) -> usize {
        self.ad.len() + self.data.len()
    }
}

impl core::fmt::Debug for Message {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Message")
            .field("nonce_len", &self.nonce.len())
            .field("ad_len", &self.ad.len())
            .field("data_len", &self.data.len())
            .finish_non_exhaustive()
    }
}

/// A completed message: its ticket and its bytes (ciphertext ‖ tag after
/// sealing, plaintext after opening) or why it has none. Shares its batch's
/// [`Output`], wiped when the batch's last completion is dropped.
#[derive(Clone)]
pub struct Completion {
    ticket: Ticket,
    result: Result<(Arc<Output>, usize), StreamError>,
}

impl Completion {
    pub(super) fn new(ticket: Ticket, result: Result<(Arc<Output>, usize), StreamError>) -> Self {
        Self { ticket, result }
    }

    /// The message's ticket (what `submit` returned).
    pub fn ticket(&self) -> Ticket {
        self.ticket
    }

    /// The message's bytes.
    ///
    /// # Errors
    /// [`StreamError::Message`] for a message that failed alone (e.g. a wrong
    /// tag), [`StreamError::Engine`] or [`StreamError::EnginePanicked`] for a
    /// batch that failed as a whole.
    pub fn bytes(&self) -> Result<&[u8], StreamError> {
        match &self.result {
            Ok((out, i)) => Ok(out.message(*i)?),
            Err(e) => Err(e.clone()),
        }
    }

    /// Whether the message has bytes.
    pub fn is_ok(&self) -> bool {
        self.bytes().is_ok()
    }

    /// The message's bytes, copied into a buffer of its own that is wiped
    /// when dropped.
    ///
    /// # Errors
    /// As [`Completion::bytes`].
    pub fn to_vec(&self) -> Result<Zeroizing<Vec<u8>>, StreamError> {
        self.bytes().map(|b| Zeroizing::new(b.to_vec()))
    }
}

impl core::fmt::Debug for Completion {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut d = f.debug_struct("Completion");
        d.field("ticket", &self.ticket);
        match self.bytes() {
            Ok(b) => d.field("len", &b.len()),
            Err(e) => d.field("error", &e),
        };
        d.finish()
    }
}
