//! The load generator: simulated devices sending sealed frames over UDP to
//! the gateway at a set rate, for a set time. Some frames are altered in
//! transit, some come from devices the gateway does not know, a few are junk.

use super::frame::{self, mix, HEADER, NONCE, TAG};
use super::keystore::device_key;
use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};
use skinny_romulus::RomulusN;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What to send.
#[derive(Clone, Copy)]
pub struct Plan {
    /// Devices with keys in the store (ids `0..devices`).
    pub devices: u32,
    /// Frames a second, all generator threads together.
    pub rate: f64,
    pub duration: Duration,
    pub generators: usize,
    /// About one frame in this many is altered in transit.
    pub tamper_every: u64,
    /// About one frame in this many comes from an unknown device.
    pub unknown_every: u64,
    /// About one frame in this many is junk (too short to be a frame).
    pub junk_every: u64,
    /// Reading bytes (the plaintext of each frame).
    pub reading: usize,
    pub seed: u64,
}

/// Frames sent, by kind.
#[derive(Default)]
pub struct Sent {
    pub authentic: AtomicU64,
    pub tampered: AtomicU64,
    pub unknown: AtomicU64,
    pub junk: AtomicU64,
}

impl Sent {
    pub fn total(&self) -> u64 {
        [&self.authentic, &self.tampered, &self.unknown, &self.junk].iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }
}

/// Sends `plan`'s frames to `gateway` from `plan.generators` threads; returns
/// when the time is up. Timestamps count from `epoch`.
pub fn run(plan: &Plan, gateway: SocketAddr, epoch: Instant, sent: &Sent) -> std::io::Result<()> {
    std::thread::scope(|scope| {
        let threads: Vec<_> =
            (0..plan.generators).map(|g| scope.spawn(move || generator(plan, g, gateway, epoch, sent))).collect();
        threads
            .into_iter()
            .try_for_each(|t| t.join().unwrap_or_else(|_| Err(std::io::Error::other("generator panicked"))))
    })
}

/// One generator thread: devices `g, g + generators, …`, paced to its share
/// of the rate.
fn generator(plan: &Plan, g: usize, gateway: SocketAddr, epoch: Instant, sent: &Sent) -> std::io::Result<()> {
    let socket = UdpSocket::bind("127.0.0.1:0")?;
    let mine: Vec<u32> = (0..plan.devices).filter(|d| *d as usize % plan.generators == g).collect();
    if mine.is_empty() {
        return Ok(());
    }
    let ciphers: Vec<RomulusN> = mine.iter().map(|&d| RomulusN::new(&(*device_key(plan.seed, d)).into())).collect();
    let mut counters = vec![0u64; mine.len()];
    let per_thread = plan.rate / plan.generators as f64;
    let start = Instant::now();
    let mut n = 0u64;
    let mut buf = Vec::with_capacity(HEADER + NONCE + plan.reading + TAG);
    let mut rng = mix(plan.seed ^ g as u64 ^ 0x9e11);
    while start.elapsed() < plan.duration {
        let due = (start.elapsed().as_secs_f64() * per_thread) as u64;
        while n < due {
            n += 1;
            rng = mix(rng);
            let sent_ns = epoch.elapsed().as_nanos() as u64;
            if plan.junk_every > 0 && rng % plan.junk_every == 1 {
                socket.send_to(&frame::header(0, sent_ns)[..(rng >> 59) as usize % HEADER], gateway)?;
                sent.junk.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let unknown = plan.unknown_every > 0 && (rng >> 8) % plan.unknown_every == 2;
            let slot = (rng >> 16) as usize % mine.len();
            let stranger;
            let (device, cipher) = if unknown {
                // An id past the store's; sealed under a key of its own.
                let d = plan.devices + 1 + (rng >> 40) as u32 % 1000;
                stranger = RomulusN::new(&(*device_key(plan.seed ^ 0xdead, d)).into());
                (d, &stranger)
            } else {
                (mine[slot], &ciphers[slot])
            };
            let counter = if unknown { rng } else { counters[slot] };
            let tamper = if unknown { None } else { frame::tampering(device, counter, plan.tamper_every) };
            let header = frame::header(device, sent_ns);
            let nonce = frame::nonce(device, counter);
            buf.clear();
            buf.extend_from_slice(&header);
            buf.extend_from_slice(&nonce);
            let body = buf.len();
            buf.extend(reading(device, counter, plan.reading).as_bytes());
            let tag = cipher
                .encrypt_inout_detached(&nonce.into(), &header, InOutBuf::from(&mut buf[body..]))
                .map_err(|_| std::io::Error::other("seal failed"))?;
            buf.extend_from_slice(&tag);
            if let Some(how) = tamper {
                frame::tamper(&mut buf, how, mix(rng));
            }
            socket.send_to(&buf, gateway)?;
            if !unknown {
                counters[slot] += 1;
            }
            let kind = match (unknown, tamper) {
                (true, _) => &sent.unknown,
                (false, Some(_)) => &sent.tampered,
                (false, None) => &sent.authentic,
            };
            kind.fetch_add(1, Ordering::Relaxed);
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    Ok(())
}

/// A device's reading: text, padded or cut to `len` bytes.
pub fn reading(device: u32, counter: u64, len: usize) -> String {
    let mut r = format!(
        "device={device};seq={counter};temperature={}.{}C;battery={}%;",
        18 + device % 9,
        counter % 10,
        100 - device % 37
    );
    while r.len() < len {
        r.push('.');
    }
    r.truncate(len);
    r
}
