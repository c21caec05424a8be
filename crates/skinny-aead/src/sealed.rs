//! The sealed file format: a stream of any length encrypted and authenticated
//! in chunks with SKINNY-AEAD, by the STREAM construction (Hoang, Reyhanitabar,
//! Rogaway, Vizár: *Online authenticated-encryption and its nonce-reuse
//! misuse-resistance*, CRYPTO 2015). Needs the `std` feature.
//!
//! ```text
//! header (24 bytes) | chunk 0 | chunk 1 | ... | chunk n-1 (the last)
//!
//! header = "SKINNYSEAL" (10) | version = 1 (1) | member id 1..6 (1)
//!        | log2 chunk size 4..24 (1) | nonce prefix field (11)
//! chunk i = SKINNY-AEAD(key, nonce_i, AD = the 24 header bytes, plaintext_i)
//!         = ciphertext_i (as long as plaintext_i) | tag_i (16 or 8 bytes)
//! nonce_i = prefix | i as 32-bit big-endian | 0x01 for the last chunk, else 0x00
//! ```
//!
//! Every chunk but the last holds exactly `chunk size` plaintext bytes; the last
//! holds 0 to `chunk size` (an empty input is one empty last chunk). The prefix
//! is drawn from the operating system for every file: 11 bytes for the members
//! with a 128-bit nonce (M1, M3), 7 bytes for those with a 96-bit nonce (the
//! last 4 bytes of the field are then zero). Because every chunk's nonce holds
//! its position and whether it is the last, and every chunk authenticates the
//! whole header, reordering, dropping (also at a chunk boundary), appending or
//! splicing chunks, and changing the header, are all detected, and so is a
//! wrong key. The repository's `docs/sealed-format.md` is the full
//! specification, with a test vector.
//!
//! [`seal`] and [`open`] move a reader to a writer with bounded memory (windows
//! of chunks, sealed or opened in parallel on rayon's pool while one thread
//! reads the next window and another writes the last). [`open`]
//! writes a chunk's plaintext only after its tag verified; on failure, the
//! chunks already written stay written (the writer's owner decides what to do
//! with them, e.g. delete a temporary file).
//!
//! [`seal_on`], [`seal_with_prefix_on`] and [`open_on`] do the same on an
//! [`Engine`]: the CPU (what [`seal`] and [`open`] use), or with the `cuda`
//! feature an NVIDIA GPU, which runs each window's chunks in one kernel launch
//! (chunks of 16 KiB or more). Both engines write the same bytes for the same
//! prefix and open each other's files, with the same errors. Because they do so
//! chunk by chunk, a run may also start on the CPU while a GPU is being opened,
//! and move to the GPU once it is ready ([`Engine::GpuStarting`]).
//!
//! ```
//! use skinny_aead::sealed::{self, SealOptions};
//! let key = [7u8; 16];
//! let mut file = Vec::new();
//! sealed::seal(&b"attack at dawn"[..], &mut file, &key, &SealOptions::default())?;
//! let mut plain = Vec::new();
//! sealed::open(&file[..], &mut plain, &key)?;
//! assert_eq!(plain, b"attack at dawn");
//! file[30] ^= 1;
//! assert!(sealed::open(&file[..], &mut Vec::new(), &key).is_err());
//! # Ok::<(), sealed::SealedError>(())
//! ```

use crate::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce, Tag};
use core::fmt;
use pipeline::{read_full, Shape, Window};
use rayon::prelude::*;
use start::{Engines, WindowEngine};
use std::boxed::Box;
use std::io::{self, Read, Write};
use std::string::String;
use std::vec::Vec;
use zeroize::Zeroizing;

#[cfg(feature = "cuda")]
mod gpu;
mod pipeline;
mod start;

#[cfg(feature = "cuda")]
pub use gpu::GPU_MIN_CHUNK_LOG2;

/// The first bytes of every sealed file.
pub const MAGIC: [u8; 10] = *b"SKINNYSEAL";
/// The format version this module writes and reads.
pub const VERSION: u8 = 1;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 24;
/// The length of the header's nonce prefix field.
pub const PREFIX_FIELD_LEN: usize = 11;
/// The smallest chunk size, as a power of two (16 bytes; for tests and examples).
pub const MIN_CHUNK_LOG2: u8 = 4;
/// The largest chunk size, as a power of two (16 MiB).
pub const MAX_CHUNK_LOG2: u8 = 24;
/// The default chunk size, as a power of two (64 KiB).
pub const DEFAULT_CHUNK_LOG2: u8 = 16;
/// The most chunks a file may have (the counter is 32 bits).
pub const MAX_CHUNKS: u64 = 1 << 32;

