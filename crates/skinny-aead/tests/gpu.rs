//! The GPU path (`gpu::GpuAead`, feature `cuda`) against the CPU types: every
//! member, messages and AD around block, warp and launch boundaries (up to
//! more than 1 GiB, across two launches), seal and open from host and device
//! memory, and a wrong tag refused with the message wiped. Without a usable
//! GPU each test is ignored (one line says why); with `SKINNY_REQUIRE_GPU=1`
//! each fails (`skinny_test_support::gpu`).

use skinny_aead::aead::{AeadCore, AeadInOut, KeyInit, Nonce, Tag};
use skinny_aead::gpu::{GpuAead, GpuAeadError, GpuDevice};
use skinny_aead::Member;
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_test_support::rng::SplitMix64 as Rng;

mod kat_files;

fn gpu() -> GpuDevice {
    skinny_test_support::gpu::open(GpuDevice::first)
}

/// The CPU type's ciphertext and tag.
fn cpu_seal<A: AeadInOut + KeyInit + AeadCore>(
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    msg: &[u8],
) -> (Vec<u8>, Vec<u8>) {
    let cipher = A::new_from_slice(key).expect("16-byte key");
    let nonce = Nonce::<A>::try_from(nonce).expect("nonce length");
    let mut buf = msg.to_vec();
    let tag: Tag<A> = cipher.encrypt_inout_detached(&nonce, ad, buf.as_mut_slice().into()).expect("length");
    (buf, tag.to_vec())
}

fn cpu_seal_member(m: Member, key: &[u8; 16], nonce: &[u8], ad: &[u8], msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
    match m {
        Member::M1 => cpu_seal::<SkinnyAeadM1>(key, nonce, ad, msg),
        Member::M2 => cpu_seal::<SkinnyAeadM2>(key, nonce, ad, msg),
        Member::M3 => cpu_seal::<SkinnyAeadM3>(key, nonce, ad, msg),
        Member::M4 => cpu_seal::<SkinnyAeadM4>(key, nonce, ad, msg),
        Member::M5 => cpu_seal::<SkinnyAeadM5>(key, nonce, ad, msg),
        Member::M6 => cpu_seal::<SkinnyAeadM6>(key, nonce, ad, msg),
    }
}

fn key_and_nonce(rng: &mut Rng, m: Member) -> ([u8; 16], Vec<u8>) {
    let mut key = [0u8; 16];
    key.copy_from_slice(&rng.bytes(16));
    (key, rng.bytes(m.nonce_len()))
}

fn every_member_matches_the_cpu_around_every_boundary() {
    let gpu = gpu();
    let mut rng = Rng(0x6a_ead);
    let lengths = [0usize, 1, 15, 16, 17, 31 * 16, 32 * 16 + 3, 1024 * 16, 1025 * 16 + 9, 3 * 1024 * 16 + 15, 1 << 20];
    for m in Member::ALL {
        let (key, nonce) = key_and_nonce(&mut rng, m);
        let mut aead = GpuAead::new(&gpu, m, &key).expect("kernels load");
        for (i, &len) in lengths.iter().enumerate() {
            // AD: none, short, whole blocks, and long enough for the GPU path.
            let ad = rng.bytes([0, 5, 48, (1 << 20) + 3][i % 4]);
            let msg = rng.bytes(len);
            let (want_ct, want_tag) = cpu_seal_member(m, &key, &nonce, &ad, &msg);
            let mut buf = msg.clone();
            let tag = aead.seal(&nonce, &ad, &mut buf).expect("seal");
            assert_eq!((&buf, &tag), (&want_ct, &want_tag), "{m} {len} bytes, AD {}", ad.len());
            aead.open(&nonce, &ad, &mut buf, &tag).expect("its own tag opens");
            assert_eq!(buf, msg, "{m} {len} bytes round trip");
        }
    }
}

