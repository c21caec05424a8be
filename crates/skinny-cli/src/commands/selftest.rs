//! `skinny selftest`: the specification's vectors, then random cross-checks of
//! every backend usable here against the portable one (`cpu-serial`).
//!
//! The cross-checks go through the streaming [`Processor`], fed in random pieces,
//! so they also cover the chaining across calls that `encrypt`/`decrypt` rely on.

use crate::error::CliError;
use clap::builder::RangedU64ValueParser;
use clap::Args;
use rand::{Rng, RngCore};
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, Backend, BackendChoice, GpuSelection, Options};
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use std::io::{self, Write};

/// The most random cross-checks `selftest --rounds` accepts: enough for a soak
/// test, few enough that a typo does not run for days.
pub const MAX_ROUNDS: u64 = 1000;

/// The largest `selftest --max-bytes`: each check holds a few buffers of this
/// size at once, so this keeps a run within a few GiB of memory.
pub const MAX_SELFTEST_BYTES: u64 = 256 << 20;

/// Options of `selftest`.
#[derive(Debug, Args)]
pub struct SelftestArgs {
    /// Random cross-checks per variant, mode and backend, 0 to 1000.
    #[arg(long, default_value_t = 8, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_ROUNDS))]
    pub rounds: usize,

    /// Largest random input in bytes, 0 to 268435456 (256 MiB); the default keeps
    /// the run to seconds on a small machine.
    #[arg(long, default_value_t = 1 << 18, value_name = "BYTES",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_SELFTEST_BYTES))]
    pub max_bytes: usize,
}

/// The specification's vectors: a copy of the cipher crate's
/// `tests/data/skinny-paper.txt` inside this crate, so that the published
/// package builds on its own (that crate's tests check the copies agree).
const SPEC_VECTORS: &str = include_str!("../../data/skinny-paper.txt");

/// The work each backend's engine does: (mode, direction, PKCS#7 padding).
/// Block modes without padding get whole blocks; ECB encryption with padding
/// takes any length.
const CHECKED: [(Mode, Direction, bool); 7] = [
    (Mode::Ecb, Direction::Encrypt, true),
    (Mode::Ecb, Direction::Encrypt, false),
    (Mode::Ecb, Direction::Decrypt, false),
    (Mode::Ctr, Direction::Encrypt, false),
    (Mode::Ctr, Direction::Decrypt, false),
    (Mode::Cbc, Direction::Decrypt, false),
    (Mode::Cfb, Direction::Decrypt, false),
];

/// Runs the self-test.
///
/// # Errors
/// A vector or a cross-check failed, or writing stdout failed.
pub fn run(a: &SelftestArgs) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    run_to(a, &mut out)?;
    out.flush().map_err(CliError::Output)
}

/// The self-test, its report written to `out`: a failed write ends it at once
/// (nobody would see the rest).
fn run_to(a: &SelftestArgs, out: &mut impl Write) -> Result<(), CliError> {
    let mut failures = check_spec_vectors(out)?;
    let reference = backend::open(BackendChoice::CpuSerial, &Options::default())?;
    let mut rng = rand::rng();
    // Each GPU on its own, then (with several) all of them striped together.
    let gpus = backend::gpu_count().unwrap_or(0);
    let mut subjects: Vec<(BackendChoice, String, GpuSelection)> =
        vec![(BackendChoice::Cpu, BackendChoice::Cpu.to_string(), GpuSelection::All)];
    for choice in [BackendChoice::GpuPaper, BackendChoice::Gpu] {
        if gpus <= 1 {
            subjects.push((choice, choice.to_string(), GpuSelection::All));
            continue;
        }
        for i in 0..gpus {
            subjects.push((choice, format!("{choice} (GPU {i})"), GpuSelection::List(vec![i])));
        }
        subjects.push((choice, format!("{choice} (GPUs 0-{} striped)", gpus - 1), GpuSelection::All));
    }
    for (choice, choice_label, selection) in subjects {
        let choice_label = choice_label.as_str();
        let tested = match backend::open(choice, &Options::default().gpus(selection)) {
            Ok(b) => b,
            Err(e) => {
                writeln!(out, "skip: {choice_label}: {e}").map_err(CliError::Output)?;
                continue;
            }
        };
        let tally = cross_check(tested.as_ref(), reference.as_ref(), a, &mut rng)?;
        writeln!(
            out,
            "{choice_label}: {} checks, {} variants, {} bytes, {} mismatches ({})",
            tally.checks,
            tally.variants,
            tally.bytes,
            tally.mismatches.len(),
            tested.describe()
        )
        .map_err(CliError::Output)?;
        for m in &tally.mismatches {
            writeln!(out, "mismatch: {choice_label}: {m}").map_err(CliError::Output)?;
        }
        failures += tally.mismatches.len();
    }
    #[cfg(feature = "cuda")]
    {
        failures += check_gpu_aead(out, &mut rng)?;
        failures += check_gpu_sealed(out, &mut rng)?;
    }
    if failures > 0 {
        return Err(CliError::Check(format!("selftest failed: {failures} mismatch(es), listed above")));
    }
    writeln!(out, "selftest passed").map_err(CliError::Output)
}

