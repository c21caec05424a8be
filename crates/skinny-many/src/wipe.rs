//! Wiping secret buffers eight bytes a write. `zeroize` wipes a `[u8]` one
//! volatile byte at a time, which for the engine's buffers (80-160 KiB of
//! round tweakeys a group, every output) cost as much as the cipher; its
//! `[u64]` wipe is the same guarantee (writes the compiler may not drop) at
//! an eighth of the writes.

use zeroize::Zeroize;

/// Overwrites `buf` with zeros by volatile writes, eight bytes at a time
/// where aligned.
pub(crate) fn wipe(buf: &mut [u8]) {
    // SAFETY: any eight bytes are a valid u64 and any u64 is eight valid
    // bytes; `align_to_mut` only hands out the aligned middle as u64s.
    let (head, middle, tail) = unsafe { buf.align_to_mut::<u64>() };
    head.zeroize();
    middle.zeroize();
    tail.zeroize();
}

/// Overwrites a block with zeros by one volatile write (`zeroize` makes
/// sixteen of a `[u8; 16]`).
pub(crate) fn wipe_block(block: &mut [u8; 16]) {
    // SAFETY: `block` is a valid, aligned, exclusive reference to 16 bytes.
    unsafe { core::ptr::write_volatile(block, [0u8; 16]) };
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
