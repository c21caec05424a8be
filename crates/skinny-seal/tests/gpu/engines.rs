//! The chunk engine on the GPU (`Job::on_device`, feature `cuda`) against
//! the CPU, on version-1 files (their nonce prefix given, so both engines
//! seal the same bytes): the same file byte for byte (every member, chunks
//! of 2^14 to 2^20 bytes, lengths around chunk, block and window
//! boundaries), files of either engine opened by the other, and damaged
//! files failing with the CPU's errors and writing nothing from the failing
//! chunk on; the same for a GPU started while the CPU begins
//! (`Job::new(Placement::Gpu { .. })`), whose windows go to either engine.
//! The last test, what happens when the GPU asked for cannot be had, runs
//! everywhere.

use skinny_aead::gpu::GpuDevice;
use skinny_exec::{GpuSelection, Placement, Threads, Verdict, WhyCpu};
use skinny_seal::{
    hazmat, verdict, EngineError, Job, OpenError, OpenOptions, Scheme, SealError, SealOptions, SealReport,
    SymmetricKey, AUTO_GPU_BYTES, GPU_MIN_CHUNK_LOG2,
};
use skinny_test_support::rng::SplitMix64 as Rng;

/// A version-1 header's length.
const HEADER_LEN: usize = 24;
/// The largest chunk size, as a power of two.
const MAX_CHUNK_LOG2: u8 = 24;

fn gpu() -> GpuDevice {
    skinny_test_support::gpu::open(GpuDevice::first)
}

/// The SKINNY-AEAD members.
fn members() -> impl Iterator<Item = Scheme> {
    Scheme::ALL.into_iter().filter(|s| s.id() <= 6)
}

/// Version 1's options.
fn options(m: Scheme, chunk_log2: u8) -> SealOptions {
    SealOptions { scheme: m, chunk_log2, ..SealOptions::default() }
}

/// A member's nonce prefix length.
fn prefix_len(m: Scheme) -> usize {
    m.nonce_len() - 5
}

fn seal(engine: &Job, m: Scheme, log2: u8, key: &[u8; 16], prefix: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    hazmat::seal_v1_with_prefix_on(engine, msg, &mut out, key, &options(m, log2), prefix).expect("seal");
    out
}

/// What `open_on` wrote and returned (the member named, so 64-bit tags open).
fn open(engine: &Job, file: &[u8], key: &[u8; 16]) -> (Vec<u8>, Result<SealReport, OpenError>) {
    let mut out = Vec::new();
    let k = SymmetricKey::from_bytes(key).unwrap();
    let member = file.get(11).and_then(|&id| Scheme::from_id(id));
    let oo = OpenOptions { allow_short_tag_scheme: member, ..OpenOptions::default() };
    let r = skinny_seal::open_on(engine, file, &mut out, &[&k], &oo);
    (out, r)
}

/// The error's text and variant name, to compare errors of both engines.
fn describe(r: &Result<SealReport, OpenError>) -> String {
    match r {
        Ok(rep) => format!("ok {} chunks, {} bytes", rep.chunks, rep.plaintext_bytes),
        Err(e) => format!("{e:?}"),
    }
}

