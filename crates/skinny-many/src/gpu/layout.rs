//! How a batch goes to the kernels (`kernels/many.cu`): cut into chunks, each
//! one contiguous input image (the lane table, the end offsets, the keys, the
//! nonces, the AD and the data) and one output image (the output bytes, then
//! a status word a message), so that a chunk moves in one copy each way.
//!
//! The messages of a chunk are grouped by length class (the AD's and the
//! message's block counts and whether each last block is full): a kernel
//! thread takes 32 messages of one class, whose TBC calls then have the same
//! TK1 at every step. Lengths and indices are public; nothing here depends on
//! a key or the data.
//!
//! (`examples/many_gpu_hostsim.rs` includes this file and `assemble.rs` too,
//! as modules of its root, which imports what `crate::` names here.)

use crate::{Flat, Scheme};
use core::ops::Range;

/// An empty lane (`MANY_NONE` in the source).
pub(crate) const NONE: u32 = u32::MAX;
/// Bytes of a tag (both Romulus schemes).
pub(crate) const TAG: usize = 16;
/// The most data and AD bytes of one message (a chunk's sections stay under
/// the kernels' 32-bit offsets).
pub(crate) const MAX_MESSAGE: usize = 1 << 30;
/// Messages a kernel thread takes.
pub(crate) const LANES: usize = 32;

/// Which way a batch goes through the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// Encrypt and authenticate: data = plaintext, output = ciphertext ‖ tag.
    Seal,
    /// Check and decrypt: data = ciphertext ‖ tag, output = plaintext.
    Open,
}

/// Where the sections of a chunk's images lie, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sections {
    pub lanes: usize,
    pub ad_ends: usize,
    pub data_ends: usize,
    pub out_ends: usize,
    pub keys: usize,
    pub nonces: usize,
    pub ad: usize,
    pub data: usize,
    /// The input image's length.
    pub in_len: usize,
    /// The output bytes' offset in the output image (0) and the status words'.
    pub out: usize,
    pub status: usize,
    /// The output image's length.
    pub out_len: usize,
}

/// One chunk: its messages, its lane table, its output ends and where
/// everything lies.
#[derive(Clone, Debug)]
pub(crate) struct Chunk {
    /// The batch's messages in this chunk.
    pub messages: Range<usize>,
    /// 32 entries a kernel thread: a message of the chunk (its index from the
    /// chunk's first), or [`NONE`].
    pub lanes: Vec<u32>,
    /// Each message's output end in the chunk's output bytes.
    pub out_ends: Vec<u32>,
    /// Messages of `open` too short to hold a tag (forged, no output), from
    /// the chunk's first.
    pub short: Vec<u32>,
    pub sections: Sections,
}

impl Chunk {
    /// Kernel threads (groups of 32 lanes).
    pub fn groups(&self) -> u32 {
        (self.lanes.len() / LANES) as u32
    }
}

/// Up to `x` rounded up to 16 (sections start 16-aligned).
fn align(x: usize) -> usize {
    x.div_ceil(16) * 16
}

/// The block count of `len` bytes (the empty string is one block) and
/// whether the last is full.
fn blocks(len: usize) -> (usize, bool) {
    (len.div_ceil(16).max(1), len != 0 && len.is_multiple_of(16))
}

/// Message `i`'s length class: what a kernel thread's 32 lanes share.
fn class(ad_len: usize, msg_len: usize) -> (usize, bool, usize, bool) {
    let (a, af) = blocks(ad_len);
    let (m, mf) = blocks(msg_len);
    (a, af, m, mf)
}

fn start(ends: &[usize], i: usize) -> usize {
    if i == 0 {
        0
    } else {
        ends[i - 1]
    }
}

/// Cuts the batch into chunks of at most about `chunk_bytes` of data (and
/// always under 2^31 bytes of any section, for the kernels' 32-bit offsets;
/// a single message larger than that is refused by the caller).
pub(crate) fn plan(flat: &Flat<'_>, pass: Pass, chunk_bytes: usize) -> Vec<Chunk> {
    let n = flat.data_ends.len();
    let limit = chunk_bytes.clamp(1 << 16, 1 << 30);
    let mut chunks = Vec::new();
    let mut first = 0;
    while first < n {
        let mut last = first;
        let base_ad = start(flat.ad_ends, first);
        let base_data = start(flat.data_ends, first);
        // Messages up to the limit (at least one), and at most 2^24 a chunk.
        while last < n
            && (last == first
                || (flat.data_ends[last] - base_data + flat.ad_ends[last] - base_ad <= limit && last - first < 1 << 24))
        {
            last += 1;
        }
        chunks.push(chunk(flat, pass, first..last));
        first = last;
    }
    chunks
}