/// Memory for a window of chunks in flight is kept near this (at least one chunk).
const WINDOW_BYTES: usize = 16 << 20;

/// Where [`seal_on`] and [`open_on`] run the cipher. The file is the same
/// byte for byte whichever engine sealed it (for the same nonce prefix), and
/// either engine opens it.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub enum Engine {
    /// Every chunk on rayon's current pool (constant-time bitsliced code).
    #[default]
    Cpu,
    /// The whole blocks of a window's chunks in one launch on this GPU, the
    /// chunks' ends and tags on rayon's pool (feature `cuda`). Chunks must be
    /// at least 16 KiB ([`GPU_MIN_CHUNK_LOG2`]).
    #[cfg(feature = "cuda")]
    Gpu(std::sync::Arc<crate::gpu::Gpu>),
    /// The CPU on the first windows while a thread of its own opens a GPU
    /// and loads its kernels; the GPU (as [`Engine::Gpu`]) from the first
    /// window after it is ready (feature `cuda`). Getting a GPU ready takes a
    /// fixed time (about 0.3 s on the H200 machine) that the CPU spends
    /// sealing instead of waiting. The file is the same either way.
    #[cfg(feature = "cuda")]
    GpuStarting(GpuStart),
}

/// How [`Engine::GpuStarting`] gets its GPU, and what happens when it cannot.
#[cfg(feature = "cuda")]
#[derive(Clone)]
pub struct GpuStart {
    open: std::sync::Arc<dyn Fn() -> Result<std::sync::Arc<crate::gpu::Gpu>, BoxError> + Send + Sync>,
    or_cpu: bool,
    while_faster: bool,
}

/// Any error, from the function that opens the GPU of a [`GpuStart`].
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[cfg(feature = "cuda")]
impl GpuStart {
    /// A GPU that `open` gets (called on a thread of its own, once a run). The
    /// run must use it: if `open` fails, or the GPU's kernels or buffers
    /// cannot be had, the run fails with [`SealedError::GpuStart`] (also when
    /// the CPU finished the input first); chunks under 16 KiB are refused
    /// before anything is written ([`SealedError::GpuChunkSize`]).
    pub fn new(open: impl Fn() -> Result<std::sync::Arc<crate::gpu::Gpu>, BoxError> + Send + Sync + 'static) -> Self {
        Self { open: std::sync::Arc::new(open), or_cpu: false, while_faster: false }
    }

    /// As [`GpuStart::new`], but when the GPU cannot be had (or cannot take
    /// the file's chunks), the run goes on on the CPU, and its [`Report`]
    /// says why ([`Report::gpu_failure`]).
    pub fn or_cpu(mut self) -> Self {
        self.or_cpu = true;
        self
    }

    /// The GPU keeps the windows only while it is the faster engine: each
    /// engine's work time a window is measured, and once the GPU has done
    /// three windows after its first, if it sealed or opened fewer bytes per
    /// second of work than the CPU did before it was ready, the rest of the
    /// run goes back to the CPU ([`Report::gpu_left`] says so, with both
    /// rates). On a host with many cores the CPU engine can be the faster
    /// one. The file is the same either way.
    pub fn while_faster(mut self) -> Self {
        self.while_faster = true;
        self
    }
}

#[cfg(feature = "cuda")]
impl fmt::Debug for GpuStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GpuStart")
            .field("or_cpu", &self.or_cpu)
            .field("while_faster", &self.while_faster)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Whether this engine seals and opens files with chunks of
    /// `2^chunk_log2` bytes (the CPU: all of them; the GPU: 16 KiB and up).
    pub fn supports_chunk_log2(&self, chunk_log2: u8) -> bool {
        match self {
            Engine::Cpu => (MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2),
            #[cfg(feature = "cuda")]
            Engine::Gpu(_) | Engine::GpuStarting(_) => (GPU_MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2),
        }
    }
}

/// A SKINNY-AEAD member, with its id in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Member {
    /// [`SkinnyAeadM1`]: SKINNY-128-384, 128-bit nonce and tag (the default).
    #[default]
    M1,
    /// [`SkinnyAeadM2`]: SKINNY-128-384, 96-bit nonce, 128-bit tag.
    M2,
    /// [`SkinnyAeadM3`]: SKINNY-128-384, 128-bit nonce, 64-bit tag.
    M3,
    /// [`SkinnyAeadM4`]: SKINNY-128-384, 96-bit nonce, 64-bit tag.
    M4,
    /// [`SkinnyAeadM5`]: SKINNY-128-256, 96-bit nonce, 128-bit tag.
    M5,
    /// [`SkinnyAeadM6`]: SKINNY-128-256, 96-bit nonce, 64-bit tag.
    M6,
}