/// SKINNY-AEAD on the GPU (`skinny_aead::gpu`) against the CPU types: M1 and
/// M5 (one of each kernel family), random keys, nonces, AD and messages of
/// lengths around blocks, warps and beyond 1 MiB, sealed and opened. Returns
/// the mismatches; no GPU is a visible skip.
#[cfg(feature = "cuda")]
fn check_gpu_aead(out: &mut impl Write, rng: &mut impl RngCore) -> Result<usize, CliError> {
    use skinny_aead::aead::{AeadCore, AeadInOut, KeyInit, Nonce, Tag};
    use skinny_aead::gpu::{GpuAead, GpuDevice};
    use skinny_aead::sealed::Member;
    use skinny_aead::{SkinnyAeadM1, SkinnyAeadM5};

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
            writeln!(out, "skip: gpu aead: {e}").map_err(CliError::Output)?;
            return Ok(0);
        }
    };
    let (mut checks, mut mismatches) = (0usize, Vec::new());
    for member in [Member::M1, Member::M5] {
        let mut key = [0u8; 16];
        rng.fill_bytes(&mut key);
        let mut aead = GpuAead::new(&gpu, member, &key).map_err(|e| CliError::Gpu(format!("gpu aead: {e}")))?;
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
            let tag = aead.seal(&nonce, &ad, &mut got).map_err(|e| CliError::Gpu(format!("gpu aead: {e}")))?;
            let mut back = got.clone();
            let opened = aead.open(&nonce, &ad, &mut back, &tag).is_ok() && back == msg;
            checks += 1;
            if got != want || tag != want_tag || !opened {
                mismatches.push(format!("{member}, {len} bytes, AD {} bytes", ad.len()));
            }
        }
    }
    writeln!(out, "gpu aead: {checks} checks, {} mismatches ({})", mismatches.len(), gpu.describe())
        .map_err(CliError::Output)?;
    for m in &mismatches {
        writeln!(out, "mismatch: gpu aead: {m}").map_err(CliError::Output)?;
    }
    Ok(mismatches.len())
}

