//! The cache of compiled kernels: machine code by a key of the source, the
//! NVRTC options, the compute capability and the NVRTC version, kept in memory
//! and on disk (`$XDG_CACHE_HOME/skinny` or `~/.cache/skinny`), so only the
//! first run on a machine pays for compilation.

use crate::error::GpuError;
use crate::kernels::KernelSource;
use crate::nvrtc::{compile_cubin, nvrtc_options};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One GPU's compiled kernels: the chip they are compiled for, the options,
/// and the machine code compiled or read so far.
pub(crate) struct KernelCache {
    cc: (i32, i32),
    nvrtc_version: (i32, i32),
    options: Vec<String>,
    /// Compiled machine code by cache key.
    images: Mutex<HashMap<u64, Arc<Vec<u8>>>>,
}

impl KernelCache {
    /// A cache for compute capability `cc`, NVRTC `nvrtc_version`, with `extra`
    /// options after the usual ones.
    pub(crate) fn new(cc: (i32, i32), nvrtc_version: (i32, i32), extra: &[String]) -> Self {
        Self { cc, nvrtc_version, options: nvrtc_options(cc, extra), images: Mutex::new(HashMap::new()) }
    }

    fn key(&self, source: &KernelSource) -> u64 {
        let mut h = Fnv64::new();
        h.write(source.text.as_bytes());
        for o in self.options.iter().cloned().chain(source.define_options()) {
            h.write(o.as_bytes());
            h.write(&[0]);
        }
        h.write(&self.cc.0.to_le_bytes());
        h.write(&self.cc.1.to_le_bytes());
        h.write(&self.nvrtc_version.0.to_le_bytes());
        h.write(&self.nvrtc_version.1.to_le_bytes());
        h.finish()
    }

    /// Whether memory or the disk cache holds `source`'s machine code (a
    /// non-empty file; whether it loads is seen only when it is loaded).
    pub(crate) fn is_cached(&self, source: &KernelSource) -> bool {
        let key = self.key(source);
        if self.images.lock().map(|m| m.contains_key(&key)).unwrap_or(false) {
            return true;
        }
        cache_file(source, key).and_then(|p| std::fs::metadata(p).ok()).is_some_and(|m| m.is_file() && m.len() > 0)
    }

    /// The machine code of `source`: from memory, the disk cache, or NVRTC
    /// (`fresh`: NVRTC, replacing both caches).
    pub(crate) fn machine_code(&self, source: &KernelSource, fresh: Freshness) -> Result<Arc<Vec<u8>>, GpuError> {
        let key = self.key(source);
        let fresh = fresh == Freshness::Recompile;
        if !fresh {
            if let Some(img) = self.images.lock().map_err(|_| GpuError::Poisoned)?.get(&key) {
                return Ok(img.clone());
            }
        }
        let path = cache_file(source, key);
        let cached = if fresh { None } else { path.as_ref().and_then(|p| std::fs::read(p).ok()) };
        let image = match cached {
            Some(img) if !img.is_empty() => img,
            _ => {
                let img = compile_cubin(source, &self.options)?;
                if let Some(p) = &path {
                    store_atomically(p, &img);
                }
                img
            }
        };
        let image = Arc::new(image);
        self.images.lock().map_err(|_| GpuError::Poisoned)?.insert(key, image.clone());
        Ok(image)
    }
}

/// Whether [`KernelCache::machine_code`] may take what the caches hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Freshness {
    /// From memory or disk when there, else compiled.
    Cached,
    /// Compiled afresh (the cached code would not load), replacing both caches.
    Recompile,
}

/// The disk cache's file for `source` under `key`, if there is a disk cache.
fn cache_file(source: &KernelSource, key: u64) -> Option<PathBuf> {
    cache_dir().map(|d| d.join(format!("{}-{key:016x}.cubin", source.name)))
}

/// Where compiled kernels are cached on disk, if anywhere.
fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("skinny"))
}

/// Writes the file through a temporary name so a reader never sees half of it.
/// A cache that cannot be written is no error: the next run compiles again.
fn store_atomically(path: &Path, data: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, data).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// FNV-1a, 64 bits: a cache key, not a security measure.
struct Fnv64(u64);

impl Fnv64 {
    fn new() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
