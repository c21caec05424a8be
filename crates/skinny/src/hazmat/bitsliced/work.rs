//! The buffers a call's batches work in: the states, the transposition's
//! scratch and (per-block keyings) the sliced TK arrays, 128 words each (1, 4
//! or 8 KiB on the u64, AVX2 and AVX-512 paths), and the zero-padded batch of
//! a tail.
//!
//! With the `alloc` feature they are on the heap, allocated once per call
//! (the pad buffer only for a call that has a tail), so that a call's stack
//! does not grow with the word width (AVX-512 per-block keyings would need
//! 56 KiB) nor with the build profile; without it they are on the stack, as
//! arrays of the largest size a caller asks for. Either way they are reused
//! by every batch of the call, not made per batch.

use super::round::State;
use super::word::Word;

/// The largest batch in bytes: 512 blocks (AVX-512) of 16 bytes (the pad
/// buffer's size).
pub(super) const MAX_BATCH_BYTES: usize = 512 * 16;

/// Words in one [`State`] (or one transposition scratch, `[[W; 64]; 2]`).
pub(super) const STATE_WORDS: usize = 128;

/// `n` zeroed words (`n` a multiple of [`STATE_WORDS`]; at most `N`, the size
/// of the stack array without `alloc`). With `alloc`: one allocation, freed
/// when the value drops (the caller wipes what held secrets).
///
/// A value, not a function taking a closure: the batch loops that use it are
/// inlined into each path's `#[target_feature]` function, and a closure made
/// in generic code outside that function would be compiled without the
/// path's features, every word operation in it an out-of-line call (which
/// made the AVX2 path 20-40x slower once).
pub(super) struct Words<W, const N: usize> {
    #[cfg(feature = "alloc")]
    words: alloc::vec::Vec<W>,
    #[cfg(not(feature = "alloc"))]
    words: [W; N],
    #[cfg(not(feature = "alloc"))]
    len: usize,
}

impl<W: Word, const N: usize> Words<W, N> {
    /// `n` zeroed words.
    #[inline(always)]
    pub(super) fn zeroed(n: usize) -> Self {
        debug_assert!(n <= N && n.is_multiple_of(STATE_WORDS));
        #[cfg(feature = "alloc")]
        {
            Self { words: alloc::vec![W::ZERO; n] }
        }
        #[cfg(not(feature = "alloc"))]
        {
            Self { words: [W::ZERO; N], len: n }
        }
    }

    /// The words.
    #[inline(always)]
    pub(super) fn as_mut(&mut self) -> &mut [W] {
        #[cfg(feature = "alloc")]
        {
            &mut self.words
        }
        #[cfg(not(feature = "alloc"))]
        {
            &mut self.words[..self.len]
        }
    }
}

/// `words` (a multiple of [`STATE_WORDS`] long) as states.
#[inline(always)]
pub(super) fn states<W>(words: &mut [W]) -> &mut [State<W>] {
    let (cells, rest) = words.as_chunks_mut::<8>();
    debug_assert!(rest.is_empty());
    let (states, rest) = cells.as_chunks_mut::<16>();
    debug_assert!(rest.is_empty());
    states
}

/// The first [`STATE_WORDS`] of `words` as a transposition scratch.
#[inline(always)]
pub(super) fn halves<W>(words: &mut [W]) -> &mut [[W; 64]; 2] {
    let rows = words[..STATE_WORDS].as_chunks_mut::<64>().0;
    <&mut [[W; 64]; 2]>::try_from(rows).unwrap_or_else(|_| unreachable!("128 words are two rows of 64"))
}

/// The zero-padded batch of a call's tail, made only when a call has one and
/// wiped when dropped (it held data, and for per-block keyings it is where
/// the tail's blocks are encrypted).
pub(super) struct PadBuffer {
    #[cfg(feature = "alloc")]
    bytes: Option<alloc::vec::Vec<u8>>,
    #[cfg(not(feature = "alloc"))]
    bytes: Option<[u8; MAX_BATCH_BYTES]>,
}

impl PadBuffer {
    /// No buffer yet.
    #[inline(always)]
    pub(super) fn new() -> Self {
        Self { bytes: None }
    }

    /// A batch of `batch_bytes` that starts with `tail` and is zero after it.
    #[inline(always)]
    pub(super) fn padded(&mut self, tail: &[u8], batch_bytes: usize) -> &mut [u8] {
        debug_assert!(tail.len() <= batch_bytes && batch_bytes <= MAX_BATCH_BYTES);
        #[cfg(feature = "alloc")]
        let buf = self.bytes.insert(alloc::vec![0u8; batch_bytes]);
        #[cfg(not(feature = "alloc"))]
        let buf = self.bytes.insert([0u8; MAX_BATCH_BYTES]);
        buf[..tail.len()].copy_from_slice(tail);
        &mut buf[..batch_bytes]
    }

    /// The first `n` bytes of the batch [`PadBuffer::padded`] made.
    ///
    /// # Panics
    /// If there is none.
    #[inline(always)]
    pub(super) fn head(&self, n: usize) -> &[u8] {
        &self.bytes.as_ref().expect("a padded batch was made")[..n]
    }
}

impl Drop for PadBuffer {
    fn drop(&mut self) {
        if let Some(bytes) = self.bytes.as_mut() {
            zeroize::Zeroize::zeroize(&mut bytes[..]);
        }
    }
}