pub fn v1_gpu_files_are_the_cpu_files_and_open_both_ways() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let mut rng = Rng(0x05ea_16b0);
    for (k, m) in members().enumerate() {
        let mut key = [0u8; 16];
        key.copy_from_slice(&rng.bytes(16));
        let prefix = rng.bytes(prefix_len(m));
        // Every member at 2^14 and 2^16; two of them over the whole range.
        let sizes: Vec<u8> = if k < 2 { (14..=20).collect() } else { vec![14, 16] };
        for log2 in sizes {
            let cs = 1usize << log2;
            let mut lengths = vec![0, 1, 15, 17, cs - 1, cs, cs + 1, 3 * cs + 7];
            // A few windows (16 MiB each) for the small chunks: more chunks
            // than one launch takes, the last partial; and the inputs whose
            // last window holds one piece more than the others (the reader's
            // read-ahead piece), to seal and to open.
            if log2 <= 16 {
                lengths.push((40 << 20) + 5);
                lengths.push((16 << 20) + 5);
                lengths.push((16 << 20) / (cs + m.tag_len()) * cs + 5);
            }
            for len in lengths {
                let msg = rng.bytes(len);
                let cpu_file = seal(&Job::cpu(), m, log2, &key, &prefix, &msg);
                let gpu_file = seal(&engine, m, log2, &key, &prefix, &msg);
                assert!(gpu_file == cpu_file, "{m:?}, 2^{log2}-byte chunks, {len} bytes: GPU file differs");
                let (plain, r) = open(&engine, &cpu_file, &key);
                assert!(
                    r.is_ok() && plain == msg,
                    "{m:?}, 2^{log2}, {len}: GPU open of the CPU file: {}",
                    describe(&r)
                );
                let (plain, r) = open(&Job::cpu(), &gpu_file, &key);
                assert!(r.is_ok() && plain == msg, "{m:?}, 2^{log2}, {len}: CPU open of the GPU file");
            }
        }
    }
}

pub fn v1_default_files_open_on_the_other_engine() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let key = [9u8; 16];
    let msg = Rng(7).bytes((5 << 20) + 3);
    let default = SealOptions::default();
    let mut file = Vec::new();
    hazmat::seal_v1_with_prefix_on(&engine, &msg[..], &mut file, &key, &default, &[1u8; 11]).expect("seal");
    assert_eq!(open(&Job::cpu(), &file, &key).0, msg);
    let mut file = Vec::new();
    hazmat::seal_v1_with_prefix(&msg[..], &mut file, &key, &default, &[2u8; 11]).expect("seal");
    assert_eq!(open(&engine, &file, &key).0, msg);
}

/// Opens `file` on both engines: the same outcome, the same output (nothing
/// from the failing chunk on).
fn same_outcome(engine: &Job, file: &[u8], key: &[u8; 16], what: &str) -> Result<SealReport, OpenError> {
    let (cpu_out, cpu) = open(&Job::cpu(), file, key);
    let (gpu_out, gpu) = open(engine, file, key);
    assert_eq!(describe(&gpu), describe(&cpu), "{what}: the engines disagree");
    assert!(gpu_out == cpu_out, "{what}: the engines wrote different outputs");
    gpu
}

