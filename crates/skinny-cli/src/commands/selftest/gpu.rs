//! The GPU's SKINNY-AEAD and sealed files against the CPU's.

use super::error::SelftestError;
use rand::{Rng, RngCore};
use std::io::Write;

/// SKINNY-AEAD on the GPU (`skinny_aead::gpu`) against the CPU types: M1 and
/// M5 (one of each kernel family), random keys, nonces, AD and messages of
/// lengths around blocks, warps and beyond 1 MiB, sealed and opened. Returns
/// the mismatches; no GPU is a visible skip.
pub(super) fn check_gpu_aead(out: &mut impl Write, rng: &mut impl RngCore) -> Result<usize, SelftestError> {
    use skinny_aead::aead::{AeadCore, AeadInOut, KeyInit, Nonce, Tag};
    use skinny_aead::gpu::{GpuAead, GpuDevice};
    use skinny_aead::{Member, SkinnyAeadM1, SkinnyAeadM5};

    fn cpu<A: AeadInOut + KeyInit + AeadCore>(key: &[u8; 16], nonce: &[u8], ad: &[u8], msg: &mut [u8]) -> Vec<u8> {
        let cipher = A::new_from_slice(key).unwrap_or_else(|_| unreachable!("16-byte key"));
        let nonce = Nonce::<A>::try_from(nonce).unwrap_or_else(|_| unreachable!("the member's nonce length"));
        let tag: Tag<A> = cipher
            .encrypt_inout_detached(&nonce, ad, msg.into())
            .unwrap_or_else(|_| unreachable!("lengths far below the limits"));
        tag.to_vec()
    }

    let gpu = match GpuDevice::first() {
        Ok(g) => g,
        Err(e) => {
            writeln!(out, "skip: gpu aead: {e}").map_err(SelftestError::Output)?;
            return Ok(0);
        }
    };
    let (mut checks, mut mismatches) = (0usize, Vec::new());
    for member in [Member::M1, Member::M5] {
        let mut key = [0u8; 16];
        rng.fill_bytes(&mut key);
        let mut aead = GpuAead::new(&gpu, member, &key).map_err(SelftestError::GpuAead)?;
        for len in [0, 1, 16, 17, 32 * 16 + 5, 1024 * 16 + 9, (1 << 20) + 3, rng.random_range(0..65536)] {
            let mut nonce = vec![0u8; member.nonce_len()];
            rng.fill_bytes(&mut nonce);
            let mut ad = vec![0u8; rng.random_range(0..40)];
            rng.fill_bytes(&mut ad);
            let mut msg = vec![0u8; len];
            rng.fill_bytes(&mut msg);
            let mut want = msg.clone();
            let want_tag = match member {
                Member::M1 => cpu::<SkinnyAeadM1>(&key, &nonce, &ad, &mut want),
                _ => cpu::<SkinnyAeadM5>(&key, &nonce, &ad, &mut want),
            };
            let mut got = msg.clone();
            let tag = aead.seal(&nonce, &ad, &mut got).map_err(SelftestError::GpuAead)?;
            let mut back = got.clone();
            let opened = aead.open(&nonce, &ad, &mut back, &tag).is_ok() && back == msg;
            checks += 1;
            if got != want || tag != want_tag || !opened {
                mismatches.push(format!("{member}, {len} bytes, AD {} bytes", ad.len()));
            }
        }
    }
    writeln!(out, "gpu aead: {checks} checks, {} mismatches ({})", mismatches.len(), gpu.describe())
        .map_err(SelftestError::Output)?;
    for m in &mismatches {
        writeln!(out, "mismatch: gpu aead: {m}").map_err(SelftestError::Output)?;
    }
    Ok(mismatches.len())
}

/// The sealed format on the GPU engine (`skinny seal/open --backend gpu`)
/// against the CPU engine: M1 and M5, chunks of 16 and 64 KiB, random keys,
/// prefixes and lengths around the chunk boundaries, as version-1 files
/// (whose prefix is given, so both engines write the same bytes); the files
/// must be the same byte for byte and open on the GPU. Returns the
/// mismatches; no GPU is a visible skip.
pub(super) fn check_gpu_sealed(out: &mut impl Write, rng: &mut impl RngCore) -> Result<usize, SelftestError> {
    use skinny_aead::gpu::GpuDevice;
    use skinny_aead::Member;
    use skinny_seal::{hazmat, Job, OpenOptions, Scheme, SealOptions, SymmetricKey};

    let gpu = match GpuDevice::first() {
        Ok(g) => g,
        Err(e) => {
            writeln!(out, "skip: gpu sealed: {e}").map_err(SelftestError::Output)?;
            return Ok(0);
        }
    };
    let engine = Job::on_device(gpu.clone());
    let fail = SelftestError::GpuSealed;
    let (mut checks, mut mismatches) = (0usize, Vec::new());
    for member in [Member::M1, Member::M5] {
        let scheme = Scheme::from_id(member.id()).unwrap_or_else(|| unreachable!("a SKINNY-AEAD scheme"));
        for chunk_log2 in [14u8, 16] {
            let mut key = [0u8; 16];
            rng.fill_bytes(&mut key);
            let identity = SymmetricKey::from_bytes(&key).unwrap_or_else(|_| unreachable!("16 bytes"));
            let mut prefix = vec![0u8; member.prefix_len()];
            rng.fill_bytes(&mut prefix);
            let cs = 1usize << chunk_log2;
            for len in [0, 1, cs - 1, cs, 3 * cs + 17, rng.random_range(0..8 * cs)] {
                let mut msg = vec![0u8; len];
                rng.fill_bytes(&mut msg);
                let opts = SealOptions { scheme, chunk_log2, ..SealOptions::default() };
                let (mut want, mut got, mut back) = (Vec::new(), Vec::new(), Vec::new());
                hazmat::seal_v1_with_prefix(&msg[..], &mut want, &key, &opts, &prefix).map_err(fail)?;
                hazmat::seal_v1_with_prefix_on(&engine, &msg[..], &mut got, &key, &opts, &prefix).map_err(fail)?;
                let opened = skinny_seal::open_on(&engine, &want[..], &mut back, &[&identity], &OpenOptions::default())
                    .is_ok()
                    && back == msg;
                checks += 1;
                if got != want || !opened {
                    mismatches.push(format!("{member}, 2^{chunk_log2}-byte chunks, {len} bytes"));
                }
            }
        }
    }
    writeln!(out, "gpu sealed: {checks} checks, {} mismatches ({})", mismatches.len(), gpu.describe())
        .map_err(SelftestError::Output)?;
    for m in &mismatches {
        writeln!(out, "mismatch: gpu sealed: {m}").map_err(SelftestError::Output)?;
    }
    Ok(mismatches.len())
}
