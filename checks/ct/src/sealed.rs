//! The sealed-file format v2 (`skinny-seal`) on secret keys: the key file's
//! text codec, the derivations (HKDF-SHA-256), the file key's wrap and unwrap
//! (SKINNY-AEAD-M1), whole files sealed and opened with a key file (header
//! MAC computed and compared, payload), and the X25519 stanza's unwrap.
//!
//! The file key is given (`skinny_seal::hazmat`), never drawn: randomness is
//! no secret input and stays out of the check. What the format releases (the
//! sealed file, a refusal) is declassified; the header MAC's verdict and the
//! other public verdicts are declassified inside `skinny-seal` itself.
//! Argon2id (the passphrase stanza) is not checked: its memory accesses depend
//! on the passphrase by design after its first pass; the key it derives is
//! checked from there on, as the wrap key of [`keys`].

use crate::secret::{bytes, public, same, secret};
use skinny::hazmat::ct;
use skinny_seal::keygen::{self, SecretKey};
use skinny_seal::recipients::{X25519Identity, X25519Recipient};
use skinny_seal::stanza::{unwrap_file_key, wrap_file_key};
use skinny_seal::{hazmat, FileKey, OpenError, OpenOptions, OpenReader, Scheme, SealOptions, SymmetricKey};
use std::io::{Cursor, Read};

/// The test vectors of `docs/sealed-format.md` (version 2): user key
/// `00..1f`, file key `80..9f`, payload salt `40..4f`, stanza salt `60..6f`,
/// chunks of 2^10 bytes, plaintext "attack at dawn".
mod vector {
    pub const PLAINTEXT: &[u8] = b"attack at dawn";
    pub const K_HEADER: &str = "34f9409e98d30ed10d33c9635ad2a8622a163ac297793db2c51917e29287b8ad";
    pub const K_PAYLOAD_M1: &str = "3b477cb2a1decf239209c9f477aab9df";
    pub const K_PAYLOAD_ROMULUS_N_CONTEXT: &str = "f29bfd2a705fb7fa9382c133fd43f57b";
    pub const CONTEXT: &[u8] = b"backup 2026-12-01";
    pub const FILE_M1: &str = "534b494e4e595345414c02010a00404142434445464748494a4b4c4d4e4f01010040606162636465666768696a6b6c6d6e6f5f72c0ee6d5f39c85f630cc6f42ba5dbf5fcfeac90579149fd3fe92ff05e6390fb8afe22f7997e0d38ecf84bd35b99fb68d3b862bcf7ec9537f8779a1d3f6dc2ea6bf11d0f4e5d9baee55a431361afc9a7cfa78551a574528d863937daabc58b0b8b4a9108d35748cf5668328c96";
    pub const FILE_ROMULUS_N: &str = "534b494e4e595345414c02070a01404142434445464748494a4b4c4d4e4f01010040606162636465666768696a6b6c6d6e6f5f72c0ee6d5f39c85f630cc6f42ba5dbf5fcfeac90579149fd3fe92ff05e639066b230482617f5eef74ddf38f8cea919320627e89ed410f386b837b73ea0bb6bc80c5a0d54c502c9e88b54dff3a57c5304b2454547746a565459510d89ea2d4625f8811508ca1ffc8b7c13c10426";

    /// `first`, `first + 1`, ... (`n` bytes).
    pub fn counting(first: u8, n: usize) -> Vec<u8> {
        (0..n).map(|i| first + i as u8).collect()
    }
}

/// Bytes of a lower-case hex string (public constants).
fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex constant")).collect()
}

/// Lower-case hex of public bytes (the check's own, not the codec's).
fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn array32(v: &[u8]) -> [u8; 32] {
    v.try_into().expect("32 bytes")
}

/// The file key of the vectors, marked secret.
fn vector_file_key() -> FileKey {
    let fk = vector::counting(0x80, 32);
    ct::mark_secret(&fk);
    FileKey::from_bytes(array32(&fk))
}

/// A key file's text for `key` in a layout with comments, blank lines, tabs,
/// `\r\n` and upper-case digits, its 64 digits marked secret.
fn key_file_text(key_type: &str, key: &[u8]) -> Vec<u8> {
    let head = format!("# a key file\r\n\n\t {key_type} \t");
    let mut text = head.clone().into_bytes();
    text.extend(hex(key).to_uppercase().bytes());
    text.extend_from_slice(b"  \r\n# end\n");
    ct::mark_secret(&text[head.len()..head.len() + 64]);
    text
}