pub fn v1_damaged_files_fail_as_on_the_cpu() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let key = [3u8; 16];
    for m in [Scheme::M1, Scheme::M6] {
        let log2 = 14u8;
        let cs = 1usize << log2;
        let piece = cs + m.tag_len();
        // 2000 chunks: two windows (1024 chunks of 16 KiB each) and a bit.
        let msg = Rng(11).bytes(2000 * cs + 100);
        let file = seal(&engine, m, log2, &key, &vec![5u8; prefix_len(m)], &msg);
        let at = |chunk: usize| HEADER_LEN + chunk * piece;

        // A flipped byte in chunk 1500 (second window): chunks before it written.
        let mut bad = file.clone();
        bad[at(1500) + 77] ^= 0x10;
        let r = same_outcome(&engine, &bad, &key, "flipped byte");
        assert!(matches!(r, Err(OpenError::Authentication { chunk: 1500 })), "{r:?}");
        let (out, _) = open(&engine, &bad, &key);
        assert!(out.len() <= 1500 * cs && msg.starts_with(&out), "nothing from the failing chunk on");

        // A flipped tag bit of the very first chunk: nothing written.
        let mut bad = file.clone();
        bad[at(1) - 1] ^= 1;
        let r = same_outcome(&engine, &bad, &key, "flipped tag");
        assert!(matches!(r, Err(OpenError::Authentication { chunk: 0 })), "{r:?}");
        assert!(open(&engine, &bad, &key).0.is_empty());

        // Cut at a chunk boundary, inside a chunk, inside the header.
        let r = same_outcome(&engine, &file[..at(1200)], &key, "cut at a boundary");
        assert!(matches!(r, Err(OpenError::Truncated { chunks: 1200 })), "{r:?}");
        let r = same_outcome(&engine, &file[..at(1200) + 3], &key, "cut inside a chunk");
        assert!(r.is_err());
        // A last chunk of a tag's length (no ciphertext): fails to verify.
        let r = same_outcome(&engine, &file[..at(1200) + m.tag_len()], &key, "a last chunk of just a tag");
        assert!(matches!(r, Err(OpenError::Authentication { chunk: 1200 })), "{r:?}");
        let r = same_outcome(&engine, &file[..10], &key, "cut inside the header");
        assert!(matches!(r, Err(OpenError::TruncatedHeader)), "{r:?}");

        // Data after the last chunk.
        let mut longer = file.clone();
        longer.extend_from_slice(&file[at(0)..at(1)]);
        let r = same_outcome(&engine, &longer, &key, "appended chunk");
        assert!(r.is_err());

        // Two chunks swapped.
        let mut swapped = file.clone();
        let (a, b) = (file[at(3)..at(4)].to_vec(), file[at(4)..at(5)].to_vec());
        swapped[at(3)..at(4)].copy_from_slice(&b);
        swapped[at(4)..at(5)].copy_from_slice(&a);
        let r = same_outcome(&engine, &swapped, &key, "swapped chunks");
        assert!(matches!(r, Err(OpenError::Authentication { chunk: 3 })), "{r:?}");

        // The wrong key.
        let r = same_outcome(&engine, &file, &[4u8; 16], "wrong key");
        assert!(matches!(r, Err(OpenError::Authentication { chunk: 0 })), "{r:?}");

        // And the file itself opens.
        assert!(same_outcome(&engine, &file, &key, "intact").is_ok());
    }
}

pub fn v1_small_chunks_are_refused_before_anything_is_written() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let key = [1u8; 16];
    for log2 in [4u8, 10, GPU_MIN_CHUNK_LOG2 - 1] {
        assert!(matches!(verdict(log2, Some(u64::MAX)), Verdict::Unfit(_)));
        let mut out = Vec::new();
        let opts = options(Scheme::M1, log2);
        let r = hazmat::seal_v1_with_prefix_on(&engine, &[0u8; 100][..], &mut out, &key, &opts, &[0; 11]);
        let refused = |e: &EngineError| matches!(e, EngineError::GpuChunkSize { chunk_log2 } if *chunk_log2 == log2);
        assert!(matches!(&r, Err(SealError::Engine(e)) if refused(e)), "{r:?}");
        assert!(out.is_empty());
        // A CPU file with such chunks: the GPU refuses to open it.
        let mut file = Vec::new();
        hazmat::seal_v1_with_prefix(&[0u8; 100][..], &mut file, &key, &opts, &[0; 11]).expect("seal");
        let (out, r) = open(&engine, &file, &key);
        assert!(matches!(&r, Err(OpenError::Engine(e)) if refused(e)) && out.is_empty(), "{r:?}");
    }
    for log2 in [GPU_MIN_CHUNK_LOG2, MAX_CHUNK_LOG2] {
        assert_eq!(verdict(log2, Some(AUTO_GPU_BYTES)), Verdict::Pays);
    }
}

/// The GPU opened while the CPU begins, and kept (`--backend gpu`).
fn starting() -> Job {
    Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All })
}

/// Why the run went on without the GPU, in the report's words.
fn unavailable(r: &SealReport) -> Option<String> {
    match &r.placed.why_cpu {
        Some(WhyCpu::Unavailable(why)) => Some(why.clone()),
        _ => None,
    }
}

