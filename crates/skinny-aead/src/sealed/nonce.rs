//! The STREAM nonces: chunk `i`'s nonce is the file's random prefix, `i` as
//! a 32-bit big-endian counter, and a flag byte that is 1 for the last chunk
//! only. So every chunk is bound to its position and to whether it ends the
//! file: reordering, dropping or appending chunks changes a nonce.

use super::header::Header;

impl Header {
    /// The nonce of chunk `index` (`last`: whether it is the final chunk).
    pub(super) fn nonce(&self, index: u64, last: bool) -> ([u8; 16], usize) {
        let p = self.member.prefix_len();
        let mut n = [0u8; 16];
        n[..p].copy_from_slice(&self.prefix[..p]);
        // index < MAX_CHUNKS = 2^32, checked by the callers.
        n[p..p + 4].copy_from_slice(&(index as u32).to_be_bytes());
        n[p + 4] = u8::from(last);
        (n, self.member.nonce_len())
    }
}
