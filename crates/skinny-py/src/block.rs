//! SKINNY on batches of blocks: numpy arrays of shape (n, 8) or (n, 16), one
//! tweakey for all or one per block, on the CPU or the GPU.

use crate::common::{self, Device};
use crate::errors::{Error, PyResultOf};
use numpy::{PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;
use skinny::hazmat::bitsliced::PerBlockTweakeys;
use skinny::hazmat::partial::{self, TweakeyAt};
use skinny::Variant;
use skinny_bulk::mode::Direction;
use zeroize::Zeroizing;

/// Blocks per piece of work when every block has its own tweakey: enough to
/// fill several bitsliced batches (up to 512 blocks) per rayon task.
const PER_BLOCK_CHUNK: usize = 4096;

/// The tweakeys of a call: one for every block, or one per block (row `i`
/// for block `i`), copied into wiped memory.
enum Tweakeys {
    One(Zeroizing<Vec<u8>>),
    PerBlock(Zeroizing<Vec<u8>>),
}

/// The tweakeys of a segment of blocks: the one tweakey, or the segment's rows.
#[derive(Clone, Copy)]
enum SegmentTweakeys<'a> {
    One(&'a [u8]),
    PerBlock(&'a [u8]),
}

impl Tweakeys {
    /// The tweakeys of `blocks` blocks from block `first`.
    fn segment(&self, v: Variant, first: usize, blocks: usize) -> SegmentTweakeys<'_> {
        let tl = v.tweakey_bytes();
        match self {
            Tweakeys::One(tk) => SegmentTweakeys::One(tk),
            Tweakeys::PerBlock(tk) => SegmentTweakeys::PerBlock(&tk[first * tl..(first + blocks) * tl]),
        }
    }
}

/// Blocks per segment of a call: between segments a Ctrl-C is looked for,
/// and each is large enough (16 MiB of 16-byte blocks) that the engine's
/// set-up and a GPU's transfers are a small part of it.
const SEGMENT_BLOCKS: usize = 1 << 20;

fn tweakeys(v: Variant, n: usize, tk: &Bound<'_, PyAny>) -> PyResult<Tweakeys> {
    let len = v.tweakey_bytes();
    let bad = || {
        Error::input(format!(
            "tweakey must be {len} bytes (bytes or a uint8 array of shape ({len},)) or a uint8 array of shape (n, {len}) for {v}"
        ))
    };
    if let Ok(b) = tk.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        return if bytes.len() == len { Ok(Tweakeys::One(Zeroizing::new(bytes.to_vec()))) } else { Err(bad().into()) };
    }
    if let Ok(a) = tk.cast::<numpy::PyArray1<u8>>() {
        let ro = a.try_readonly().map_err(|e| Error::input(e.to_string()))?;
        let view = ro.as_array();
        return if view.len() == len { Ok(Tweakeys::One(Zeroizing::new(view.to_vec()))) } else { Err(bad().into()) };
    }
    if let Ok(a) = tk.cast::<PyArray2<u8>>() {
        let ro = a.try_readonly().map_err(|e| Error::input(e.to_string()))?;
        let view = ro.as_array();
        if view.shape() != [n, len] {
            return Err(Error::input(format!(
                "per-block tweakeys must have shape ({n}, {len}) for {n} blocks of {v}, not {:?}",
                view.shape()
            ))
            .into());
        }
        let flat: Vec<u8> = view.iter().copied().collect();
        return Ok(Tweakeys::PerBlock(Zeroizing::new(flat)));
    }
    if let Ok(b) = tk.extract::<Vec<u8>>() {
        return if b.len() == len { Ok(Tweakeys::One(Zeroizing::new(b))) } else { Err(bad().into()) };
    }
    // Any other buffer (bytearray, memoryview): its bytes.
    if tk.cast::<numpy::PyUntypedArray>().is_err() {
        if let Ok(b) = tk.extract::<common::Bytes>() {
            return if b.len() == len { Ok(Tweakeys::One(Zeroizing::new(b.to_vec()))) } else { Err(bad().into()) };
        }
    }
    // Array-likes (nested lists, integer arrays of another dtype): through
    // numpy, once.
    if let Some(a) = common::u8_array_like(tk.py(), tk, "tweakey")? {
        if a.cast::<numpy::PyArray1<u8>>().is_ok() || a.cast::<PyArray2<u8>>().is_ok() {
            return tweakeys(v, n, &a);
        }
    }
    Err(bad().into())
}

