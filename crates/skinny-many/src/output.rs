//! [`Output`]: what an engine gives back for a batch, message by message.

use zeroize::Zeroizing;

/// Why one message of a batch has no output. Only that message fails; the
/// others are unaffected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// `open`: the tag did not match (or the data was shorter than a tag).
    /// No plaintext of the message is released.
    #[error("the message is not authentic (wrong key, nonce, AD or tag, or altered)")]
    Forged,
    /// The message or its AD is longer than the scheme allows (SKINNY-AEAD M5
    /// and M6: about 256 MiB, a 24-bit block counter).
    #[error("the message or its associated data is longer than the scheme allows")]
    TooLong,
}

/// The results of one `seal` or `open` of a batch: message `i`'s bytes
/// (ciphertext ‖ tag after `seal`, plaintext after `open`) or why it has
/// none. Wiped when dropped.
pub struct Output {
    // Wiped by `Drop` (eight bytes a write, not zeroize's one).
    bytes: Vec<u8>,
    ends: Vec<usize>,
    status: Vec<Result<(), MessageError>>,
}

impl Output {
    /// An output assembled by an engine: `bytes` back to back with one end
    /// offset per message, and each message's status (a failed message's
    /// range must be empty or zeroed; [`Output::message`] never shows it).
    ///
    /// # Panics
    /// If `ends` and `status` differ in length, or an end is out of order or
    /// past `bytes`.
    pub fn from_parts(mut bytes: Zeroizing<Vec<u8>>, ends: Vec<usize>, status: Vec<Result<(), MessageError>>) -> Self {
        assert_eq!(ends.len(), status.len(), "one end and one status per message");
        assert!(ends.windows(2).all(|w| w[0] <= w[1]), "ends in order");
        assert!(ends.last().is_none_or(|&e| e <= bytes.len()), "ends inside the bytes");
        // Taken out of its wrapper (which wipes the empty vector left).
        let bytes = core::mem::take(&mut *bytes);
        Self { bytes, ends, status }
    }

    /// [`Output::from_parts`] for the engines of this crate, whose ends and
    /// statuses are right by construction (no pass over them).
    pub(crate) fn assembled(bytes: Vec<u8>, ends: Vec<usize>, status: Vec<Result<(), MessageError>>) -> Self {
        debug_assert_eq!(ends.len(), status.len());
        debug_assert!(ends.last().is_none_or(|&e| e == bytes.len()));
        Self { bytes, ends, status }
    }

    /// The number of messages.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Message `i`'s bytes, or why it has none.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn message(&self, i: usize) -> Result<&[u8], MessageError> {
        self.status[i]?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Ok(&self.bytes[start..self.ends[i]])
    }

    /// The messages that failed, with why, in index order.
    pub fn failures(&self) -> impl Iterator<Item = (usize, MessageError)> + '_ {
        self.status.iter().enumerate().filter_map(|(i, s)| s.err().map(|e| (i, e)))
    }

    /// How many messages succeeded.
    pub fn ok_count(&self) -> usize {
        self.status.iter().filter(|s| s.is_ok()).count()
    }
}

impl core::fmt::Debug for Output {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Output")
            .field("messages", &self.len())
            .field("failed", &(self.len() - self.ok_count()))
            .finish_non_exhaustive()
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // A large output is wiped by the current rayon pool's threads: one
        // thread's wipe of a whole batch's output costs as much as a large
        // share of the batch's cipher work on many cores.
        const PIECE: usize = 1 << 20;
        if self.bytes.len() > 2 * PIECE {
            use rayon::prelude::*;
            self.bytes.par_chunks_mut(PIECE).for_each(crate::wipe::wipe);
        } else {
            crate::wipe::wipe(&mut self.bytes);
        }
    }
}
