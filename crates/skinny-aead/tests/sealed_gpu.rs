//! The sealed format on the GPU engine (`sealed::Job::on_device`, feature `cuda`)
//! against the CPU engine: the same file byte for byte for the same prefix
//! (every member, chunks of 2^14 to 2^20 bytes, lengths around chunk, block
//! and window boundaries), files of either engine opened by the other, and
//! damaged files failing with the CPU's errors and writing nothing from the
//! failing chunk on; the same for a GPU started while the CPU begins
//! (`Job::new(Placement::Gpu { .. })`), whose windows go to either engine. Without a usable GPU each test
//! is ignored (one line says why); with `SKINNY_REQUIRE_GPU=1` each fails
//! (`skinny_test_support::gpu`). The last test, what happens when the GPU
//! asked for cannot be had, runs everywhere.

use skinny_aead::gpu::GpuDevice;
use skinny_aead::sealed::{
    self, verdict, Job, Member, SealOptions, SealedError, AUTO_GPU_BYTES, GPU_MIN_CHUNK_LOG2, HEADER_LEN,
    MAX_CHUNK_LOG2,
};
use skinny_exec::{GpuSelection, Placement, Threads, Verdict, WhyCpu};
use skinny_test_support::rng::SplitMix64 as Rng;

fn gpu() -> GpuDevice {
    skinny_test_support::gpu::open(GpuDevice::first)
}

fn seal(engine: &Job, m: Member, log2: u8, key: &[u8; 16], prefix: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let opts = SealOptions { member: m, chunk_log2: log2 };
    sealed::hazmat::seal_with_prefix_on(engine, msg, &mut out, key, &opts, prefix).expect("seal");
    out
}

/// What `open_on` wrote and returned.
fn open(engine: &Job, file: &[u8], key: &[u8; 16]) -> (Vec<u8>, Result<sealed::SealedReport, SealedError>) {
    let mut out = Vec::new();
    let r = sealed::open_on(engine, file, &mut out, key);
    (out, r)
}

/// The error's text and variant name, to compare errors of both engines.
fn describe(r: &Result<sealed::SealedReport, SealedError>) -> String {
    match r {
        Ok(rep) => format!("ok {} chunks, {} bytes", rep.chunks, rep.plaintext_bytes),
        Err(e) => format!("{e:?}"),
    }
}

fn gpu_files_are_the_cpu_files_and_open_both_ways() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let mut rng = Rng(0x05ea_16b0);
    for (k, m) in Member::ALL.into_iter().enumerate() {
        let mut key = [0u8; 16];
        key.copy_from_slice(&rng.bytes(16));
        let prefix = rng.bytes(m.prefix_len());
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
                assert!(gpu_file == cpu_file, "{m}, 2^{log2}-byte chunks, {len} bytes: GPU file differs");
                let (plain, r) = open(&engine, &cpu_file, &key);
                assert!(r.is_ok() && plain == msg, "{m}, 2^{log2}, {len}: GPU open of the CPU file: {}", describe(&r));
                let (plain, r) = open(&Job::cpu(), &gpu_file, &key);
                assert!(r.is_ok() && plain == msg, "{m}, 2^{log2}, {len}: CPU open of the GPU file");
            }
        }
    }
}

fn random_prefix_files_open_on_the_other_engine() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let key = [9u8; 16];
    let msg = Rng(7).bytes((5 << 20) + 3);
    let mut file = Vec::new();
    sealed::seal_on(&engine, &msg[..], &mut file, &key, &SealOptions::default()).expect("seal");
    assert_eq!(open(&Job::cpu(), &file, &key).0, msg);
    let mut file = Vec::new();
    sealed::seal(&msg[..], &mut file, &key, &SealOptions::default()).expect("seal");
    assert_eq!(open(&engine, &file, &key).0, msg);
}