/// The output array: `out` when given (it may be `blocks` itself: in place),
/// else a new array; `blocks` is copied into it unless they are one array.
/// An `out` that shares memory with `tweakey` is refused: the copy of the
/// blocks would overwrite the tweakeys before they are read.
fn output<'py>(
    py: Python<'py>,
    v: Variant,
    blocks: &Bound<'py, PyAny>,
    tweakey: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let bs = v.block_bytes();
    let shape_err = |what: &str| {
        Error::input(format!(
            "{what} must be uint8 blocks of shape (n, {bs}) for {v}: a numpy array, an array-like, or bytes of n x {bs}"
        ))
    };
    let src = &blocks_of(py, blocks, bs)?.ok_or_else(|| shape_err("blocks"))?;
    if src.shape()[1] != bs {
        return Err(shape_err("blocks").into());
    }
    let n = src.shape()[0];
    let dst = match out {
        Some(o) => {
            let d = o.cast::<PyArray2<u8>>().map_err(|_| shape_err("out"))?.clone();
            if d.shape() != [n, bs] {
                return Err(Error::input(format!("out must have the shape of blocks, ({n}, {bs})")).into());
            }
            if !d.is_c_contiguous() {
                return Err(Error::input("out must be C-contiguous").into());
            }
            if !d.is(src) && shares_memory(py, d.as_any(), src.as_any())? {
                return Err(Error::input(
                    "out overlaps blocks without being blocks itself: give blocks, or a separate array",
                )
                .into());
            }
            if tweakey.cast::<numpy::PyUntypedArray>().is_ok() && shares_memory(py, d.as_any(), tweakey)? {
                return Err(Error::input(
                    "out shares memory with tweakey: give a separate array (out may be blocks itself)",
                )
                .into());
            }
            d
        }
        None => common::zeros(py, &[n, bs])?,
    };
    if !dst.is(src) {
        let ro = src.try_readonly().map_err(|e| Error::input(e.to_string()))?;
        let mut rw = dst.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
        rw.as_array_mut().assign(&ro.as_array());
    }
    Ok(dst)
}

/// `blocks` as a 2-D uint8 array of rows of `bs` bytes: a uint8 array as it
/// is (so that `out=blocks` works in place); a bytes-like object of a whole
/// number of blocks, or an array-like of byte values, copied into a new one.
fn blocks_of<'py>(
    py: Python<'py>,
    blocks: &Bound<'py, PyAny>,
    bs: usize,
) -> PyResult<Option<Bound<'py, PyArray2<u8>>>> {
    if let Ok(a) = blocks.cast::<PyArray2<u8>>() {
        return Ok(Some(a.clone()));
    }
    if blocks.cast::<numpy::PyUntypedArray>().is_err() {
        if let Ok(b) = blocks.extract::<common::Bytes>() {
            if b.len() % bs != 0 {
                return Ok(None);
            }
            let flat = numpy::PyArray1::from_slice(py, &b);
            return Ok(Some(flat.reshape([b.len() / bs, bs])?));
        }
    }
    // A host tensor of another library (DLPack on the CPU): numpy takes it
    // without a copy.
    if blocks.cast::<numpy::PyUntypedArray>().is_err() && blocks.hasattr("__dlpack__")? {
        if let Ok(a) = py.import("numpy")?.call_method1("from_dlpack", (blocks,)) {
            return Ok(a.cast_into::<PyArray2<u8>>().ok());
        }
    }
    match common::u8_array_like(py, blocks, "blocks")? {
        Some(a) => Ok(a.cast_into::<PyArray2<u8>>().ok()),
        None => Ok(None),
    }
}

