//! Generated key files, key strings and argument vectors for `skinny`.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

/// xorshift64*: seeded, so a run can be repeated.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Lengths around the key sizes (16, 24, 32, 48 bytes) and a few others.
pub fn key_len(r: &mut Rng) -> usize {
    let base = *r.pick(&[0usize, 8, 16, 24, 32, 48, 64]);
    match r.below(4) {
        0 => base.saturating_sub(1),
        1 => base + 1,
        2 => r.below(100),
        _ => base,
    }
}

fn hex_text(r: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let upper = r.chance(20);
    let mut s = hex_of(bytes);
    if upper {
        s = s.to_uppercase();
    }
    s.into_bytes()
}

pub fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `text` with whitespace (spaces, tabs, LF, CRLF, VT, FF) put around and inside it.
fn spaced(r: &mut Rng, text: &[u8]) -> Vec<u8> {
    const WS: [&[u8]; 7] = [b" ", b"\t", b"\n", b"\r\n", b"\x0b", b"\x0c", b"  "];
    let mut out = Vec::new();
    if r.chance(30) {
        out.extend_from_slice(r.pick::<&[u8]>(&WS));
    }
    for (i, &c) in text.iter().enumerate() {
        if i > 0 && r.chance(10) {
            out.extend_from_slice(r.pick::<&[u8]>(&WS));
        }
        out.push(c);
    }
    if r.chance(60) {
        out.extend_from_slice(if r.chance(50) { b"\n" } else { b"\r\n" });
    }
    out
}

/// A key file's content: raw bytes, hex (spaced, with BOMs, CRLF, a bad
/// character, an odd count), UTF-16, empty, or huge.
pub fn key_file(r: &mut Rng, key: &[u8]) -> Vec<u8> {
    let len = key_len(r);
    match r.below(12) {
        0 => r.bytes(len),
        1 => key.to_vec(),
        2 => hex_text(r, key),
        3 => {
            let h = hex_text(r, key);
            spaced(r, &h)
        }
        4 => {
            let b = r.bytes(len);
            let h = hex_text(r, &b);
            spaced(r, &h)
        }
        5 => {
            let mut v = b"\xef\xbb\xbf".to_vec();
            v.extend(hex_text(r, key));
            v
        }
        6 => {
            let mut h = hex_text(r, key);
            let at = r.below(h.len() + 1);
            let bad: &[u8] = r.pick::<&[u8]>(&[&b"g"[..], b"\0", "\u{e9}".as_bytes(), b"x", b"-", b"0x"]);
            h.splice(at..at, bad.iter().copied());
            h
        }
        7 => {
            let mut h = hex_text(r, key);
            h.pop();
            h
        }
        8 => {
            let h = hex_text(r, key);
            let mut v = vec![0xff, 0xfe];
            for c in h {
                v.extend([c, 0]);
            }
            v
        }
        9 => r.pick(&[&b""[..], b"\n", b"   \r\n", b"\t"]).to_vec(),
        10 => {
            let n = *r.pick(&[4095usize, 4096, 4097, 5000, 1 << 20]);
            if r.chance(50) {
                r.bytes(n)
            } else {
                b"0a".iter().copied().cycle().take(n).collect()
            }
        }
        _ => b"0123456789abcdef".to_vec(),
    }
}

/// A `-K` value: usually hex of some length, sometimes not hex or not UTF-8.
pub fn key_arg(r: &mut Rng, key: &[u8]) -> OsString {
    let text = match r.below(6) {
        0 => hex_of(key).into_bytes(),
        1 => {
            let n = key_len(r);
            let b = r.bytes(n);
            hex_of(&b).into_bytes()
        }
        2 => spaced(r, hex_of(key).as_bytes()),
        3 => {
            let mut h = hex_of(key).into_bytes();
            h.pop();
            h
        }
        4 => {
            let n = r.below(40);
            r.bytes(n)
        }
        _ => b"".to_vec(),
    };
    OsString::from_vec(text)
}

/// A value for an option, from the likely ones or not.
pub fn value(r: &mut Rng, likely: &[&str]) -> OsString {
    const ODD: [&str; 14] = [
        "",
        "0",
        "-1",
        "1",
        "18446744073709551616",
        "99999999999",
        "x",
        "1/0",
        "0/0",
        "all",
        "1G",
        "\u{e9}",
        "--",
        "-",
    ];
    if !likely.is_empty() && r.chance(90) {
        OsString::from(*r.pick(likely))
    } else if r.chance(90) {
        OsString::from(*r.pick(&ODD))
    } else {
        let n = r.below(12);
        OsString::from_vec(r.bytes(n))
    }
}
