//! SKINNY on batches of blocks: numpy arrays of shape (n, 8) or (n, 16), one
//! tweakey for all or one per block, on the CPU or the GPU.

use crate::common::{self, Device};
use crate::errors::{Error, PyResultOf};
use numpy::{PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use skinny::hazmat::bitsliced::PerBlockTweakeys;
use skinny::hazmat::partial::{self, TweakeyAt};
use skinny::Variant;
use skinny_bulk::mode::Direction;

mod device;
mod inputs;
use device::on_device_memory;
use inputs::{output, tweakeys, SegmentTweakeys, SEGMENT_BLOCKS};

/// Blocks per piece of work when every block has its own tweakey: enough to
/// fill several bitsliced batches (up to 512 blocks) per rayon task.
const PER_BLOCK_CHUNK: usize = 4096;

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
        let what = if matches!(dir, Direction::Encrypt) { "encrypt" } else { "decrypt" };
        let tally = common::Tally::new(py, progress, "blocks", what, n as u64)?;
        tally.run(py, || -> PyResultOf<()> {
            for (i, seg) in data.chunks_mut(SEGMENT_BLOCKS * bs).enumerate() {
                if tally.stopped() {
                    break;
                }
                crypt(v, span, dir, tks.segment(v, i * SEGMENT_BLOCKS, seg.len() / bs), device, seg)?;
                tally.add((seg.len() / bs) as u64);
            }
            Ok(())
        })??;
    }
    Ok(dst.into_any())
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