impl Member {
    /// All six, in id order.
    pub const ALL: [Member; 6] = [Member::M1, Member::M2, Member::M3, Member::M4, Member::M5, Member::M6];

    /// The id stored in the header: 1 to 6.
    pub fn id(self) -> u8 {
        match self {
            Member::M1 => 1,
            Member::M2 => 2,
            Member::M3 => 3,
            Member::M4 => 4,
            Member::M5 => 5,
            Member::M6 => 6,
        }
    }

    /// The member with header id `id`, if any.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The nonce length in bytes (16 or 12).
    pub fn nonce_len(self) -> usize {
        match self {
            Member::M1 | Member::M3 => 16,
            _ => 12,
        }
    }

    /// The tag length in bytes (16 or 8).
    pub fn tag_len(self) -> usize {
        match self {
            Member::M1 | Member::M2 | Member::M5 => 16,
            _ => 8,
        }
    }

    /// The random nonce prefix's length in bytes: the nonce less the 4-byte
    /// counter and the flag byte (11 or 7).
    pub fn prefix_len(self) -> usize {
        self.nonce_len() - 5
    }

    fn ops(self) -> (SealFn, OpenFn) {
        match self {
            Member::M1 => (seal_chunk::<SkinnyAeadM1>, open_chunk::<SkinnyAeadM1>),
            Member::M2 => (seal_chunk::<SkinnyAeadM2>, open_chunk::<SkinnyAeadM2>),
            Member::M3 => (seal_chunk::<SkinnyAeadM3>, open_chunk::<SkinnyAeadM3>),
            Member::M4 => (seal_chunk::<SkinnyAeadM4>, open_chunk::<SkinnyAeadM4>),
            Member::M5 => (seal_chunk::<SkinnyAeadM5>, open_chunk::<SkinnyAeadM5>),
            Member::M6 => (seal_chunk::<SkinnyAeadM6>, open_chunk::<SkinnyAeadM6>),
        }
    }
}

impl fmt::Display for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SKINNY-AEAD-M{}", self.id())
    }
}

/// How [`seal`] writes a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SealOptions {
    /// The AEAD member (default M1).
    pub member: Member,
    /// The chunk size as a power of two, [`MIN_CHUNK_LOG2`] to [`MAX_CHUNK_LOG2`]
    /// (default [`DEFAULT_CHUNK_LOG2`], 64 KiB).
    pub chunk_log2: u8,
}

impl Default for SealOptions {
    fn default() -> Self {
        Self { member: Member::M1, chunk_log2: DEFAULT_CHUNK_LOG2 }
    }
}

/// A parsed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The AEAD member of every chunk.
    pub member: Member,
    /// The chunk size as a power of two.
    pub chunk_log2: u8,
    /// The nonce prefix field: the member's [`Member::prefix_len`] bytes, then zeros.
    pub prefix: [u8; PREFIX_FIELD_LEN],
}

impl Header {
    /// The plaintext bytes of every chunk but the last.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// The 24 header bytes (also each chunk's associated data).
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..10].copy_from_slice(&MAGIC);
        h[10] = VERSION;
        h[11] = self.member.id();
        h[12] = self.chunk_log2;
        h[13..].copy_from_slice(&self.prefix);
        h
    }

    /// Parses and checks a header.
    ///
    /// # Errors
    /// [`SealedError::NotSealed`] (other magic), [`SealedError::UnsupportedVersion`],
    /// [`SealedError::BadHeader`] (unknown member, chunk size out of range,
    /// nonzero bytes after a 7-byte prefix).
    pub fn parse(bytes: &[u8; HEADER_LEN]) -> Result<Self, SealedError> {
        if bytes[..10] != MAGIC {
            return Err(SealedError::NotSealed);
        }
        if bytes[10] != VERSION {
            return Err(SealedError::UnsupportedVersion(bytes[10]));
        }
        let member = Member::from_id(bytes[11]).ok_or(SealedError::BadHeader("unknown AEAD member id"))?;
        let chunk_log2 = bytes[12];
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err(SealedError::BadHeader("chunk size out of range"));
        }
        let mut prefix = [0u8; PREFIX_FIELD_LEN];
        prefix.copy_from_slice(&bytes[13..]);
        if prefix[member.prefix_len()..].iter().any(|&b| b != 0) {
            return Err(SealedError::BadHeader("nonzero bytes after the nonce prefix"));
        }
        Ok(Self { member, chunk_log2, prefix })
    }

    /// The nonce of chunk `index` (`last`: whether it is the final chunk).
    fn nonce(&self, index: u64, last: bool) -> ([u8; 16], usize) {
        let p = self.member.prefix_len();
        let mut n = [0u8; 16];
        n[..p].copy_from_slice(&self.prefix[..p]);
        // index < MAX_CHUNKS = 2^32, checked by the callers.
        n[p..p + 4].copy_from_slice(&(index as u32).to_be_bytes());
        n[p + 4] = u8::from(last);
        (n, self.member.nonce_len())
    }
}

