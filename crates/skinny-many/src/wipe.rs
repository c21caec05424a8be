//! Wiping secret buffers in bulk. `zeroize` wipes a slice with one fill and
//! an optimisation barrier, but a `Vec<u8>` (through `Zeroizing`) and a byte
//! array element by element, one volatile byte at a time: for the engine's
//! buffers (80-160 KiB of round tweakeys a group, every output) that cost as
//! much as the cipher. So the buffers here are wiped as slices.

use zeroize::Zeroize;

/// Overwrites `buf` with zeros (`zeroize`'s slice wipe).
pub(crate) fn wipe(buf: &mut [u8]) {
    buf.zeroize();
}

/// Overwrites a block with zeros, as a slice.
pub(crate) fn wipe_block(block: &mut [u8; 16]) {
    block.as_mut_slice().zeroize();
}

/// A heap buffer of secret bytes, zeroed when made and wiped when dropped.
pub(crate) struct Secret(Vec<u8>);

impl Secret {
    /// `len` zero bytes.
    pub(crate) fn zeroed(len: usize) -> Self {
        Self(vec![0u8; len])
    }
}

impl core::ops::Deref for Secret {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl core::ops::DerefMut for Secret {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl Drop for Secret {
    fn drop(&mut self) {
        wipe(&mut self.0);
    }
}
