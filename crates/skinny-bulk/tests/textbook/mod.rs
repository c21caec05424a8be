//! The modes written out from their textbook definitions over single-block
//! encryption: an independent reference for the streaming processor and backends.
#![allow(dead_code)]

use skinny::Skinny;

pub fn inc(ctr: &mut [u8]) {
    for b in ctr.iter_mut().rev() {
        *b = b.wrapping_add(1);
        if *b != 0 {
            break;
        }
    }
}

pub fn pkcs7(data: &[u8], bs: usize) -> Vec<u8> {
    let n = bs - data.len() % bs;
    let mut v = data.to_vec();
    v.extend(std::iter::repeat_n(n as u8, n));
    v
}

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

pub fn ofb(c: &Skinny, iv: &[u8], data: &[u8]) -> Vec<u8> {
    let mut ks = iv.to_vec();
    let mut out = Vec::new();
    for chunk in data.chunks(c.block_bytes()) {
        c.encrypt_block(&mut ks);
        out.extend(chunk.iter().zip(&ks).map(|(a, b)| a ^ b));
    }
    out
}
