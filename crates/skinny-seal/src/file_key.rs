//! The file key: 32 random bytes drawn for every sealed file (format v2). Every
//! key the file uses (header MAC, payload) is derived from it; each recipient
//! stanza wraps it.

use zeroize::{Zeroize, ZeroizeOnDrop};

/// Length of a file key in bytes.
pub const FILE_KEY_LEN: usize = 32;

/// A file key (zeroized on drop; never printed: `Debug` shows no bytes).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct FileKey([u8; FILE_KEY_LEN]);

impl FileKey {
    /// A fresh file key from the operating system's generator.
    pub fn random() -> Result<Self, getrandom::Error> {
        let mut key = [0u8; FILE_KEY_LEN];
        getrandom::fill(&mut key)?;
        Ok(Self(key))
    }

    /// A file key from its bytes (test vectors; a stanza's unwrapped key).
    pub fn from_bytes(bytes: [u8; FILE_KEY_LEN]) -> Self {
        Self(bytes)
    }

    /// The key's bytes.
    pub fn expose(&self) -> &[u8; FILE_KEY_LEN] {
        &self.0
    }
}

impl core::fmt::Debug for FileKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("FileKey(..)")
    }
}