/// The sealed format on the GPU engine (`skinny seal/open --backend gpu`)
/// against the CPU engine: M1 and M5, chunks of 16 and 64 KiB, random keys,
/// prefixes and lengths around the chunk boundaries; the files must be the
/// same byte for byte (same prefix) and open on the GPU. Returns the
/// mismatches; no GPU is a visible skip.
#[cfg(feature = "cuda")]
fn check_gpu_sealed(out: &mut impl Write, rng: &mut impl RngCore) -> Result<usize, CliError> {
    use skinny_aead::gpu::GpuDevice;
    use skinny_aead::sealed::{self, Job, Member, SealOptions};

    let gpu = match GpuDevice::first() {
        Ok(g) => g,
        Err(e) => {
            writeln!(out, "skip: gpu sealed: {e}").map_err(CliError::Output)?;
            return Ok(0);
        }
    };
    let engine = Job::on_device(gpu.clone());
    let fail = |e: sealed::SealedError| CliError::Gpu(format!("gpu sealed: {e}"));
    let (mut checks, mut mismatches) = (0usize, Vec::new());
    for member in [Member::M1, Member::M5] {
        for chunk_log2 in [14u8, 16] {
            let mut key = [0u8; 16];
            rng.fill_bytes(&mut key);
            let mut prefix = vec![0u8; member.prefix_len()];
            rng.fill_bytes(&mut prefix);
            let cs = 1usize << chunk_log2;
            for len in [0, 1, cs - 1, cs, 3 * cs + 17, rng.random_range(0..8 * cs)] {
                let mut msg = vec![0u8; len];
                rng.fill_bytes(&mut msg);
                let opts = SealOptions { member, chunk_log2 };
                let (mut want, mut got, mut back) = (Vec::new(), Vec::new(), Vec::new());
                sealed::seal_with_prefix(&msg[..], &mut want, &key, &opts, &prefix).map_err(fail)?;
                sealed::seal_with_prefix_on(&engine, &msg[..], &mut got, &key, &opts, &prefix).map_err(fail)?;
                let opened = sealed::open_on(&engine, &want[..], &mut back, &key).is_ok() && back == msg;
                checks += 1;
                if got != want || !opened {
                    mismatches.push(format!("{member}, 2^{chunk_log2}-byte chunks, {len} bytes"));
                }
            }
        }
    }
    writeln!(out, "gpu sealed: {checks} checks, {} mismatches ({})", mismatches.len(), gpu.describe())
        .map_err(CliError::Output)?;
    for m in &mismatches {
        writeln!(out, "mismatch: gpu sealed: {m}").map_err(CliError::Output)?;
    }
    Ok(mismatches.len())
}

/// The six vectors, both directions, each through `Skinny` and through the CLI's
/// own path (ECB without padding on the portable backend). Returns the failures.
fn check_spec_vectors(out: &mut impl Write) -> Result<usize, CliError> {
    let serial = backend::open(BackendChoice::CpuSerial, &Options::default())?;
    let mut checked = 0;
    let mut failed = Vec::new();
    for line in SPEC_VECTORS.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let bad = || CliError::Check(format!("malformed vector line: {line}"));
        let [name, key, pt, ct] = fields.as_slice() else { return Err(bad()) };
        let variant: Variant = name.parse().map_err(|_| bad())?;
        let key = zeroize::Zeroizing::new(hex::decode(key).map_err(|_| bad())?);
        let (pt, ct) = (hex::decode(pt).map_err(|_| bad())?, hex::decode(ct).map_err(|_| bad())?);
        let cipher = Skinny::new(variant, &key).map_err(|_| bad())?;
        let mut block = pt.clone();
        cipher.encrypt_block(&mut block);
        let enc_ok = block == ct;
        cipher.decrypt_block(&mut block);
        let dec_ok = block == pt;
        let ecb_ok =
            run_processor(&cipher, Mode::Ecb, Direction::Encrypt, None, false, serial.as_ref(), &pt, &[pt.len()])
                .is_ok_and(|out| out == ct);
        checked += 1;
        if !(enc_ok && dec_ok && ecb_ok) {
            failed.push(variant);
            writeln!(out, "mismatch: spec vector {variant}: encrypt {enc_ok}, decrypt {dec_ok}, ecb {ecb_ok}")
                .map_err(CliError::Output)?;
        }
    }
    if checked != 6 {
        return Err(CliError::Check(format!("expected 6 specification vectors, found {checked}")));
    }
    writeln!(out, "spec vectors: {}/{checked} ok (encrypt, decrypt, ecb)", checked - failed.len())
        .map_err(CliError::Output)?;
    Ok(failed.len())
}

/// What one backend's cross-check did.
struct Tally {
    checks: usize,
    variants: usize,
    bytes: u64,
    mismatches: Vec<String>,
}

