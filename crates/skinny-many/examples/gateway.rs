//! A gateway that receives one batch of messages from many devices, each
//! device with its own key, opens them all at once with the many-message
//! engine, and reports which ones failed: some were altered in transit (a
//! flipped bit, a truncated frame, a replayed header under another nonce).
//!
//! `cargo run --release -p skinny-many --example gateway`

use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};
use skinny_exec::Placement;
use skinny_many::{Batch, MessageError, Scheme};
use skinny_romulus::RomulusN;

/// A device's reading as it leaves the device: nonce, header (sent in the
/// clear, authenticated), sealed reading.
struct Frame {
    device: usize,
    nonce: [u8; 16],
    header: Vec<u8>,
    sealed: Vec<u8>,
}

/// Each device's key (in a real gateway, from its provisioning record).
fn device_key(device: usize) -> [u8; 16] {
    core::array::from_fn(|i| (device as u8).wrapping_mul(151) ^ (i as u8).wrapping_mul(29) ^ 0x5c)
}

/// What device `device` sends: its reading sealed under its own key with
/// Romulus-N (a counter nonce; never reused under one key).
fn send(device: usize, counter: u64) -> Frame {
    let mut nonce = [0u8; 16];
    nonce[..8].copy_from_slice(&counter.to_le_bytes());
    nonce[8..].copy_from_slice(&(device as u64).to_le_bytes());
    let header = format!("device={device};seq={counter}").into_bytes();
    let reading = format!("temperature={}.{}C;battery={}%", 18 + device % 9, device % 10, 100 - device % 37);
    let mut sealed = reading.into_bytes();
    let cipher = RomulusN::new(&device_key(device).into());
    let tag = cipher
        .encrypt_inout_detached(&nonce.into(), &header, InOutBuf::from(sealed.as_mut_slice()))
        .expect("a short reading fits");
    sealed.extend_from_slice(&tag);
    Frame { device, nonce, header, sealed }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let devices = 5000;
    let mut frames: Vec<Frame> = (0..devices).map(|d| send(d, 41)).collect();

    // In transit: a flipped bit, a truncated frame, a header rewritten, a
    // frame replayed under another nonce.
    frames[17].sealed[3] ^= 0x10;
    frames[1234].sealed.truncate(10);
    frames[2500].header = b"device=2500;seq=40".to_vec();
    frames[4999].nonce[0] ^= 1;

    // The gateway: one batch, each message with its device's key.
    let mut batch = Batch::with_capacity(Scheme::RomulusN, frames.len(), frames.iter().map(|f| f.sealed.len()).sum());
    for f in &frames {
        batch.push(&device_key(f.device), &f.nonce, &f.header, &f.sealed)?;
    }
    let opened = skinny_many::open(&Placement::default(), &batch)?;

    println!("{} messages opened, {} authentic", opened.len(), opened.ok_count());
    for (i, why) in opened.failures() {
        let f = &frames[i];
        let why = match why {
            MessageError::Forged => "not authentic: dropped",
            MessageError::TooLong => "too long for the scheme",
        };
        println!("  device {:>4} ({}): {why}", f.device, String::from_utf8_lossy(&f.header));
    }
    for i in [0, 1, 4998] {
        println!("  device {:>4}: {}", frames[i].device, String::from_utf8_lossy(opened.message(i)?));
    }
    Ok(())
}