/// What [`seal`] or [`open`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The file's header.
    pub header: Header,
    /// Chunks written or verified.
    pub chunks: u64,
    /// Plaintext bytes read (seal) or written (open).
    pub plaintext_bytes: u64,
    /// Of `chunks`, those the GPU did (the rest: the CPU).
    pub gpu_chunks: u64,
    /// Why a GPU that may be done without ([`GpuStart::or_cpu`]) did none
    /// of the chunks, when it could not be had.
    pub gpu_failure: Option<String>,
    /// Why a GPU kept only while faster ([`GpuStart::while_faster`]) was
    /// left during the run, with both engines' measured rates.
    pub gpu_left: Option<String>,
}

/// Why sealing or opening failed. Messages name no command-line option.
#[derive(Debug)]
#[non_exhaustive]
pub enum SealedError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(io::Error),
    /// The operating system gave no random prefix.
    Random(getrandom::Error),
    /// Bad [`SealOptions`] or prefix given to [`seal`] / [`seal_with_prefix`].
    InvalidOptions(&'static str),
    /// More than [`MAX_CHUNKS`] chunks would be needed.
    TooLong,
    /// The input does not start with [`MAGIC`].
    NotSealed,
    /// A format version this code does not know.
    UnsupportedVersion(u8),
    /// A header field out of range.
    BadHeader(&'static str),
    /// The input ends inside the header, right after it, or inside a chunk
    /// (fewer bytes than a tag).
    TruncatedInside,
    /// The input ends at a chunk boundary: chunk `chunks - 1` verified as a
    /// chunk that is not the last, so whole chunks are missing.
    Truncated {
        /// Chunks present (all verified).
        chunks: u64,
    },
    /// Chunk `chunk` verified as the last one, yet more bytes follow it.
    TrailingData {
        /// The index of the real last chunk.
        chunk: u64,
    },
    /// Chunk `chunk` did not verify: a wrong key, or a damaged or changed file.
    Authentication {
        /// The index of the first chunk that failed.
        chunk: u64,
    },
    /// The GPU engine was asked for chunks under 16 KiB (to seal, or in the
    /// file to open); the CPU engine takes every size.
    GpuChunkSize {
        /// The chunk size, as a power of two.
        chunk_log2: u8,
    },
    /// The GPU failed (feature `cuda`).
    #[cfg(feature = "cuda")]
    Gpu(crate::gpu::GpuError),
    /// The GPU of an [`Engine::GpuStarting`] could not be had: the error of
    /// the function that opens it, or of loading its kernels (then a
    /// [`SealedError::Gpu`]). The chunks sealed or opened on the CPU
    /// meanwhile may have been written.
    GpuStart(BoxError),
}

impl fmt::Display for SealedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealedError::Read(e) => write!(f, "cannot read input: {e}"),
            SealedError::Write(e) => write!(f, "cannot write output: {e}"),
            SealedError::Random(e) => write!(f, "no random nonce prefix from the operating system: {e}"),
            SealedError::InvalidOptions(why) => write!(f, "invalid sealing options: {why}"),
            SealedError::TooLong => {
                write!(f, "input too long for this chunk size (at most 2^32 chunks); use larger chunks")
            }
            SealedError::NotSealed => f.write_str("not a sealed file (it does not start with SKINNYSEAL)"),
            SealedError::UnsupportedVersion(v) => {
                write!(f, "sealed-file format version {v} is not supported (this program reads version {VERSION})")
            }
            SealedError::BadHeader(why) => write!(f, "damaged sealed-file header: {why}"),
            SealedError::TruncatedInside => f.write_str("truncated: the file ends inside its header or a chunk"),
            SealedError::Truncated { chunks } => write!(
                f,
                "truncated: the file ends after chunk {chunks}, which is not the last one (chunks are missing)"
            ),
            SealedError::TrailingData { chunk } => {
                write!(f, "damaged file: unexpected data after the last chunk (chunk {})", chunk + 1)
            }
            SealedError::Authentication { chunk } => {
                write!(f, "authentication failed: wrong key or damaged/tampered file (chunk {})", chunk + 1)
            }
            SealedError::GpuChunkSize { chunk_log2 } => write!(
                f,
                "the GPU engine needs chunks of at least 16 KiB, not {} bytes (the CPU engine takes any size)",
                1u64 << chunk_log2
            ),
            #[cfg(feature = "cuda")]
            SealedError::Gpu(e) => write!(f, "GPU failure: {e}"),
            SealedError::GpuStart(e) => write!(f, "the GPU did not start: {e}"),
        }
    }
}

