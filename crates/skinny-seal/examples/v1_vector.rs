//! Prints the worked example of version 1 in `docs/sealed-format.md` (a
//! fixed key and nonce prefix: a test vector, never a way to seal real files).
use skinny_seal::{hazmat, Scheme, SealError, SealOptions};

fn main() -> Result<(), SealError> {
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let prefix: [u8; 11] = core::array::from_fn(|i| 0xa0 + i as u8);
    let options = SealOptions { scheme: Scheme::M1, chunk_log2: 4, ..SealOptions::default() };
    let mut file = Vec::new();
    hazmat::seal_v1_with_prefix(&b"Sealed with SKINNY-AEAD!"[..], &mut file, &key, &options, &prefix)?;
    for (i, line) in file.chunks(16).enumerate() {
        let hex: Vec<String> = line.iter().map(|b| format!("{b:02x}")).collect();
        println!("{:08x}  {}", 16 * i, hex.join(" "));
    }
    Ok(())
}