/// The key files' text codec (`SKINNY-SEAL-KEY-1`, `SKINNY-SEAL-X25519-SECRET-1`:
/// written and read back, in keygen's layout and another, and a refused one),
/// the derivations (`K_header`, `K_payload` with and without a context,
/// against the documented vectors), and the file key's wrap and unwrap under a
/// secret wrap key (what the key, passphrase and X25519 stanzas do once they
/// have their wrap key), refused under a changed header start.
pub fn keys() {
    let key = secret(6000, 32);
    let text = keygen::encode_symmetric_key(&array32(&key));
    let Ok(SecretKey::Symmetric(back)) = keygen::parse_secret_key(text.as_bytes()) else { panic!("key text") };
    same(back.as_slice(), &bytes(6000, 32), "symmetric key text round trip");
    let plain_key = bytes(6001, 32);
    let parsed = keygen::parse_secret_key(&key_file_text(keygen::SYMMETRIC_KEY_TYPE, &plain_key));
    let Ok(SecretKey::Symmetric(back)) = parsed else { panic!("key file layout") };
    same(back.as_slice(), &plain_key, "key file with comments and upper case");

    let id = X25519Identity::from_bytes(array32(&secret(6002, 32)));
    let text = keygen::encode_x25519_identity(&id);
    let Ok(SecretKey::X25519(back)) = keygen::parse_secret_key(text.as_bytes()) else { panic!("identity text") };
    same(back.secret_bytes().as_slice(), &bytes(6002, 32), "X25519 identity text round trip");
    let plain_id = bytes(6003, 32);
    let parsed = keygen::parse_secret_key(&key_file_text(keygen::X25519_SECRET_TYPE, &plain_id));
    let Ok(SecretKey::X25519(back)) = parsed else { panic!("identity file layout") };
    same(back.secret_bytes().as_slice(), &plain_id, "identity file with comments and upper case");

    // A byte that is not a hex digit is public by the codec's rules (only the
    // digits' values are secret): the other 63 digits stay secret.
    let mut bad = key_file_text(keygen::SYMMETRIC_KEY_TYPE, &plain_key);
    let at = bad.len() - 20;
    bad[at] = b'g';
    let refused = keygen::parse_secret_key(&bad);
    assert!(matches!(refused, Err(keygen::KeyTextError::NotHex(_))), "a non-hex digit is refused");

    let fk = vector_file_key();
    let salt: [u8; 16] = vector::counting(0x40, 16).try_into().expect("16 bytes");
    let k = hazmat::header_key(&fk, &salt);
    same(k.as_slice(), &unhex(vector::K_HEADER), "K_header");
    let k = hazmat::payload_key(&fk, &salt, Scheme::M1, 0, b"");
    same(k.as_slice(), &unhex(vector::K_PAYLOAD_M1), "K_payload");
    let k = hazmat::payload_key(&fk, &salt, Scheme::RomulusN, 1, vector::CONTEXT);
    same(k.as_slice(), &unhex(vector::K_PAYLOAD_ROMULUS_N_CONTEXT), "K_payload with a context");

    let wrap_key: [u8; 16] = secret(6004, 16).try_into().expect("16 bytes");
    let start = bytes(6005, 30);
    let wrapped = wrap_file_key(&wrap_key, &fk, &start);
    public(&wrapped);
    let back = unwrap_file_key(&wrap_key, &wrapped, &start).expect("the wrap it made");
    same(back.expose(), &vector::counting(0x80, 32), "file key unwrapped");
    let mut moved = start.clone();
    moved[14] ^= 1;
    assert!(unwrap_file_key(&wrap_key, &wrapped, &moved).is_none(), "a wrap bound to another header start");
}