impl std::error::Error for SealedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SealedError::Read(e) | SealedError::Write(e) => Some(e),
            #[cfg(feature = "cuda")]
            SealedError::Gpu(e) => Some(e),
            SealedError::GpuStart(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}

type SealFn = fn(&[u8; 16], &[u8], &[u8], &mut Vec<u8>) -> Result<(), aead::Error>;
type OpenFn = fn(&[u8; 16], &[u8], &[u8], &[u8], &mut Vec<u8>) -> Result<(), aead::Error>;

/// Encrypts `buf` in place and appends the tag.
fn seal_chunk<A: AeadInOut + KeyInit>(
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    buf: &mut Vec<u8>,
) -> Result<(), aead::Error>
where
    Key<A>: From<[u8; 16]>,
{
    let cipher = A::new(&Key::<A>::from(*key));
    let nonce = Nonce::<A>::try_from(nonce).map_err(|_| aead::Error)?;
    let tag: Tag<A> = cipher.encrypt_inout_detached(&nonce, ad, buf.as_mut_slice().into())?;
    buf.extend_from_slice(&tag);
    Ok(())
}

/// Verifies and decrypts `chunk` (ciphertext ‖ tag) into `out`, which then
/// holds the plaintext; on failure `out` holds nothing of it, and `chunk` is
/// untouched (for [`diagnose`]).
fn open_chunk<A: AeadInOut + KeyInit>(
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    chunk: &[u8],
    out: &mut Vec<u8>,
) -> Result<(), aead::Error>
where
    Key<A>: From<[u8; 16]>,
{
    use aead::array::typenum::Unsigned;
    let t = <A as AeadCore>::TagSize::USIZE;
    let Some(body) = chunk.len().checked_sub(t) else {
        return Err(aead::Error);
    };
    let cipher = A::new(&Key::<A>::from(*key));
    let nonce = Nonce::<A>::try_from(nonce).map_err(|_| aead::Error)?;
    let tag = Tag::<A>::try_from(&chunk[body..]).map_err(|_| aead::Error)?;
    // Reuses the buffer: zero-fills only bytes it never held.
    out.resize(body, 0);
    let buf = InOutBuf::new(&chunk[..body], &mut out[..]).map_err(|_| aead::Error)?;
    cipher.decrypt_inout_detached(&nonce, ad, buf, &tag)
}

/// Pieces a window: enough for every rayon thread twice, within
/// [`WINDOW_BYTES`], at least one.
fn window(piece: usize) -> usize {
    let by_threads = 2 * rayon::current_num_threads().max(1);
    by_threads.min((WINDOW_BYTES / piece).max(1))
}

/// Pieces a window of the GPU engine: [`WINDOW_BYTES`] worth (at least one),
/// whatever the CPU threads, so each launch has enough warps.
#[cfg(feature = "cuda")]
fn gpu_window(piece: usize) -> usize {
    (WINDOW_BYTES / piece).max(1)
}

/// Chunks the GPU engine must hold at once for windows of `window` pieces:
/// the last window of an input may hold one more (the piece read ahead to
/// learn whether the input ends stays in it; see `pipeline::read_stage`).
#[cfg(feature = "cuda")]
fn gpu_chunks_per_window(window: usize) -> usize {
    window + 1
}

/// Seals `reader` into `writer` as a sealed file under `key`, with a fresh
/// random nonce prefix from the operating system.
///
/// Memory: three windows of chunks (about 16 MiB each at most, or one chunk
/// when chunks are larger): one read on a thread of its own, one sealed in
/// parallel on rayon's current pool, one written on another thread.
///
/// # Errors
/// Bad options, no randomness, a read or write error, or more than
/// [`MAX_CHUNKS`] chunks. What was written before an error is incomplete.
pub fn seal<R: Read + Send, W: Write + Send>(
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
) -> Result<Report, SealedError> {
    seal_on(&Engine::Cpu, reader, writer, key, options)
}