fn cross_check(
    tested: &dyn Backend,
    reference: &dyn Backend,
    a: &SelftestArgs,
    rng: &mut impl RngCore,
) -> Result<Tally, CliError> {
    let mut tally = Tally { checks: 0, variants: 0, bytes: 0, mismatches: Vec::new() };
    for variant in Variant::ALL.into_iter().filter(|&v| tested.supports(v)) {
        tally.variants += 1;
        let block = variant.block_bytes();
        for (mode, dir, pad) in CHECKED {
            for (i, len) in lengths(block, a, rng).into_iter().enumerate() {
                let len = if mode.is_block_mode() && !pad { len / block * block } else { len };
                let mut key = zeroize::Zeroizing::new(vec![0u8; variant.tweakey_bytes()]);
                rng.fill_bytes(&mut key);
                // Every fourth check runs a random reduced round count (odd ones
                // included): the lab's ciphers must match on every backend too.
                let rounds = if i % 4 == 3 { rng.random_range(1..variant.rounds()) } else { variant.rounds() };
                let cipher = Skinny::with_rounds(variant, &key, rounds).map_err(|e| CliError::Check(e.to_string()))?;
                let iv = mode.needs_iv().then(|| iv_for(mode, block, i, rng));
                let mut data = vec![0u8; len];
                rng.fill_bytes(&mut data);
                let pieces = random_pieces(len, rng);
                let want = run_processor(&cipher, mode, dir, iv.as_deref(), pad, reference, &data, &[len]);
                let got = run_processor(&cipher, mode, dir, iv.as_deref(), pad, tested, &data, &pieces);
                tally.checks += 1;
                tally.bytes += len as u64;
                let same = match (&want, &got) {
                    (Ok(w), Ok(g)) => w == g,
                    // The same refusal (bad padding, not whole blocks) from both.
                    (Err(w), Err(g)) => w.to_string() == g.to_string(),
                    _ => false,
                };
                if !same {
                    tally.mismatches.push(format!(
                        "{variant} ({rounds} rounds) {mode} {dir:?} pad={pad} len={len} pieces={} ({})",
                        pieces.len(),
                        match (&want, &got) {
                            (Ok(_), Ok(_)) => "different output".to_string(),
                            (w, g) => format!("reference {:?}, tested {:?}", w.as_ref().err(), g.as_ref().err()),
                        }
                    ));
                }
            }
        }
    }
    Ok(tally)
}

/// The lengths to try: the edges around one block, many blocks, and `rounds`
/// random lengths up to `--max-bytes`.
fn lengths(block: usize, a: &SelftestArgs, rng: &mut impl RngCore) -> Vec<usize> {
    let mut out = vec![0, 1, block - 1, block, block + 1, 1000 * block + 3];
    out.retain(|&n| n <= a.max_bytes.max(block + 1));
    out.extend((0..a.rounds).map(|_| rng.random_range(0..=a.max_bytes)));
    out
}

/// A random IV; for CTR every other one a counter a few blocks short of wrapping
/// around 2^n, so the carry across the whole block is exercised.
fn iv_for(mode: Mode, block: usize, i: usize, rng: &mut impl RngCore) -> Vec<u8> {
    let mut iv = vec![0u8; block];
    rng.fill_bytes(&mut iv);
    if mode == Mode::Ctr && i % 2 == 1 {
        iv.iter_mut().for_each(|b| *b = 0xff);
        iv[block - 1] = 0xff - rng.random_range(0..8u8);
    }
    iv
}

/// Cuts `len` into a few random pieces (the stream as `update` sees it).
fn random_pieces(len: usize, rng: &mut impl RngCore) -> Vec<usize> {
    let mut pieces = Vec::new();
    let mut left = len;
    while left > 0 && pieces.len() < 4 {
        let n = rng.random_range(1..=left);
        pieces.push(n);
        left -= n;
    }
    if left > 0 {
        pieces.push(left);
    }
    pieces
}