/// Whether two arrays' memory ranges overlap (numpy's `may_share_memory`:
/// a bounds check, never a slow exact search).
fn shares_memory(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    py.import("numpy")?.call_method1("may_share_memory", (a, b))?.extract()
}

/// Which rounds run: `rounds` rounds from round `start` (from 1), the
/// tweakey given at the master or at round `start`.
#[derive(Clone, Copy)]
struct Span {
    rounds: usize,
    start: usize,
    at: TweakeyAt,
}

impl Span {
    fn read(v: Variant, rounds: Option<usize>, start: usize, tweakey_at: &str) -> PyResultOf<Self> {
        let at = match tweakey_at {
            "master" => TweakeyAt::Master,
            "start" => TweakeyAt::Start,
            _ => return Err(Error::input(format!("tweakey_at must be \"master\" or \"start\", not {tweakey_at:?}"))),
        };
        let rounds = rounds.unwrap_or(v.rounds().saturating_sub(start.saturating_sub(1)));
        partial::check_rounds(v, start, rounds).map_err(|e| Error::input(e.to_string()))?;
        Ok(Self { rounds, start, at })
    }

    /// The cipher of these rounds under one tweakey (round 1 and on: the
    /// plain reduced-round cipher).
    fn cipher(self, v: Variant, tk: &[u8]) -> PyResultOf<skinny::Skinny> {
        if self.start == 1 {
            return common::cipher(v, tk, self.rounds);
        }
        partial::partial_cipher(v, tk, self.at, self.start, self.rounds).map_err(|e| Error::input(e.to_string()))
    }
}