/// The official known-answer tests through the GPU path: each case's whole
/// blocks (0 to 2) go through the kernel, the rest through the mode's CPU code,
/// and the result must be the file's ciphertext and tag; each opens back.
fn every_kat_case_of_every_member_on_the_gpu() {
    let gpu = gpu();
    for m in Member::ALL {
        let cases = kat_files::load(&format!("M{}", m.id()));
        let mut engines: Vec<([u8; 16], GpuAead)> = Vec::new();
        let mut passed = 0;
        for c in &cases {
            let key: [u8; 16] = c.key[..].try_into().expect("16-byte key");
            let at = match engines.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    engines.push((key, GpuAead::new(&gpu, m, &key).expect("kernels load")));
                    engines.len() - 1
                }
            };
            let aead = &mut engines[at].1;
            let mut sealed = c.pt.clone();
            let tag = aead.seal(&c.nonce, &c.ad, &mut sealed).expect("seal");
            sealed.extend_from_slice(&tag);
            assert_eq!(sealed, c.ct, "{m} Count = {}", c.count);
            let (body, tag) = c.ct.split_at(c.pt.len());
            let mut opened = body.to_vec();
            aead.open(&c.nonce, &c.ad, &mut opened, tag).expect("a KAT ciphertext opens");
            assert_eq!(opened, c.pt, "{m} Count = {} opened", c.count);
            passed += 1;
        }
        assert_eq!(passed, kat_files::CASES, "{m}");
    }
}

fn a_wrong_tag_is_refused_and_the_message_wiped() {
    let gpu = gpu();
    let mut rng = Rng(7);
    for m in [Member::M1, Member::M5] {
        let (key, nonce) = key_and_nonce(&mut rng, m);
        let mut aead = GpuAead::new(&gpu, m, &key).expect("kernels load");
        let msg = rng.bytes(5000);
        let mut buf = msg.clone();
        let mut tag = aead.seal(&nonce, b"ad", &mut buf).expect("seal");
        tag[0] ^= 1;
        let err = aead.open(&nonce, b"ad", &mut buf, &tag).expect_err("altered tag");
        assert!(matches!(err, GpuAeadError::Tag), "{err}");
        assert!(buf.iter().all(|&b| b == 0), "{m}: unverified plaintext released");
        // On the device too.
        let stream = gpu.cuda_context().default_stream();
        let mut dev = stream.clone_htod(&msg).expect("upload");
        let mut tag = aead.seal_device(&nonce, b"", &mut dev, msg.len()).expect("seal");
        tag[3] ^= 0x80;
        assert!(matches!(aead.open_device(&nonce, b"", &mut dev, msg.len(), &tag), Err(GpuAeadError::Tag)));
        let back = stream.clone_dtoh(&dev).expect("download");
        assert!(back.iter().all(|&b| b == 0), "{m}: device buffer not wiped");
        let bad_nonce = vec![0u8; m.nonce_len() + 1];
        assert!(matches!(aead.seal(&bad_nonce, b"", &mut buf), Err(GpuAeadError::NonceLength { .. })));
    }
}

fn more_than_a_gibibyte_on_the_device_matches_the_cpu() {
    let gpu = gpu();
    let mut rng = Rng(1 << 30);
    for m in [Member::M1, Member::M5] {
        let (key, nonce) = key_and_nonce(&mut rng, m);
        // 2^26 blocks (one launch) + 3 blocks + 5 bytes: the second launch
        // starts 2^26 counter steps on. M5's 24-bit counter allows 2^24 - 3
        // blocks: 256 MiB less a little.
        let len = match m {
            Member::M1 => (1 << 30) + 3 * 16 + 5,
            _ => (1 << 28) - 4 * 16 + 7,
        };
        let mut msg = vec![0u8; len];
        for chunk in msg.chunks_mut(1 << 20) {
            chunk.copy_from_slice(&rng.bytes(chunk.len()));
        }
        let (want_ct, want_tag) = cpu_seal_member(m, &key, &nonce, b"header", &msg);
        let mut aead = GpuAead::new(&gpu, m, &key).expect("kernels load");
        let stream = gpu.cuda_context().default_stream();
        let mut dev = stream.clone_htod(&msg).expect("upload");
        let tag = aead.seal_device(&nonce, b"header", &mut dev, len).expect("seal");
        let ct = stream.clone_dtoh(&dev).expect("download");
        assert!(ct == want_ct, "{m}: {len}-byte ciphertext differs from the CPU's");
        assert_eq!(tag, want_tag, "{m}: tag");
        aead.open_device(&nonce, b"header", &mut dev, len, &tag).expect("opens");
        assert!(stream.clone_dtoh(&dev).expect("download") == msg, "{m}: round trip");
    }
}

skinny_test_support::gpu_test_main! {
    probe: GpuDevice::first,
    gpu: [every_member_matches_the_cpu_around_every_boundary, every_kat_case_of_every_member_on_the_gpu, a_wrong_tag_is_refused_and_the_message_wiped, more_than_a_gibibyte_on_the_device_matches_the_cpu],
}