#[allow(clippy::too_many_arguments)]
fn run_processor(
    cipher: &Skinny,
    mode: Mode,
    dir: Direction,
    iv: Option<&[u8]>,
    pad: bool,
    backend: &dyn Backend,
    data: &[u8],
    pieces: &[usize],
) -> Result<Vec<u8>, skinny_bulk::Error> {
    let mut p = {
        let mut b = Processor::builder(cipher, mode, dir).backend(backend);
        if let Some(iv) = iv {
            b = b.iv(iv);
        }
        if mode.is_block_mode() {
            b = b.padding(if pad { Padding::Pkcs7 } else { Padding::None });
        }
        b.build()?
    };
    let mut out = Vec::with_capacity(data.len() + 16);
    let mut at = 0;
    for &n in pieces {
        p.update(&data[at..at + n], &mut out)?;
        at += n;
    }
    p.finish(&mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinny::counter::Counter;
    use skinny_bulk::backend::{BlockEngine, Workload};

    /// A backend that gets one bit wrong in ECB (and so in everything built on it):
    /// the cross-check must see it.
    struct OneBitWrong(Box<dyn Backend>);
    struct OneBitWrongEngine(Box<dyn BlockEngine>);

    impl BlockEngine for OneBitWrongEngine {
        fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), skinny_bulk::Error> {
            self.0.ecb(dir, blocks)?;
            if let Some(b) = blocks.last_mut() {
                *b ^= 1;
            }
            Ok(())
        }
        fn ctr(&mut self, counter: Counter, data: &mut [u8]) -> Result<(), skinny_bulk::Error> {
            self.0.ctr(counter, data)
        }
    }

    impl Backend for OneBitWrong {
        fn name(&self) -> &'static str {
            "one-bit-wrong"
        }
        fn describe(&self) -> String {
            "broken on purpose".into()
        }
        fn constant_time(&self) -> bool {
            true
        }
        fn supports(&self, v: Variant) -> bool {
            v == Variant::Skinny64_128
        }
        fn engine_for(&self, cipher: &Skinny, _work: &Workload) -> Result<Box<dyn BlockEngine>, skinny_bulk::Error> {
            Ok(Box::new(OneBitWrongEngine(self.0.engine(cipher)?)))
        }
    }

    #[test]
    fn cross_check_catches_a_wrong_backend_and_passes_a_right_one() {
        let serial = || backend::open(BackendChoice::CpuSerial, &Options::default()).unwrap();
        let args = SelftestArgs { rounds: 2, max_bytes: 300 };
        let mut rng = rand::rng();
        let broken = OneBitWrong(serial());
        let tally = cross_check(&broken, serial().as_ref(), &args, &mut rng).unwrap();
        assert_eq!(tally.variants, 1);
        // Padded ECB encryption always has a block to get wrong: all 7 lengths
        // (0, 1, 3, 8, 9 and two random) fail. ECB decryption, CBC and CFB
        // decryption fail wherever a whole block goes through the engine. CTR
        // does not use ECB here and stays right.
        let padded_ecb = tally.mismatches.iter().filter(|m| m.contains(" ecb Encrypt pad=true ")).count();
        assert_eq!(padded_ecb, 7, "{:?}", tally.mismatches);
        assert!(tally.mismatches.len() >= 7 + 4 * 2, "{:?}", tally.mismatches);
        assert!(tally.mismatches.iter().all(|m| !m.contains(" ctr ")), "{:?}", tally.mismatches);

        let cpu = backend::open(BackendChoice::Cpu, &Options::default()).unwrap();
        let tally = cross_check(cpu.as_ref(), serial().as_ref(), &args, &mut rng).unwrap();
        assert_eq!(tally.variants, 6);
        assert!(tally.mismatches.is_empty(), "{:?}", tally.mismatches);
    }

    #[test]
    fn spec_vectors_all_pass() {
        let mut out = Vec::new();
        assert_eq!(check_spec_vectors(&mut out).unwrap(), 0);
        assert!(String::from_utf8(out).unwrap().contains("spec vectors: 6/6 ok"));
    }
}