/// Opens `file` on both engines: the same outcome, the same output (nothing
/// from the failing chunk on).
fn same_outcome(engine: &Job, file: &[u8], key: &[u8; 16], what: &str) -> Result<sealed::SealedReport, SealedError> {
    let (cpu_out, cpu) = open(&Job::cpu(), file, key);
    let (gpu_out, gpu) = open(engine, file, key);
    assert_eq!(describe(&gpu), describe(&cpu), "{what}: the engines disagree");
    assert!(gpu_out == cpu_out, "{what}: the engines wrote different outputs");
    gpu
}

fn damaged_files_fail_as_on_the_cpu() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let key = [3u8; 16];
    for m in [Member::M1, Member::M6] {
        let log2 = 14u8;
        let cs = 1usize << log2;
        let piece = cs + m.tag_len();
        // 2000 chunks: two windows (1024 chunks of 16 KiB each) and a bit.
        let msg = Rng(11).bytes(2000 * cs + 100);
        let file = seal(&engine, m, log2, &key, &vec![5u8; m.prefix_len()], &msg);
        let at = |chunk: usize| HEADER_LEN + chunk * piece;

        // A flipped byte in chunk 1500 (second window): chunks before it written.
        let mut bad = file.clone();
        bad[at(1500) + 77] ^= 0x10;
        let r = same_outcome(&engine, &bad, &key, "flipped byte");
        assert!(matches!(r, Err(SealedError::Authentication { chunk: 1500 })), "{r:?}");
        let (out, _) = open(&engine, &bad, &key);
        assert!(out.len() <= 1500 * cs && msg.starts_with(&out), "nothing from the failing chunk on");

        // A flipped tag bit of the very first chunk: nothing written.
        let mut bad = file.clone();
        bad[at(1) - 1] ^= 1;
        let r = same_outcome(&engine, &bad, &key, "flipped tag");
        assert!(matches!(r, Err(SealedError::Authentication { chunk: 0 })), "{r:?}");
        assert!(open(&engine, &bad, &key).0.is_empty());

        // Cut at a chunk boundary, inside a chunk, inside the header.
        let r = same_outcome(&engine, &file[..at(1200)], &key, "cut at a boundary");
        assert!(matches!(r, Err(SealedError::Truncated { chunks: 1200 })), "{r:?}");
        let r = same_outcome(&engine, &file[..at(1200) + 3], &key, "cut inside a chunk");
        assert!(r.is_err());
        // A last chunk of a tag's length (no ciphertext): fails to verify.
        let r = same_outcome(&engine, &file[..at(1200) + m.tag_len()], &key, "a last chunk of just a tag");
        assert!(matches!(r, Err(SealedError::Authentication { chunk: 1200 })), "{r:?}");
        let r = same_outcome(&engine, &file[..10], &key, "cut inside the header");
        assert!(matches!(r, Err(SealedError::TruncatedInside)), "{r:?}");

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
        assert!(matches!(r, Err(SealedError::Authentication { chunk: 3 })), "{r:?}");

        // The wrong key.
        let r = same_outcome(&engine, &file, &[4u8; 16], "wrong key");
        assert!(matches!(r, Err(SealedError::Authentication { chunk: 0 })), "{r:?}");

        // And the file itself opens.
        assert!(same_outcome(&engine, &file, &key, "intact").is_ok());
    }
}

