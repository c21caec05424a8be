//! The modes written out from their textbook definitions over single-block
//! encryption: an independent reference for the streaming processor and backends.

use skinny::Skinny;

/// Adds one to a big-endian counter of any width, wrapping to zero.
pub fn inc(ctr: &mut [u8]) {
    for b in ctr.iter_mut().rev() {
        *b = b.wrapping_add(1);
        if *b != 0 {
            break;
        }
    }
}

/// `data` padded with PKCS#7 to whole `bs`-byte blocks (a whole block of padding when already whole).
pub fn pkcs7(data: &[u8], bs: usize) -> Vec<u8> {
    let n = bs - data.len() % bs;
    let mut v = data.to_vec();
    v.extend(std::iter::repeat_n(n as u8, n));
    v
}

/// ECB over whole blocks; `enc` chooses the direction.
pub fn ecb(c: &Skinny, enc: bool, data: &[u8]) -> Vec<u8> {
    let mut v = data.to_vec();
    for b in v.chunks_exact_mut(c.block_bytes()) {
        if enc {
            c.encrypt_block(b)
        } else {
            c.decrypt_block(b)
        }
    }
    v
}

/// CTR: the IV is one big-endian counter of a block's width, +1 per block; any length.
pub fn ctr(c: &Skinny, iv: &[u8], data: &[u8]) -> Vec<u8> {
    let mut ctr = iv.to_vec();
    let mut out = Vec::with_capacity(data.len());
    for chunk in data.chunks(c.block_bytes()) {
        let mut ks = ctr.clone();
        c.encrypt_block(&mut ks);
        out.extend(chunk.iter().zip(&ks).map(|(a, b)| a ^ b));
        inc(&mut ctr);
    }
    out
}

/// CBC encryption of whole blocks (pad first with [`pkcs7`] where wanted).
pub fn cbc_encrypt(c: &Skinny, iv: &[u8], data: &[u8]) -> Vec<u8> {
    let mut prev = iv.to_vec();
    let mut out = Vec::new();
    for chunk in data.chunks_exact(c.block_bytes()) {
        let mut b: Vec<u8> = chunk.iter().zip(&prev).map(|(a, b)| a ^ b).collect();
        c.encrypt_block(&mut b);
        out.extend_from_slice(&b);
        prev = b;
    }
    out
}

/// CBC decryption of whole blocks (no unpadding).
pub fn cbc_decrypt(c: &Skinny, iv: &[u8], data: &[u8]) -> Vec<u8> {
    let mut prev = iv.to_vec();
    let mut out = Vec::new();
    for chunk in data.chunks_exact(c.block_bytes()) {
        let mut b = chunk.to_vec();
        c.decrypt_block(&mut b);
        out.extend(b.iter().zip(&prev).map(|(a, b)| a ^ b));
        prev = chunk.to_vec();
    }
    out
}

/// Full-block CFB, any length; `enc` chooses the direction.
pub fn cfb(c: &Skinny, enc: bool, iv: &[u8], data: &[u8]) -> Vec<u8> {
    let mut prev = iv.to_vec();
    let mut out = Vec::new();
    for chunk in data.chunks(c.block_bytes()) {
        let mut ks = prev.clone();
        c.encrypt_block(&mut ks);
        let o: Vec<u8> = chunk.iter().zip(&ks).map(|(a, b)| a ^ b).collect();
        prev = if enc { o.clone() } else { chunk.to_vec() };
        out.extend(o);
    }
    out
}

/// OFB, any length (the same both ways).
pub fn ofb(c: &Skinny, iv: &[u8], data: &[u8]) -> Vec<u8> {
    let mut ks = iv.to_vec();
    let mut out = Vec::new();
    for chunk in data.chunks(c.block_bytes()) {
        c.encrypt_block(&mut ks);
        out.extend(chunk.iter().zip(&ks).map(|(a, b)| a ^ b));
    }
    out
}