/// As [`seal`], on `engine`.
///
/// # Errors
/// As [`seal`]; for the GPU engine, [`SealedError::GpuChunkSize`] (chunks
/// under 16 KiB, refused before anything is written) and GPU failures.
pub fn seal_on<R: Read + Send, W: Write + Send>(
    engine: &Engine,
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
) -> Result<Report, SealedError> {
    let mut prefix = [0u8; PREFIX_FIELD_LEN];
    let p = options.member.prefix_len();
    getrandom::fill(&mut prefix[..p]).map_err(SealedError::Random)?;
    seal_with_prefix_on(engine, reader, writer, key, options, &prefix[..p])
}

/// As [`seal`], with the nonce prefix given instead of drawn at random.
///
/// **For test vectors only**: two files sealed with one key and one prefix
/// reuse nonces, which gives away the XOR of their plaintexts and allows
/// forgeries. `prefix` must be [`Member::prefix_len`] bytes (11 or 7).
///
/// # Errors
/// As [`seal`]; a prefix of the wrong length is [`SealedError::InvalidOptions`].
pub fn seal_with_prefix<R: Read + Send, W: Write + Send>(
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
    prefix: &[u8],
) -> Result<Report, SealedError> {
    seal_with_prefix_on(&Engine::Cpu, reader, writer, key, options, prefix)
}

/// As [`seal_with_prefix`] (**test vectors only**), on `engine`.
///
/// # Errors
/// As [`seal_on`] and [`seal_with_prefix`].
pub fn seal_with_prefix_on<R: Read + Send, W: Write + Send>(
    engine: &Engine,
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
    prefix: &[u8],
) -> Result<Report, SealedError> {
    if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&options.chunk_log2) {
        return Err(SealedError::InvalidOptions("the chunk size must be 2^4 to 2^24 bytes"));
    }
    let member = options.member;
    if prefix.len() != member.prefix_len() {
        return Err(SealedError::InvalidOptions("the nonce prefix has the wrong length for this member"));
    }
    let mut field = [0u8; PREFIX_FIELD_LEN];
    field[..prefix.len()].copy_from_slice(prefix);
    let header = Header { member, chunk_log2: options.chunk_log2, prefix: field };
    let key = Zeroizing::new(*key);
    let (engines, window) = open_engine(engine, &header, &key, header.chunk_size())?;
    seal_windows(engines, window, &header, &key, reader, writer)
}

/// Seals on the CPU, or on `engines`' other engine when it is ready; the
/// reader starts with windows of `window` pieces.
fn seal_windows<G: WindowEngine, R: Read + Send, W: Write + Send>(
    mut engines: Engines<G>,
    window: usize,
    header: &Header,
    key: &[u8; 16],
    reader: R,
    mut writer: W,
) -> Result<Report, SealedError> {
    let ad = header.to_bytes();
    let cs = header.chunk_size();
    writer.write_all(&ad).map_err(SealedError::Write)?;
    let shape = Shape::new(cs, cs + header.member.tag_len(), window);
    let mut chunks: u64 = 0;
    let mut plaintext_bytes: u64 = 0;
    let mut gpu_chunks: u64 = 0;
    let run = pipeline::run(
        reader,
        writer,
        &shape,
        |w: &mut Window| {
            let n = w.input.len();
            if w.first + n as u64 > MAX_CHUNKS {
                return Err(SealedError::TooLong);
            }
            plaintext_bytes += w.input.iter().map(|b| b.len() as u64).sum::<u64>();
            let ((), on_gpu) =
                engines.work(&shape.window, w, |g, w| g.seal(w, &ad), |w| cpu_seal(header, key, &ad, w))?;
            if on_gpu {
                gpu_chunks += n as u64;
            }
            w.write = n;
            chunks = w.first + n as u64;
            Ok(())
        },
        SealedError::Read,
        SealedError::Write,
    );
    let counts = Report { header: *header, chunks, plaintext_bytes, gpu_chunks, gpu_failure: None, gpu_left: None };
    finish_run(engines, run, counts)
}

/// Seals a window in place on rayon's pool.
fn cpu_seal(header: &Header, key: &[u8; 16], ad: &[u8], w: &mut Window) -> Result<(), SealedError> {
    let (seal_fn, _) = header.member.ops();
    let (first, last, n) = (w.first, w.last, w.input.len());
    w.input
        .par_iter_mut()
        .enumerate()
        .try_for_each(|(i, buf)| {
            let (nonce, len) = header.nonce(first + i as u64, last && i + 1 == n);
            seal_fn(key, &nonce[..len], ad, buf)
        })
        // Cannot fail: the nonce and key lengths are the member's, and
        // chunks are far below every member's message limit.
        .map_err(|_| SealedError::InvalidOptions("the AEAD refused a chunk"))
}