pub fn v1_a_starting_gpu_gives_the_cpu_files_and_opens_both_ways() {
    let _ = gpu();
    let engine = starting();
    let mut rng = Rng(0x57a7);
    for m in [Scheme::M1, Scheme::M6] {
        let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
        let prefix = rng.bytes(prefix_len(m));
        // Many windows (16 MiB on the GPU, 2 x threads chunks on the CPU).
        for (log2, len) in [(16u8, (64 << 20) + 5), (14, (24 << 20) + 77), (16, 100)] {
            let msg = rng.bytes(len);
            let cpu_file = seal(&Job::cpu(), m, log2, &key, &prefix, &msg);
            let mut file = Vec::new();
            let opts = options(m, log2);
            let r = hazmat::seal_v1_with_prefix_on(&engine, &msg[..], &mut file, &key, &opts, &prefix).expect("seal");
            assert!(file == cpu_file, "{m:?}, 2^{log2}, {len} bytes: differs from the CPU's file");
            eprintln!(
                "{m:?}, 2^{log2}, {len} bytes: sealed {} chunks, {} on the GPU",
                r.chunks, r.placed.accelerator_units
            );
            assert!(unavailable(&r).is_none());
            let (plain, r) = open(&engine, &cpu_file, &key);
            assert!(plain == msg, "{m:?}, 2^{log2}, {len}: starting-GPU open: {}", describe(&r));
            let r = r.expect("opens");
            eprintln!("  opened {} chunks, {} on the GPU", r.chunks, r.placed.accelerator_units);
            let (plain, r) = open(&Job::cpu(), &file, &key);
            assert!(r.is_ok() && plain == msg);
        }
    }
}

pub fn v1_a_gpu_kept_only_while_faster_gives_the_cpu_files_whichever_engine_wins() {
    let _ = gpu();
    // `auto`, told the input is large enough to repay the GPU (its rule's
    // threshold is above this test's 256 MiB).
    let engine = Job::new(Placement::default()).input_len(Some(AUTO_GPU_BYTES));
    let key = [9u8; 16];
    let mut rng = Rng(0xfa57);
    // 256 MiB: the CPU's windows until the GPU is ready, then at least 1 +
    // JUDGE_AFTER (3) GPU windows of 16 MiB before the verdict.
    let msg = rng.bytes((256 << 20) + 3);
    let prefix = rng.bytes(prefix_len(Scheme::M1));
    let cpu_file = seal(&Job::cpu(), Scheme::M1, 16, &key, &prefix, &msg);
    let mut file = Vec::new();
    let opts = options(Scheme::M1, 16);
    let r = hazmat::seal_v1_with_prefix_on(&engine, &msg[..], &mut file, &key, &opts, &prefix).expect("seal");
    assert!(file == cpu_file, "differs from the CPU's file");
    assert!(unavailable(&r).is_none());
    eprintln!("sealed {} chunks, {} on the GPU; left: {:?}", r.chunks, r.placed.accelerator_units, r.placed.left);
    if let Some(slower) = &r.placed.left {
        let why = slower.to_string();
        assert!(why.starts_with("slower than the CPU here"), "{why}");
        // Left only after windows of its own (the first few may have the
        // CPU's size: they were read before the switch).
        assert!(r.placed.accelerator_units > 0, "left before it did any window");
    }
    let (plain, r) = open(&engine, &cpu_file, &key);
    assert!(plain == msg, "open: {}", describe(&r));
    let r = r.expect("opens");
    eprintln!("opened {} chunks, {} on the GPU; left: {:?}", r.chunks, r.placed.accelerator_units, r.placed.left);
}