fn small_chunks_are_refused_before_anything_is_written() {
    let gpu = gpu();
    let engine = Job::on_device(gpu);
    let key = [1u8; 16];
    for log2 in [4u8, 10, GPU_MIN_CHUNK_LOG2 - 1] {
        assert!(matches!(verdict(log2, Some(u64::MAX)), Verdict::Unfit(_)));
        let mut out = Vec::new();
        let opts = SealOptions { member: Member::M1, chunk_log2: log2 };
        let r = sealed::seal_on(&engine, &[0u8; 100][..], &mut out, &key, &opts);
        assert!(matches!(r, Err(SealedError::GpuChunkSize { chunk_log2 }) if chunk_log2 == log2), "{r:?}");
        assert!(out.is_empty());
        // A CPU file with such chunks: the GPU refuses to open it.
        let mut file = Vec::new();
        sealed::seal(&[0u8; 100][..], &mut file, &key, &opts).expect("seal");
        let (out, r) = open(&engine, &file, &key);
        assert!(matches!(r, Err(SealedError::GpuChunkSize { .. })) && out.is_empty(), "{r:?}");
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
fn unavailable(r: &sealed::SealedReport) -> Option<String> {
    match &r.placed.why_cpu {
        Some(WhyCpu::Unavailable(why)) => Some(why.clone()),
        _ => None,
    }
}

fn a_starting_gpu_gives_the_cpu_files_and_opens_both_ways() {
    let _ = gpu();
    let engine = starting();
    let mut rng = Rng(0x57a7);
    for m in [Member::M1, Member::M6] {
        let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
        let prefix = rng.bytes(m.prefix_len());
        // Many windows (16 MiB on the GPU, 2 x threads chunks on the CPU).
        for (log2, len) in [(16u8, (64 << 20) + 5), (14, (24 << 20) + 77), (16, 100)] {
            let msg = rng.bytes(len);
            let cpu_file = seal(&Job::cpu(), m, log2, &key, &prefix, &msg);
            let mut file = Vec::new();
            let opts = SealOptions { member: m, chunk_log2: log2 };
            let r =
                sealed::hazmat::seal_with_prefix_on(&engine, &msg[..], &mut file, &key, &opts, &prefix).expect("seal");
            assert!(file == cpu_file, "{m}, 2^{log2}, {len} bytes: differs from the CPU's file");
            eprintln!(
                "{m}, 2^{log2}, {len} bytes: sealed {} chunks, {} on the GPU",
                r.chunks, r.placed.accelerator_units
            );
            assert!(unavailable(&r).is_none());
            let (plain, r) = open(&engine, &cpu_file, &key);
            assert!(plain == msg, "{m}, 2^{log2}, {len}: starting-GPU open: {}", describe(&r));
            let r = r.expect("opens");
            eprintln!("  opened {} chunks, {} on the GPU", r.chunks, r.placed.accelerator_units);
            let (plain, r) = open(&Job::cpu(), &file, &key);
            assert!(r.is_ok() && plain == msg);
        }
    }
}

fn a_gpu_kept_only_while_faster_gives_the_cpu_files_whichever_engine_wins() {
    let _ = gpu();
    // `auto`, told the input is large enough to repay the GPU (its rule's
    // threshold is above this test's 256 MiB).
    let engine = Job::new(Placement::default()).input_len(Some(AUTO_GPU_BYTES));
    let key = [9u8; 16];
    let mut rng = Rng(0xfa57);
    // 256 MiB: the CPU's windows until the GPU is ready, then at least 1 +
    // JUDGE_AFTER (3) GPU windows of 16 MiB before the verdict.
    let msg = rng.bytes((256 << 20) + 3);
    let prefix = rng.bytes(Member::M1.prefix_len());
    let cpu_file = seal(&Job::cpu(), Member::M1, 16, &key, &prefix, &msg);
    let mut file = Vec::new();
    let opts = SealOptions { member: Member::M1, chunk_log2: 16 };
    let r = sealed::hazmat::seal_with_prefix_on(&engine, &msg[..], &mut file, &key, &opts, &prefix).expect("seal");
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

fn a_starting_gpu_fails_as_the_cpu_in_either_engines_windows() {
    let _ = gpu();
    let engine = starting();
    let key = [6u8; 16];
    let m = Member::M1;
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
        assert!(matches!(r, Err(SealedError::Authentication { chunk: c }) if c == chunk as u64), "{r:?}");
    }
    // Cut inside a chunk: shorter than a tag, the file is truncated; longer,
    // the shortened chunk fails its tag (run 39: this test expected the first
    // for both).
    let r = same_outcome(&engine, &file[..at(900) + 5], &key, "cut inside a chunk, within a tag's length");
    assert!(matches!(r, Err(SealedError::TruncatedInside)), "{r:?}");
    let r = same_outcome(&engine, &file[..at(900) + 100], &key, "cut inside a chunk");
    assert!(matches!(r, Err(SealedError::Authentication { chunk: 900 })), "{r:?}");
    let r = same_outcome(&engine, &file[..at(900)], &key, "cut at a boundary");
    assert!(matches!(r, Err(SealedError::Truncated { chunks: 900 })), "{r:?}");
    let r = same_outcome(&engine, &file, &key, "intact").expect("opens");
    eprintln!("intact: {} chunks, {} on the GPU", r.chunks, r.placed.accelerator_units);
}

fn a_gpu_that_cannot_be_had_fails_the_run_or_leaves_it_to_the_cpu() {
    let key = [2u8; 16];
    let msg = Rng(13).bytes((8 << 20) + 1);
    let opts = SealOptions::default();
    let auto = |gpus| Job::new(Placement::Auto { threads: Threads::All, gpus }).input_len(Some(AUTO_GPU_BYTES));
    let gpu = |gpus| Job::new(Placement::Gpu { threads: Threads::All, gpus });
    match GpuDevice::count() {
        // No GPU (no driver, or none present): `gpu` fails, `auto` goes on
        // on the CPU and says why.
        Err(_) | Ok(0) => {
            let r = sealed::seal_on(&gpu(GpuSelection::All), &msg[..], Vec::new(), &key, &opts);
            assert!(matches!(&r, Err(SealedError::GpuStart(_))), "{r:?}");
            let mut file = Vec::new();
            let r = sealed::seal_on(&auto(GpuSelection::All), &msg[..], &mut file, &key, &opts).expect("seal");
            assert!(r.placed.accelerator_units == 0 && unavailable(&r).is_some(), "{r:?}");
            assert_eq!(open(&Job::cpu(), &file, &key).0, msg);
        }
        // GPUs, but not the one asked for: an error either way.
        Ok(count) => {
            for job in [gpu(GpuSelection::List(vec![count + 3])), auto(GpuSelection::First(count + 1))] {
                let mut out = Vec::new();
                let r = sealed::seal_on(&job, &msg[..], &mut out, &key, &opts);
                assert!(matches!(&r, Err(SealedError::GpuSelection(_))) && out.is_empty(), "{r:?}");
            }
        }
    }
    // Chunks the GPU cannot take: refused up front, or left to the CPU by
    // the rule.
    let small = SealOptions { member: Member::M1, chunk_log2: 10 };
    let mut out = Vec::new();
    let r = sealed::seal_on(&starting(), &msg[..], &mut out, &key, &small);
    assert!(matches!(r, Err(SealedError::GpuChunkSize { chunk_log2: 10 })) && out.is_empty(), "{r:?}");
    let r = sealed::seal_on(&auto(GpuSelection::All), &msg[..], &mut out, &key, &small).expect("seal");
    assert_eq!(r.placed.accelerator_units, 0);
    assert!(matches!(&r.placed.why_cpu, Some(WhyCpu::Rule(why)) if why == "chunks under 16K"), "{r:?}");
}

skinny_test_support::gpu_test_main! {
    probe: GpuDevice::first,
    gpu: [gpu_files_are_the_cpu_files_and_open_both_ways, random_prefix_files_open_on_the_other_engine, damaged_files_fail_as_on_the_cpu, small_chunks_are_refused_before_anything_is_written, a_starting_gpu_gives_the_cpu_files_and_opens_both_ways, a_gpu_kept_only_while_faster_gives_the_cpu_files_whichever_engine_wins, a_starting_gpu_fails_as_the_cpu_in_either_engines_windows],
    anywhere: [a_gpu_that_cannot_be_had_fails_the_run_or_leaves_it_to_the_cpu],
}