/// One chunk's lane table, output ends and sections.
fn chunk(flat: &Flat<'_>, pass: Pass, messages: Range<usize>) -> Chunk {
    let count = messages.len();
    let (ad0, data0) = (start(flat.ad_ends, messages.start), start(flat.data_ends, messages.start));
    let mut out_ends = Vec::with_capacity(count);
    let mut short = Vec::new();
    let mut classes = Vec::with_capacity(count);
    let mut out = 0usize;
    for (k, i) in messages.clone().enumerate() {
        let ad_len = flat.ad_ends[i] - start(flat.ad_ends, i);
        let data_len = flat.data_ends[i] - start(flat.data_ends, i);
        let msg_len = match pass {
            Pass::Seal => {
                out += data_len + TAG;
                Some(data_len)
            }
            Pass::Open if data_len < TAG => {
                short.push(k as u32);
                None
            }
            Pass::Open => {
                out += data_len - TAG;
                Some(data_len - TAG)
            }
        };
        out_ends.push(out as u32);
        if let Some(m) = msg_len {
            classes.push((class(ad_len, m), k as u32));
        }
    }
    // Group by class (already one class: the common case, kept in order).
    if classes.windows(2).any(|w| w[0].0 != w[1].0) {
        classes.sort_unstable();
    }
    let mut lanes = Vec::with_capacity(classes.len() + LANES);
    let mut run = 0;
    while run < classes.len() {
        let c = classes[run].0;
        let mut end = run;
        while end < classes.len() && classes[end].0 == c {
            end += 1;
        }
        for group in classes[run..end].chunks(LANES) {
            lanes.extend(group.iter().map(|&(_, k)| k));
            lanes.resize(lanes.len().div_ceil(LANES) * LANES, NONE);
        }
        run = end;
    }
    let ad_bytes = start(flat.ad_ends, messages.end) - ad0;
    let data_bytes = start(flat.data_ends, messages.end) - data0;
    let mut s = Sections { lanes: 0, ..Sections::default() };
    s.ad_ends = align(s.lanes + lanes.len() * 4);
    s.data_ends = align(s.ad_ends + count * 4);
    s.out_ends = align(s.data_ends + count * 4);
    s.keys = align(s.out_ends + count * 4);
    s.nonces = s.keys + count * 16;
    s.ad = s.nonces + count * 16;
    s.data = align(s.ad + ad_bytes);
    s.in_len = align(s.data + data_bytes).max(16);
    s.out = 0;
    s.status = align(out);
    s.out_len = align(s.status + count * 4).max(16);
    Chunk { messages, lanes, out_ends, short, sections: s }
}

/// Writes `c`'s input image into `dst` (at least `c.sections.in_len` bytes).
pub(crate) fn write_input(flat: &Flat<'_>, scheme: Scheme, c: &Chunk, dst: &mut [u8]) {
    let s = &c.sections;
    let m = &c.messages;
    let words = |dst: &mut [u8], at: usize, it: &mut dyn Iterator<Item = u32>| {
        for (k, w) in it.enumerate() {
            dst[at + 4 * k..at + 4 * k + 4].copy_from_slice(&w.to_le_bytes());
        }
    };
    let (ad0, data0) = (start(flat.ad_ends, m.start), start(flat.data_ends, m.start));
    dst[..s.in_len].fill(0);
    words(dst, s.lanes, &mut c.lanes.iter().copied());
    words(dst, s.ad_ends, &mut flat.ad_ends[m.clone()].iter().map(|&e| (e - ad0) as u32));
    words(dst, s.data_ends, &mut flat.data_ends[m.clone()].iter().map(|&e| (e - data0) as u32));
    words(dst, s.out_ends, &mut c.out_ends.iter().copied());
    let (kl, nl) = (scheme.key_len(), scheme.nonce_len());
    dst[s.keys..s.keys + m.len() * kl].copy_from_slice(&flat.keys[m.start * kl..m.end * kl]);
    dst[s.nonces..s.nonces + m.len() * nl].copy_from_slice(&flat.nonces[m.start * nl..m.end * nl]);
    let ad = &flat.ad[ad0..start(flat.ad_ends, m.end)];
    dst[s.ad..s.ad + ad.len()].copy_from_slice(ad);
    let data = &flat.data[data0..start(flat.data_ends, m.end)];
    dst[s.data..s.data + data.len()].copy_from_slice(data);
}