/// Opens a window into its output buffers on rayon's pool: whether each
/// chunk verified.
fn cpu_open(header: &Header, key: &[u8; 16], ad: &[u8], w: &mut Window) -> Vec<bool> {
    let (_, open_fn) = header.member.ops();
    let (first, last, n) = (w.first, w.last, w.input.len());
    w.input
        .par_iter()
        .zip(w.output[..n].par_iter_mut())
        .enumerate()
        .map(|(i, (chunk, out))| {
            let (nonce, len) = header.nonce(first + i as u64, last && i + 1 == n);
            open_fn(key, &nonce[..len], ad, chunk, out).is_ok()
        })
        .collect()
}

/// Reads the header, then verifies and decrypts every chunk of a sealed file
/// from `reader` into `writer`.
///
/// No byte of a chunk reaches `writer` before that chunk's tag verified, and
/// chunks are written in order; when a chunk fails, the chunks before it are
/// written (they verified) and nothing after. The member and chunk size come
/// from the header. Threads as for [`seal`]; memory as for [`seal`] and as
/// much again for the plaintext, which is kept apart from the ciphertext.
///
/// # Errors
/// Not a sealed file, an unknown version, a damaged header, truncation,
/// data after the last chunk, a chunk that does not verify (wrong key or a
/// changed file), or a read or write error.
pub fn open<R: Read + Send, W: Write + Send>(reader: R, writer: W, key: &[u8; 16]) -> Result<Report, SealedError> {
    open_on(&Engine::Cpu, reader, writer, key)
}

/// As [`open`], on `engine`, with the same guarantees (no byte of a chunk
/// written before its tag verified, nothing after a failing chunk) and the
/// same errors: a failing chunk is diagnosed (cut at a chunk boundary, or
/// damaged) by the CPU code whichever engine found it.
///
/// # Errors
/// As [`open`]; for the GPU engine, [`SealedError::GpuChunkSize`] (a file
/// with chunks under 16 KiB: nothing written) and GPU failures.
pub fn open_on<R: Read + Send, W: Write + Send>(
    engine: &Engine,
    mut reader: R,
    writer: W,
    key: &[u8; 16],
) -> Result<Report, SealedError> {
    let mut hb = [0u8; HEADER_LEN];
    let n = read_full(&mut reader, &mut hb).map_err(SealedError::Read)?;
    if n < HEADER_LEN {
        let m = n.min(MAGIC.len());
        return Err(if n > 0 && hb[..m] == MAGIC[..m] { SealedError::TruncatedInside } else { SealedError::NotSealed });
    }
    let header = Header::parse(&hb)?;
    let key = Zeroizing::new(*key);
    let piece = header.chunk_size() + header.member.tag_len();
    let (engines, window) = open_engine(engine, &header, &key, piece)?;
    open_windows(engines, window, &header, &key, reader, writer)
}

/// Opens on the CPU, or on `engines`' other engine when it is ready; the
/// reader starts with windows of `window` pieces.
fn open_windows<G: WindowEngine, R: Read + Send, W: Write + Send>(
    mut engines: Engines<G>,
    window: usize,
    header: &Header,
    key: &[u8; 16],
    reader: R,
    writer: W,
) -> Result<Report, SealedError> {
    let hb = header.to_bytes();
    let (_, open_fn) = header.member.ops();
    let tag = header.member.tag_len();
    let piece = header.chunk_size() + tag;
    let shape = Shape::new(piece, piece, window);
    let mut chunks: u64 = 0;
    let mut plaintext_bytes: u64 = 0;
    let mut gpu_chunks: u64 = 0;
    let run = pipeline::run(
        reader,
        writer,
        &shape,
        |w: &mut Window| {
            let n = w.input.len();
            w.from_output = true;
            if w.first + n as u64 > MAX_CHUNKS {
                return Err(SealedError::TooLong);
            }
            // A last piece too short to hold a tag (or nothing after the
            // header): the file was cut inside a chunk. The whole chunks
            // before it are opened and released as usual (none of them is the
            // last, so all take f = 0), then the run stops: both engines
            // release exactly the chunks that verify, whatever their windows.
            let cut = w.last && w.input[n - 1].len() < tag;
            if cut {
                w.input.truncate(n - 1);
                w.last = false;
                if n == 1 {
                    w.write = 0;
                    return Err(SealedError::TruncatedInside);
                }
            }
            let n = w.input.len();
            while w.output.len() < n {
                w.output.push(Zeroizing::new(Vec::with_capacity(header.chunk_size())));
            }
            let (first, last) = (w.first, w.last);
            let (results, on_gpu) =
                engines.work(&shape.window, w, |g, w| g.open(w, &hb), |w| Ok(cpu_open(header, key, &hb, w)))?;
            let verified = results.iter().take_while(|&&ok| ok).count();
            w.write = verified;
            plaintext_bytes += w.output[..verified].iter().map(|b| b.len() as u64).sum::<u64>();
            chunks = first + verified as u64;
            if on_gpu {
                gpu_chunks += verified as u64;
            }
            if verified < n {
                let index = first + verified as u64;
                return Err(diagnose(header, open_fn, key, &hb, index, last && verified + 1 == n, &w.input[verified]));
            }
            if cut {
                return Err(SealedError::TruncatedInside);
            }
            Ok(())
        },
        SealedError::Read,
        SealedError::Write,
    );
    let counts = Report { header: *header, chunks, plaintext_bytes, gpu_chunks, gpu_failure: None, gpu_left: None };
    finish_run(engines, run, counts)
}

