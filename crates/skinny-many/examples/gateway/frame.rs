//! The frame format, and the load generator's tampering rule (which the
//! checker shares: ground truth for the test, not something a gateway knows).
//!
//! A frame is one UDP datagram:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 2 | magic `G1` (format version 1) |
//! | 2 | 4 | device id, little-endian |
//! | 6 | 8 | send timestamp: nanoseconds on the sender's clock, little-endian |
//! | 14 | 16 | nonce: device id (4, LE) ‖ the device's frame counter (8, LE) ‖ 4 zero bytes |
//! | 30 | n + 16 | the reading sealed with Romulus-N under the device's key: ciphertext ‖ tag |
//!
//! The clear header (bytes 0..14) is the associated data, so a changed id or
//! timestamp fails the tag as a changed reading does. Here the devices and
//! the gateway run in one process and share its monotonic clock (the
//! timestamp counts from the run's start); a deployment would use a
//! synchronised wall clock.

/// Format magic.
pub const MAGIC: [u8; 2] = *b"G1";
/// The clear header: magic, device id, timestamp (the AD).
pub const HEADER: usize = 14;
/// Nonce bytes.
pub const NONCE: usize = 16;
/// Romulus-N tag bytes.
pub const TAG: usize = 16;

/// A frame's fields, borrowed from the datagram.
pub struct Frame<'a> {
    pub device: u32,
    pub sent_ns: u64,
    pub header: &'a [u8],
    pub nonce: &'a [u8],
    pub sealed: &'a [u8],
}

/// Splits a datagram into its fields; `None` if it is too short or not this format.
pub fn parse(buf: &[u8]) -> Option<Frame<'_>> {
    if buf.len() < HEADER + NONCE + TAG || buf[..2] != MAGIC {
        return None;
    }
    let (header, rest) = buf.split_at(HEADER);
    let (nonce, sealed) = rest.split_at(NONCE);
    Some(Frame {
        device: u32::from_le_bytes(header[2..6].try_into().ok()?),
        sent_ns: u64::from_le_bytes(header[6..14].try_into().ok()?),
        header,
        nonce,
        sealed,
    })
}

/// The clear header of `device`'s frame sent at `sent_ns`.
pub fn header(device: u32, sent_ns: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..2].copy_from_slice(&MAGIC);
    h[2..6].copy_from_slice(&device.to_le_bytes());
    h[6..].copy_from_slice(&sent_ns.to_le_bytes());
    h
}

/// `device`'s nonce for its frame number `counter` (never reused under its key).
pub fn nonce(device: u32, counter: u64) -> [u8; NONCE] {
    let mut n = [0u8; NONCE];
    n[..4].copy_from_slice(&device.to_le_bytes());
    n[4..12].copy_from_slice(&counter.to_le_bytes());
    n
}

/// The device id and frame counter a nonce carries.
pub fn nonce_fields(nonce: &[u8]) -> (u32, u64) {
    let mut d = [0u8; 4];
    let mut c = [0u8; 8];
    d.copy_from_slice(&nonce[..4]);
    c.copy_from_slice(&nonce[4..12]);
    (u32::from_le_bytes(d), u64::from_le_bytes(c))
}

/// SplitMix64: the example's deterministic randomness.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// How the load generator alters a frame in transit.
#[derive(Clone, Copy, Debug)]
pub enum Tamper {
    /// A bit of the ciphertext flipped.
    Ciphertext,
    /// A bit of the tag flipped.
    Tag,
    /// The timestamp changed (the AD).
    Timestamp,
    /// A bit of the nonce's zero tail flipped.
    Nonce,
}

/// Whether (and how) frame `counter` of `device` is altered: about one frame
/// in `every`. The device id and counter in the nonce are never touched, so
/// the checker can tell.
pub fn tampering(device: u32, counter: u64, every: u64) -> Option<Tamper> {
    let r = mix((u64::from(device) << 40) ^ counter ^ 0x7a3d);
    if every == 0 || !r.is_multiple_of(every) {
        return None;
    }
    Some(match (r >> 32) % 4 {
        0 => Tamper::Ciphertext,
        1 => Tamper::Tag,
        2 => Tamper::Timestamp,
        _ => Tamper::Nonce,
    })
}

/// Applies `how` to a whole frame.
pub fn tamper(frame: &mut [u8], how: Tamper, r: u64) {
    let body = frame.len() - HEADER - NONCE - TAG;
    let at = match how {
        Tamper::Ciphertext if body > 0 => HEADER + NONCE + (r as usize % body),
        Tamper::Ciphertext | Tamper::Tag => frame.len() - TAG + (r as usize % TAG),
        Tamper::Timestamp => 6 + (r as usize % 8),
        Tamper::Nonce => HEADER + 12 + (r as usize % 4),
    };
    frame[at] ^= 1 << ((r >> 8) % 8);
}
