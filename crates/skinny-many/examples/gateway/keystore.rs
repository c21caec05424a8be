//! The key store: a text file of `device-id hex-key` lines, as a
//! provisioning system would export it, loaded and checked line by line.
//!
//! ```text
//! # skinny gateway key store: device id, 128-bit key (32 hex digits)
//! 0 8f1c…
//! 1 02ab…
//! ```

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use zeroize::Zeroizing;

/// Device `device`'s key, as provisioned from `seed` (the load generator's
/// devices hold the same keys; the gateway reads them from the file).
pub fn device_key(seed: u64, device: u32) -> Zeroizing<[u8; 16]> {
    let a = super::frame::mix(seed ^ (u64::from(device) << 1));
    let b = super::frame::mix(a ^ 0x5151);
    let mut k = Zeroizing::new([0u8; 16]);
    k[..8].copy_from_slice(&a.to_le_bytes());
    k[8..].copy_from_slice(&b.to_le_bytes());
    k
}

/// Writes the key store of devices `0..devices` to `path` (readable by its
/// owner only, on Unix).
pub fn write(path: &Path, devices: u32, seed: u64) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = std::io::BufWriter::new(options.open(path)?);
    writeln!(file, "# skinny gateway key store: device id, 128-bit key (32 hex digits)")?;
    for d in 0..devices {
        let key = device_key(seed, d);
        let hex = Zeroizing::new(hex::encode(&key[..]));
        writeln!(file, "{d} {}", hex.as_str())?;
    }
    file.into_inner().map_err(std::io::IntoInnerError::into_error)?.sync_all()
}

/// The keys, by device id; wiped when dropped.
pub struct KeyStore {
    keys: HashMap<u32, Zeroizing<[u8; 16]>>,
}

impl KeyStore {
    /// Reads and checks every line of `path`: an id (a 32-bit number), one
    /// space-separated key of exactly 32 hex digits, not all zero, no id twice.
    /// Blank lines and `#` comments are skipped.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = Zeroizing::new(std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?);
        let mut keys = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            let at = || format!("{}:{}", path.display(), n + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split_whitespace();
            let (Some(id), Some(hex), None) = (fields.next(), fields.next(), fields.next()) else {
                return Err(format!("{}: want `device-id hex-key`", at()));
            };
            let id: u32 = id.parse().map_err(|_| format!("{}: device id {id:?} is not a 32-bit number", at()))?;
            if hex.len() != 32 {
                return Err(format!("{}: device {id}: a key of {} hex digits, want 32", at(), hex.len()));
            }
            let mut key = Zeroizing::new([0u8; 16]);
            hex::decode_to_slice(hex, &mut key[..])
                .map_err(|_| format!("{}: device {id}: the key is not hex", at()))?;
            if key.iter().all(|&b| b == 0) {
                return Err(format!("{}: device {id}: an all-zero key", at()));
            }
            if keys.insert(id, key).is_some() {
                return Err(format!("{}: device {id} appears twice", at()));
            }
        }
        Ok(Self { keys })
    }

    /// Device `id`'s key.
    pub fn get(&self, id: u32) -> Option<&[u8; 16]> {
        self.keys.get(&id).map(|k| &**k)
    }

    /// The number of devices.
    pub fn len(&self) -> usize {
        self.keys.len()
    }
}