/// Seals the documented vectors with the symmetric key read from a key file
/// (secret digits), the file key and the plaintext secret: the same bytes as
/// documented (M1; Romulus-N with a context); opens them again (`open`, and
/// the `OpenReader` and `SeekableOpener` adapters on a three-chunk file),
/// and refuses a changed header MAC, a changed chunk and another key.
pub fn files() {
    let key = symmetric_key_from_file(&vector::counting(0, 32));
    for (scheme, context, want) in
        [(Scheme::M1, None, vector::FILE_M1), (Scheme::RomulusN, Some(vector::CONTEXT), vector::FILE_ROMULUS_N)]
    {
        let seal = SealOptions { scheme, chunk_log2: 10, context: context.map(<[u8]>::to_vec), input_len: None };
        let open = OpenOptions { context: seal.context.clone(), allow_short_tag_scheme: None, expect_scheme: None };
        let file = seal_vector(&key, &seal, vector::PLAINTEXT);
        assert_eq!(hex(&file), want, "{scheme:?}: the documented file");
        let mut plain = Vec::new();
        skinny_seal::open(&file[..], &mut plain, &[&key], &open).expect("the file it sealed");
        same(&plain, vector::PLAINTEXT, "opened");

        let mac_at = file.len() - vector::PLAINTEXT.len() - 16 - 1;
        let mut changed = file.clone();
        changed[mac_at] ^= 1;
        let refused = skinny_seal::open(&changed[..], Vec::new(), &[&key], &open);
        assert!(matches!(refused, Err(OpenError::HeaderMac)), "{scheme:?}: changed MAC: {refused:?}");
        let mut changed = file.clone();
        changed[file.len() - 20] ^= 1;
        let refused = skinny_seal::open(&changed[..], Vec::new(), &[&key], &open);
        assert!(matches!(refused, Err(OpenError::Authentication { chunk: 0 })), "{scheme:?}: changed chunk");
        let other = symmetric_key_from_file(&bytes(7000, 32));
        let refused = skinny_seal::open(&file[..], Vec::new(), &[&other], &open);
        assert!(matches!(refused, Err(OpenError::NoMatchingIdentity)), "{scheme:?}: another key");
    }

    let seal = SealOptions { scheme: Scheme::M1, chunk_log2: 10, context: None, input_len: None };
    let plain = bytes(7001, 2500);
    let file = seal_vector(&key, &seal, &plain);
    let mut opened = Vec::new();
    OpenReader::new(&file[..], &[&key], &OpenOptions::default())
        .expect("header")
        .read_to_end(&mut opened)
        .expect("chunks");
    same(&opened, &plain, "OpenReader");
    let mut range = Vec::new();
    let n = skinny_seal::open_range(Cursor::new(&file), &mut range, 1000, 300, &[&key], &OpenOptions::default())
        .expect("a range");
    assert_eq!(n, 300);
    same(&range, &plain[1000..1300], "open_range across a chunk boundary");
}

/// The symmetric key of a key file whose digits are secret (as `skinny open
/// -k FILE` reads it).
fn symmetric_key_from_file(key: &[u8]) -> SymmetricKey {
    let text = key_file_text(keygen::SYMMETRIC_KEY_TYPE, key);
    let Ok(SecretKey::Symmetric(k)) = keygen::parse_secret_key(&text) else { panic!("key file") };
    SymmetricKey::from_bytes(k.as_slice()).expect("32 bytes")
}

/// `plaintext` (marked secret) sealed with the vectors' file key and salts.
fn seal_vector(key: &SymmetricKey, options: &SealOptions, plaintext: &[u8]) -> Vec<u8> {
    let fk = vector_file_key();
    let salt: [u8; 16] = vector::counting(0x40, 16).try_into().expect("16 bytes");
    let stanza_salt: [u8; 16] = vector::counting(0x60, 16).try_into().expect("16 bytes");
    let start = hazmat::header_start(options, &salt);
    let stanza = hazmat::key_stanza_with_salt(key, &fk, &start, &stanza_salt);
    let plain = crate::secret::secret_copy(plaintext);
    let mut file = Vec::new();
    hazmat::seal_with_salt_and_file_key(&plain[..], &mut file, vec![stanza], &fk, salt, options).expect("sealed");
    public(&file);
    file
}

/// X25519: a file sealed to the recipient of a secret identity (the sealer's
/// ephemeral key is random: its side is not checked) is opened with the
/// identity (X25519 of the secret scalar, the all-zero test, HKDF, the
/// unwrap, then the file as with a key); another identity finds no stanza; a
/// low-order ephemeral key (all-zero shared secret) is refused.
pub fn x25519() {
    let id = X25519Identity::from_bytes(array32(&secret(8000, 32)));
    let public_key = id.recipient().to_bytes();
    public(&public_key);
    let recipient = X25519Recipient::from_bytes(public_key);
    let plain = bytes(8001, 1500);
    let options = SealOptions { scheme: Scheme::M1, chunk_log2: 10, context: None, input_len: None };
    let mut file = Vec::new();
    skinny_seal::seal(&crate::secret::secret_copy(&plain)[..], &mut file, &[&recipient], &options).expect("sealed");
    public(&file);
    let mut opened = Vec::new();
    skinny_seal::open(&file[..], &mut opened, &[&id], &OpenOptions::default()).expect("the file it sealed");
    same(&opened, &plain, "opened with the identity");

    let other = X25519Identity::from_bytes(array32(&secret(8002, 32)));
    let refused = skinny_seal::open(&file[..], Vec::new(), &[&other], &OpenOptions::default());
    assert!(matches!(refused, Err(OpenError::NoMatchingIdentity)), "another identity: {refused:?}");
    // The stanza's ephemeral key follows the header start (30), the count (1),
    // the stanza's kind and length (3): zero is a low-order point.
    let mut low = file.clone();
    low[34..66].fill(0);
    let refused = skinny_seal::open(&low[..], Vec::new(), &[&id], &OpenOptions::default());
    assert!(matches!(refused, Err(OpenError::Stanza(_))), "low-order ephemeral key: {refused:?}");
}