/// Runs the cipher over `data` (whole blocks) in place, without the GIL held.
fn crypt(
    v: Variant,
    span: Span,
    dir: Direction,
    tks: SegmentTweakeys<'_>,
    device: Device,
    data: &mut [u8],
) -> PyResultOf<()> {
    let rounds = span.rounds;
    match (tks, device) {
        (SegmentTweakeys::One(tk), Device::Cpu | Device::Gpu) => {
            let cipher = span.cipher(v, tk)?;
            let backend = common::backend(device)?;
            let mut engine = backend.engine(&cipher)?;
            engine.ecb(dir, data)?;
            Ok(())
        }
        // From a later round, each block's own partial cipher, one block at a
        // time (the bitsliced per-block schedule starts at round 1).
        (SegmentTweakeys::PerBlock(tk), Device::Cpu) if span.start > 1 => {
            let (bs, tl) = (v.block_bytes(), v.tweakey_bytes());
            data.par_chunks_mut(bs).zip(tk.par_chunks(tl)).try_for_each(|(d, t)| {
                let c = span.cipher(v, t)?;
                match dir {
                    Direction::Encrypt => c.encrypt_block(d),
                    Direction::Decrypt => c.decrypt_block(d),
                }
                Ok(())
            })
        }
        (SegmentTweakeys::PerBlock(tk), Device::Cpu) => {
            let pbt = PerBlockTweakeys::new(v, rounds).map_err(|e| Error::input(e.to_string()))?;
            let (bs, tl) = (v.block_bytes(), v.tweakey_bytes());
            data.par_chunks_mut(PER_BLOCK_CHUNK * bs).zip(tk.par_chunks(PER_BLOCK_CHUNK * tl)).for_each(|(d, t)| {
                match dir {
                    Direction::Encrypt => pbt.encrypt(d, t),
                    Direction::Decrypt => pbt.decrypt(d, t),
                }
            });
            Ok(())
        }
        (SegmentTweakeys::PerBlock(_), Device::Gpu) => {
            Err(Error::unsupported("per-block tweakeys run on the CPU only: the GPU kernels take one tweakey per call"))
        }
        (_, Device::Auto) => {
            Err(Error::unsupported("device \"auto\" is not offered for blocks: use \"cpu\" or \"gpu\""))
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    dir: Direction,
    cipher: &str,
    blocks: &Bound<'py, PyAny>,
    tweakey: &Bound<'py, PyAny>,
    span: (Option<usize>, usize, &str),
    device: &str,
    (out, progress): (Option<&Bound<'py, PyAny>>, Option<&Bound<'py, PyAny>>),
) -> PyResult<Bound<'py, PyAny>> {
    let v = common::variant(cipher)?;
    let span = Span::read(v, span.0, span.1, span.2)?;
    let device = common::device(device)?;
    if let Some(done) = on_device_memory(py, v, span, dir, blocks, tweakey, device, out)? {
        return Ok(done);
    }
    let dst = output(py, v, blocks, tweakey, out)?;
    let n = dst.shape()[0];
    let tks = tweakeys(v, n, tweakey)?;
    {
        let mut rw = dst.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
        let data = rw.as_slice_mut().map_err(|e| Error::input(e.to_string()))?;
        // In segments, so that Ctrl-C stops the call at the next one.
        let bs = v.block_bytes();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let stopped = || stop.load(std::sync::atomic::Ordering::Relaxed);
        let what = if matches!(dir, Direction::Encrypt) { "encrypt" } else { "decrypt" };
        let progress = common::Progress::of(py, progress, "blocks", what)?;
        let done = std::sync::atomic::AtomicU64::new(0);
        let count = || (done.load(std::sync::atomic::Ordering::Relaxed), n as u64);
        common::interruptible_with(
            py,
            &|| stop.store(true, std::sync::atomic::Ordering::Relaxed),
            progress.as_ref().map(|p| (p, &count as common::Counter<'_>)),
            || -> PyResultOf<()> {
                for (i, seg) in data.chunks_mut(SEGMENT_BLOCKS * bs).enumerate() {
                    if stopped() {
                        break;
                    }
                    crypt(v, span, dir, tks.segment(v, i * SEGMENT_BLOCKS, seg.len() / bs), device, seg)?;
                    done.fetch_add((seg.len() / bs) as u64, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(())
            },
        )??;
    }
    Ok(dst.into_any())
}

/// A call on a CUDA tensor (any object with `__dlpack__` on a CUDA device,
/// such as a CuPy array, a PyTorch tensor or a `DeviceArray`): run where it
/// lies, into `out` or a new `DeviceArray`, without a host copy. `None` when
/// `blocks` is not one (the host path then runs).
#[cfg(feature = "cuda")]
#[allow(clippy::too_many_arguments)]
fn on_device_memory<'py>(
    py: Python<'py>,
    v: Variant,
    span: Span,
    dir: Direction,
    blocks: &Bound<'py, PyAny>,
    tweakey: &Bound<'py, PyAny>,
    device: Device,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(ordinal) = crate::device::cuda_device_of(blocks, "blocks")? else {
        if let Some(o) = out {
            if crate::device::cuda_device_of(o, "out")?.is_some() {
                return Err(Error::input("out is on the GPU but blocks is not: give blocks on the GPU too").into());
            }
        }
        return Ok(None);
    };
    if device != Device::Gpu {
        return Err(Error::input("blocks is on the GPU: pass device=\"gpu\" (or copy it to the host first)").into());
    }
    if tweakey.cast::<PyArray2<u8>>().is_ok() {
        return Err(Error::unsupported(
            "per-block tweakeys run on the CPU only: the GPU kernels take one tweakey per call",
        )
        .into());
    }
    let tk = match tweakeys(v, 1, tweakey)? {
        Tweakeys::One(tk) => tk,
        Tweakeys::PerBlock(_) => {
            return Err(Error::unsupported(
                "per-block tweakeys run on the CPU only: the GPU kernels take one tweakey per call",
            )
            .into())
        }
    };
    let cipher = span.cipher(v, &tk)?;
    crate::device::crypt_device(py, ordinal, &cipher, matches!(dir, Direction::Decrypt), blocks, out).map(Some)
}

#[cfg(not(feature = "cuda"))]
#[allow(clippy::too_many_arguments)]
fn on_device_memory<'py>(
    _: Python<'py>,
    _: Variant,
    _: Span,
    _: Direction,
    _: &Bound<'py, PyAny>,
    _: &Bound<'py, PyAny>,
    _: Device,
    _: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(None)
}

/// Encrypts a batch of blocks with SKINNY.
///
/// ``cipher`` names the variant (``"skinny-64-64"`` .. ``"skinny-128-384"``);
/// ``blocks`` is a uint8 array of shape (n, 8) or (n, 16); ``tweakey`` is the
/// whole tweakey TK1 ‖ TK2 ‖ TK3 (bytes or a uint8 array of shape (tk,)) for
/// every block, or a uint8 array of shape (n, tk), one per block. ``rounds``
/// runs that many rounds (1 .. the full count; reduced rounds are for
/// cryptanalysis only). ``start`` runs them from round ``start`` (from 1) at
/// their own place: that round's constants and tweakey state, the tweakey
/// given as the master tweakey (``tweakey_at="master"``, the schedule is
/// advanced here) or as round ``start``'s state (``"start"``); ``rounds``
/// then defaults to the rest of the cipher. Per-block tweakeys from a later
/// start run block by block (slower than the bitsliced start-at-1 path).
/// ``device="gpu"`` runs one tweakey for all on the GPU
/// (per-block tweakeys are CPU only: ``UnsupportedError``); no usable GPU
/// raises ``GpuUnavailableError``. The result is a new array, or ``out``
/// (which may be ``blocks`` itself, to work in place: no copy).
/// Bitsliced and constant time on the CPU, on every core; the GIL is released.
///
/// ``blocks`` may also be a tensor on a CUDA device (any object with
/// ``__dlpack__``: a CuPy array, a PyTorch tensor, a :class:`DeviceArray`),
/// uint8, C-contiguous, of shape (n, block), with ``device="gpu"``: the GPU
/// reads it where it lies and writes ``out`` (a CUDA tensor of the same
/// shape, or ``blocks`` itself: in place) or a new :class:`DeviceArray`,
/// with no copy through the host.
///
/// ``progress=True`` shows a progress bar (tqdm where installed, else a line
/// on stderr); a callable ``progress(done, total)`` is called about four times
/// a second and at the end (an exception it raises stops the call).
#[pyfunction]
#[pyo3(signature = (cipher, blocks, tweakey, *, rounds=None, start=1, tweakey_at="master", device="cpu", out=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn encrypt<'py>(
    py: Python<'py>,
    cipher: &str,
    blocks: &Bound<'py, PyAny>,
    tweakey: &Bound<'py, PyAny>,
    rounds: Option<usize>,
    start: usize,
    tweakey_at: &str,
    device: &str,
    out: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    run(py, Direction::Encrypt, cipher, blocks, tweakey, (rounds, start, tweakey_at), device, (out, progress))
}

/// Decrypts a batch of blocks: the inverse of :func:`encrypt`, same arguments.
#[pyfunction]
#[pyo3(signature = (cipher, blocks, tweakey, *, rounds=None, start=1, tweakey_at="master", device="cpu", out=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn decrypt<'py>(
    py: Python<'py>,
    cipher: &str,
    blocks: &Bound<'py, PyAny>,
    tweakey: &Bound<'py, PyAny>,
    rounds: Option<usize>,
    start: usize,
    tweakey_at: &str,
    device: &str,
    out: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    run(py, Direction::Decrypt, cipher, blocks, tweakey, (rounds, start, tweakey_at), device, (out, progress))
}