/// Ends a run: waits for a GPU start still under way, then returns the run's
/// own error first (it is the CPU's), then the start's, else `counts` with
/// what the engines reported filled in.
fn finish_run<G: WindowEngine>(
    engines: Engines<G>,
    run: Result<(), SealedError>,
    counts: Report,
) -> Result<Report, SealedError> {
    let outcome = engines.finish();
    run?;
    let outcome = outcome?;
    Ok(Report { gpu_failure: outcome.failure, gpu_left: outcome.left, ..counts })
}

/// The engines of a run, and the pieces of its first windows. A GPU given
/// ready ([`Engine::Gpu`]) gets its kernels and buffers before anything is
/// written, so a GPU that cannot serve the file (chunks too small, no kernels)
/// leaves the output empty; a starting one ([`Engine::GpuStarting`]) gets
/// them on its thread, after opening the GPU, while the CPU begins.
#[cfg(feature = "cuda")]
fn open_engine(
    engine: &Engine,
    header: &Header,
    key: &[u8; 16],
    piece: usize,
) -> Result<(Engines<gpu::GpuChunks>, usize), SealedError> {
    let gpu_window = gpu_window(piece);
    let chunks = gpu_chunks_per_window(gpu_window);
    match engine {
        Engine::Cpu => Ok((Engines::cpu(), window(piece))),
        Engine::Gpu(g) => Ok((Engines::ready(gpu::GpuChunks::new(g, header, key, chunks)?), gpu_window)),
        Engine::GpuStarting(start) => {
            if !engine.supports_chunk_log2(header.chunk_log2) {
                let e = SealedError::GpuChunkSize { chunk_log2: header.chunk_log2 };
                return if start.or_cpu { Ok((Engines::cpu_because(&e), window(piece))) } else { Err(e) };
            }
            let (open, header, key) = (start.open.clone(), *header, Zeroizing::new(*key));
            let opener: start::Opener<gpu::GpuChunks> = Box::new(move || {
                let gpu = open().map_err(SealedError::GpuStart)?;
                let engine =
                    gpu::GpuChunks::new(&gpu, &header, &key, chunks).map_err(|e| SealedError::GpuStart(Box::new(e)))?;
                Ok((engine, gpu_window))
            });
            Ok((Engines::starting(opener, start.or_cpu)?.while_faster(start.while_faster), window(piece)))
        }
    }
}

/// Without the `cuda` feature: the CPU engine only.
#[cfg(not(feature = "cuda"))]
fn open_engine(
    engine: &Engine,
    _header: &Header,
    _key: &[u8; 16],
    piece: usize,
) -> Result<(Engines<start::NoGpu>, usize), SealedError> {
    match engine {
        Engine::Cpu => Ok((Engines::cpu(), window(piece))),
    }
}

/// Why chunk `index` failed: if it verifies with the other value of the last
/// flag, the file was cut at a chunk boundary (or has data appended);
/// otherwise the key is wrong or the file was changed.
fn diagnose(
    header: &Header,
    open_fn: OpenFn,
    key: &[u8; 16],
    ad: &[u8],
    index: u64,
    last: bool,
    ciphertext: &[u8],
) -> SealedError {
    let (nonce, len) = header.nonce(index, !last);
    let mut plain = Zeroizing::new(Vec::new());
    match open_fn(key, &nonce[..len], ad, ciphertext, &mut plain) {
        Ok(()) if last => SealedError::Truncated { chunks: index + 1 },
        Ok(()) => SealedError::TrailingData { chunk: index },
        Err(_) => SealedError::Authentication { chunk: index },
    }
}
