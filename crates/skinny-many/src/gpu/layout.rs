//! How a batch goes to the kernels (`kernels/many.cu`): cut into chunks, each
//! one contiguous input image (the lane table, the end offsets, the keys, the
//! nonces, the AD and the data) and one output image (the output bytes, then
//! a status word a message), so that a chunk moves in one copy each way.
//!
//! The messages of a chunk are grouped by length class (for Romulus the AD's
//! and the message's block counts, the empty string one block, and whether
//! each last block is full; for SKINNY-AEAD their whole blocks and whether a
//! partial block follows): a kernel thread takes 32 messages of one class,
//! whose TBC calls then have the same counter and domain at every step. Lengths and indices are public; nothing here depends on
//! a key or the data.
//!
//! (`examples/many_gpu_hostsim.rs` includes this file and `assemble.rs` too,
//! as modules of its root, which imports what `crate::` names here.)

use crate::{Flat, Scheme};
use core::ops::Range;
use skinny_aead::Member;

/// An empty lane (`MANY_NONE` in the source).
pub(crate) const NONE: u32 = u32::MAX;
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
    /// Messages longer than the scheme allows (SKINNY-AEAD M5-M6's 24-bit
    /// counter), with no output either, from the chunk's first.
    pub too_long: Vec<u32>,
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

/// A message's length class under `scheme`: what a kernel thread's 32
/// lanes share.
fn class(scheme: Scheme, ad_len: usize, msg_len: usize) -> (usize, bool, usize, bool) {
    match scheme {
        Scheme::RomulusN | Scheme::RomulusM => {
            let (a, af) = blocks(ad_len);
            let (m, mf) = blocks(msg_len);
            (a, af, m, mf)
        }
        Scheme::SkinnyAead(_) => (ad_len / 16, !ad_len.is_multiple_of(16), msg_len / 16, !msg_len.is_multiple_of(16)),
    }
}

/// Whether a message of `msg_len` bytes and `ad_len` bytes of AD fits the
/// scheme's counter (always, for Romulus at the GPU's 1 GiB a message).
fn fits(scheme: Scheme, msg_len: usize, ad_len: usize) -> bool {
    match scheme {
        Scheme::SkinnyAead(m) => skinny_aead::hazmat::lengths_fit(m, msg_len, ad_len),
        _ => true,
    }
}

/// Where a nonce starts in its 16-byte slot: where the kernels' tweakey wants
/// it (SKINNY-AEAD M5-M6: TK1 bytes 4..16, after the counter and domain).
fn nonce_offset(scheme: Scheme) -> usize {
    match scheme {
        Scheme::SkinnyAead(Member::M5 | Member::M6) => 4,
        _ => 0,
    }
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
pub(crate) fn plan(flat: &Flat<'_>, scheme: Scheme, pass: Pass, chunk_bytes: usize) -> Vec<Chunk> {
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
        chunks.push(chunk(flat, scheme, pass, first..last));
        first = last;
    }
    chunks
}

/// One chunk's lane table, output ends and sections.
fn chunk(flat: &Flat<'_>, scheme: Scheme, pass: Pass, messages: Range<usize>) -> Chunk {
    let count = messages.len();
    let tag = scheme.tag_len();
    let (ad0, data0) = (start(flat.ad_ends, messages.start), start(flat.data_ends, messages.start));
    let mut out_ends = Vec::with_capacity(count);
    let mut short = Vec::new();
    let mut too_long = Vec::new();
    let mut classes = Vec::with_capacity(count);
    let mut out = 0usize;
    for (k, i) in messages.clone().enumerate() {
        let ad_len = flat.ad_ends[i] - start(flat.ad_ends, i);
        let data_len = flat.data_ends[i] - start(flat.data_ends, i);
        let msg_len = match pass {
            Pass::Seal => {
                out += data_len + tag;
                Some(data_len)
            }
            Pass::Open if data_len < tag => {
                short.push(k as u32);
                None
            }
            Pass::Open => {
                out += data_len - tag;
                Some(data_len - tag)
            }
        };
        let msg_len = msg_len.filter(|&m| {
            let fits = fits(scheme, m, ad_len);
            if !fits {
                too_long.push(k as u32);
                out -= m + if pass == Pass::Seal { tag } else { 0 };
            }
            fits
        });
        out_ends.push(out as u32);
        if let Some(m) = msg_len {
            classes.push((class(scheme, ad_len, m), k as u32));
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
    Chunk { messages, lanes, out_ends, short, too_long, sections: s }
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
    let at = s.nonces + nonce_offset(scheme);
    for (k, nonce) in flat.nonces[m.start * nl..m.end * nl].chunks_exact(nl).enumerate() {
        dst[at + 16 * k..at + 16 * k + nl].copy_from_slice(nonce);
    }
    let ad = &flat.ad[ad0..start(flat.ad_ends, m.end)];
    dst[s.ad..s.ad + ad.len()].copy_from_slice(ad);
    let data = &flat.data[data0..start(flat.data_ends, m.end)];
    dst[s.data..s.data + data.len()].copy_from_slice(data);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat<'a>(keys: &'a [u8], nonces: &'a [u8], ad_ends: &'a [usize], data_ends: &'a [usize]) -> Flat<'a> {
        // The plan reads the ends only.
        Flat { keys, nonces, ad: &[], ad_ends, data: &[], data_ends }
    }

    #[test]
    fn skinny_aead_classes_split_empty_from_partial() {
        let m1 = Scheme::SkinnyAead(Member::M1);
        assert_ne!(class(m1, 0, 0), class(m1, 0, 5));
        assert_eq!(class(m1, 0, 16), (0, false, 1, false));
        assert_eq!(class(m1, 17, 33), (1, true, 2, true));
        // Romulus: the empty string is one (partial) block, as a short one.
        assert_eq!(class(Scheme::RomulusN, 0, 0), class(Scheme::RomulusN, 0, 5));
    }

    #[test]
    fn too_long_messages_of_m5_have_no_lane_and_no_output() {
        let m5 = Scheme::SkinnyAead(Member::M5);
        let big = 16 << 24;
        let (keys, nonces) = ([0u8; 48], [0u8; 36]);
        let (ad_ends, data_ends) = ([0, 0, 0], [10, 10 + big, 20 + big]);
        let chunks = plan(&flat(&keys, &nonces, &ad_ends, &data_ends), m5, Pass::Seal, 1 << 30);
        assert_eq!(chunks.len(), 1);
        let c = &chunks[0];
        assert_eq!(c.too_long, vec![1]);
        assert_eq!(c.out_ends, vec![26, 26, 52]);
        assert_eq!(c.lanes.iter().filter(|&&l| l != NONE).count(), 2);
    }

    #[test]
    fn nonces_sit_where_the_tweakey_wants_them() {
        let mut image = vec![0xEEu8; 4096];
        for (scheme, at) in [(Scheme::SkinnyAead(Member::M5), 4), (Scheme::SkinnyAead(Member::M2), 0)] {
            let nonces: Vec<u8> = (1..=24).collect();
            let (ad_ends, data_ends) = ([0, 0], [0, 0]);
            let f = flat(&[7; 32], &nonces, &ad_ends, &data_ends);
            let c = &plan(&f, scheme, Pass::Seal, 1 << 20)[0];
            write_input(&f, scheme, c, &mut image);
            let slots = &image[c.sections.nonces..c.sections.nonces + 32];
            let mut want = [0u8; 32];
            want[at..at + 12].copy_from_slice(&nonces[..12]);
            want[16 + at..16 + at + 12].copy_from_slice(&nonces[12..]);
            assert_eq!(slots, want, "{scheme}");
        }
    }
}