pub fn v1_a_starting_gpu_fails_as_the_cpu_in_either_engines_windows() {
    let _ = gpu();
    let engine = starting();
    let key = [6u8; 16];
    let m = Scheme::M1;
    let log2 = 16u8;
    let piece = (1usize << log2) + m.tag_len();
    // 1024 chunks: the first windows on the CPU, the later on the GPU.
    let msg = Rng(12).bytes(1024 << log2);
    let file = seal(&Job::cpu(), m, log2, &key, &[1u8; 11], &msg);
    let at = |chunk: usize| HEADER_LEN + chunk * piece;
    for chunk in [0usize, 5, 700, 1023] {
        let mut bad = file.clone();
        bad[at(chunk) + 9] ^= 0x80;
        let r = same_outcome(&engine, &bad, &key, "flipped byte");
        assert!(matches!(r, Err(OpenError::Authentication { chunk: c }) if c == chunk as u64), "{r:?}");
    }
    // Cut inside a chunk: shorter than a tag, the file is truncated; longer,
    // the shortened chunk fails its tag (run 39: this test expected the first
    // for both).
    let r = same_outcome(&engine, &file[..at(900) + 5], &key, "cut inside a chunk, within a tag's length");
    assert!(matches!(r, Err(OpenError::TruncatedInside)), "{r:?}");
    let r = same_outcome(&engine, &file[..at(900) + 100], &key, "cut inside a chunk");
    assert!(matches!(r, Err(OpenError::Authentication { chunk: 900 })), "{r:?}");
    let r = same_outcome(&engine, &file[..at(900)], &key, "cut at a boundary");
    assert!(matches!(r, Err(OpenError::Truncated { chunks: 900 })), "{r:?}");
    let r = same_outcome(&engine, &file, &key, "intact").expect("opens");
    eprintln!("intact: {} chunks, {} on the GPU", r.chunks, r.placed.accelerator_units);
}

pub fn v1_a_gpu_that_cannot_be_had_fails_the_run_or_leaves_it_to_the_cpu() {
    let key = [2u8; 16];
    let msg = Rng(13).bytes((8 << 20) + 1);
    let opts = SealOptions::default();
    let prefix = [4u8; 11];
    let seal_on = |job: &Job, out: &mut Vec<u8>, opts: &SealOptions| {
        hazmat::seal_v1_with_prefix_on(job, &msg[..], out, &key, opts, &prefix)
    };
    let auto = |gpus| Job::new(Placement::Auto { threads: Threads::All, gpus }).input_len(Some(AUTO_GPU_BYTES));
    let gpu = |gpus| Job::new(Placement::Gpu { threads: Threads::All, gpus });
    match GpuDevice::count() {
        // No GPU (no driver, or none present): `gpu` fails, `auto` goes on
        // on the CPU and says why.
        Err(_) | Ok(0) => {
            let r = seal_on(&gpu(GpuSelection::All), &mut Vec::new(), &opts);
            assert!(matches!(&r, Err(SealError::Engine(EngineError::GpuStart(_)))), "{r:?}");
            let mut file = Vec::new();
            let r = seal_on(&auto(GpuSelection::All), &mut file, &opts).expect("seal");
            assert!(r.placed.accelerator_units == 0 && unavailable(&r).is_some(), "{r:?}");
            assert_eq!(open(&Job::cpu(), &file, &key).0, msg);
        }
        // GPUs, but not the one asked for: an error either way. (A
        // selection of several GPUs is refused before any is counted:
        // `SealError::OneGpu`, checked in the suite's CPU tests.)
        Ok(count) => {
            for job in [gpu(GpuSelection::List(vec![count + 3])), auto(GpuSelection::List(vec![count]))] {
                let mut out = Vec::new();
                let r = seal_on(&job, &mut out, &opts);
                assert!(matches!(&r, Err(SealError::Engine(EngineError::GpuSelection(_)))) && out.is_empty(), "{r:?}");
            }
        }
    }
    // Chunks the GPU cannot take: refused up front, or left to the CPU by
    // the rule.
    let small = options(Scheme::M1, 10);
    let mut out = Vec::new();
    let r = seal_on(&starting(), &mut out, &small);
    let refused = matches!(r, Err(SealError::Engine(EngineError::GpuChunkSize { chunk_log2: 10 })));
    assert!(refused && out.is_empty(), "{r:?}");
    let r = seal_on(&auto(GpuSelection::All), &mut out, &small).expect("seal");
    assert_eq!(r.placed.accelerator_units, 0);
    assert!(matches!(&r.placed.why_cpu, Some(WhyCpu::Rule(why)) if why == "chunks under 16K"), "{r:?}");
}
