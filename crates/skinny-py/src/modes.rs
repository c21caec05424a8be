//! The five classic modes of `skinny-bulk` (ECB, CBC, CTR, CFB, OFB) on whole
//! messages: bytes in, bytes out. Unauthenticated: see the package docs.

use crate::common;
use crate::common::Bytes;
use crate::errors::{Error, PyResultOf};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use std::sync::atomic::{AtomicBool, Ordering};
use zeroize::Zeroizing;

fn mode(name: &str) -> PyResultOf<Mode> {
    name.parse().map_err(|_| Error::input(format!("unknown mode {name:?} (expected ecb, ctr, cbc, cfb or ofb)")))
}

#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    dir: Direction,
    mode_name: &str,
    cipher: &str,
    key: &[u8],
    data: &[u8],
    iv: Option<&[u8]>,
    padding: Option<bool>,
    rounds: Option<usize>,
    device: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let v = common::variant(cipher)?;
    let m = mode(mode_name)?;
    let rounds = common::rounds(v, rounds)?;
    let device = common::device(device)?;
    let stop = AtomicBool::new(false);
    let work = || -> PyResultOf<Zeroizing<Vec<u8>>> {
        let c = common::cipher(v, key, rounds)?;
        let backend = common::backend(device)?;
        let mut b = Processor::builder(&c, m, dir).backend(backend.as_ref()).total_bytes(data.len() as u64);
        if let Some(iv) = iv {
            b = b.iv(iv);
        }
        if let Some(pad) = padding {
            b = b.padding(if pad { Padding::Pkcs7 } else { Padding::None });
        }
        let mut p = b.build()?;
        // Room for the padding up front: no reallocation leaves a copy behind.
        let mut buf = Zeroizing::new(Vec::with_capacity(data.len() + v.block_bytes()));
        buf.extend_from_slice(data);
        // All but the last 1 ..= SEGMENT_BYTES bytes in segments, Ctrl-C looked
        // for between them; the rest (its padding) ends the message.
        let head = data.len().saturating_sub(1) / SEGMENT_BYTES * SEGMENT_BYTES;
        for segment in buf[..head].chunks_mut(SEGMENT_BYTES) {
            if stop.load(Ordering::Relaxed) {
                return Ok(buf);
            }
            p.apply_in_place(segment)?;
        }
        let mut rest = Zeroizing::new(buf.split_off(head));
        p.finish_in_place(&mut rest)?;
        buf.extend_from_slice(&rest);
        Ok(buf)
    };
    let out = common::interruptible(py, &|| stop.store(true, Ordering::Relaxed), work)??;
    Ok(PyBytes::new(py, &out))
}

/// Bytes per segment of a message (a multiple of every block length).
const SEGMENT_BYTES: usize = 16 << 20;

/// Encrypts a whole message in a block mode (UNAUTHENTICATED).
///
/// ``iv`` is one block, required by every mode but ECB. ECB and CBC pad with
/// PKCS#7 unless ``padding=False`` (then the data must be whole blocks); CTR
/// counts big-endian over the whole block. The parallel work (ECB, CTR, CBC
/// and CFB decryption) runs on ``device``; the serial modes on the CPU.
#[pyfunction]
#[pyo3(signature = (mode, cipher, key, data, *, iv=None, padding=None, rounds=None, device="cpu"))]
#[allow(clippy::too_many_arguments)]
pub fn mode_encrypt<'py>(
    py: Python<'py>,
    mode: &str,
    cipher: &str,
    key: Bytes,
    data: Bytes,
    iv: Option<Bytes>,
    padding: Option<bool>,
    rounds: Option<usize>,
    device: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    run(py, Direction::Encrypt, mode, cipher, &key, &data, iv.as_deref(), padding, rounds, device)
}

/// Decrypts a whole message in a block mode; a bad padding raises ``PaddingError``.
#[pyfunction]
#[pyo3(signature = (mode, cipher, key, data, *, iv=None, padding=None, rounds=None, device="cpu"))]
#[allow(clippy::too_many_arguments)]
pub fn mode_decrypt<'py>(
    py: Python<'py>,
    mode: &str,
    cipher: &str,
    key: Bytes,
    data: Bytes,
    iv: Option<Bytes>,
    padding: Option<bool>,
    rounds: Option<usize>,
    device: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    run(py, Direction::Decrypt, mode, cipher, &key, &data, iv.as_deref(), padding, rounds, device)
}
