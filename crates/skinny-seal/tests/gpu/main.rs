//! Sealed files on the GPU (feature `cuda`): v2 SKINNY-AEAD payloads, the
//! same bytes as the CPU for the same file key and salts, opened both ways,
//! and damaged files refused as on the CPU; and the chunk engine itself on
//! version-1 files (`engines`). Run where a GPU is: without a usable GPU each
//! test is ignored (one line says why); with `SKINNY_REQUIRE_GPU=1` each
//! fails (`skinny_test_support::gpu`).

mod engines;

use engines::{
    v1_a_gpu_kept_only_while_faster_gives_the_cpu_files_whichever_engine_wins,
    v1_a_gpu_that_cannot_be_had_fails_the_run_or_leaves_it_to_the_cpu,
    v1_a_starting_gpu_fails_as_the_cpu_in_either_engines_windows,
    v1_a_starting_gpu_gives_the_cpu_files_and_opens_both_ways, v1_damaged_files_fail_as_on_the_cpu,
    v1_default_files_open_on_the_other_engine, v1_gpu_files_are_the_cpu_files_and_open_both_ways,
    v1_small_chunks_are_refused_before_anything_is_written,
};

use skinny_aead::gpu::GpuDevice;
use skinny_exec::{GpuSelection, Placement, Threads};
use skinny_seal::{hazmat, open_on, FileKey, Job, OpenError, OpenOptions, Scheme, SealOptions, SymmetricKey};

fn gpu() -> GpuDevice {
    skinny_test_support::gpu::open(GpuDevice::first)
}

fn seal(job: &Job, options: &SealOptions, msg: &[u8]) -> Vec<u8> {
    let key = SymmetricKey::from_bytes(&[3u8; 32]).unwrap();
    let fk = FileKey::from_bytes([8u8; 32]);
    let salt = [1u8; 16];
    let start = hazmat::header_start(options, &salt);
    let st = hazmat::key_stanza_with_salt(&key, &fk, &start, &[2u8; 16]);
    let mut out = Vec::new();
    hazmat::seal_with_salt_and_file_key_on(job, msg, &mut out, vec![st], &fk, salt, options).expect("seal");
    out
}

fn open(job: &Job, file: &[u8], oo: &OpenOptions) -> (Vec<u8>, Result<skinny_seal::SealReport, OpenError>) {
    let key = SymmetricKey::from_bytes(&[3u8; 32]).unwrap();
    let mut out = Vec::new();
    let r = open_on(job, file, &mut out, &[&key], oo);
    (out, r)
}

fn gpu_files_are_the_cpu_files_and_open_both_ways() {
    let job = Job::on_device(gpu());
    for scheme in Scheme::ALL.into_iter().filter(|s| s.id() <= 6) {
        let oo = OpenOptions { allow_short_tag_scheme: scheme.short_tag().then_some(scheme), ..Default::default() };
        for log2 in [14u8, 16] {
            let cs = 1usize << log2;
            for len in [0, 1, cs - 1, cs, cs + 1, 3 * cs + 7, (16 << 20) + 5] {
                let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
                let options = SealOptions { scheme, chunk_log2: log2, ..SealOptions::default() };
                let cpu = seal(&Job::cpu(), &options, &msg);
                let on_gpu = seal(&job, &options, &msg);
                assert!(cpu == on_gpu, "{} 2^{log2} {len}: GPU file differs", scheme.name());
                let (back, r) = open(&job, &cpu, &oo);
                assert!(r.is_ok() && back == msg, "{} 2^{log2} {len}: GPU open", scheme.name());
                let mut bad = cpu.clone();
                let at = bad.len() - 1;
                bad[at] ^= 1;
                let (_, g) = open(&job, &bad, &oo);
                let (_, c) = open(&Job::cpu(), &bad, &oo);
                assert_eq!(format!("{g:?}"), format!("{c:?}"));
            }
        }
    }
}

fn romulus_and_many_gpus_are_refused_before_anything_is_written() {
    let _ = gpu();
    let all = Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All });
    let options = SealOptions { scheme: Scheme::RomulusN, ..SealOptions::default() };
    let key = SymmetricKey::from_bytes(&[3u8; 32]).unwrap();
    let mut out = Vec::new();
    let r = skinny_seal::seal_on(&all, &b"x"[..], &mut out, &[&key], &options);
    assert!(matches!(r, Err(skinny_seal::SealError::CpuOnly(_))) && out.is_empty());
    let two = Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::First(2) });
    let r = skinny_seal::seal_on(&two, &b"x"[..], &mut out, &[&key], &SealOptions::default());
    assert!(matches!(r, Err(skinny_seal::SealError::OneGpu)) && out.is_empty());
}

skinny_test_support::gpu_test_main! {
    probe: GpuDevice::first,
    gpu: [
        gpu_files_are_the_cpu_files_and_open_both_ways,
        romulus_and_many_gpus_are_refused_before_anything_is_written,
        v1_gpu_files_are_the_cpu_files_and_open_both_ways,
        v1_default_files_open_on_the_other_engine,
        v1_damaged_files_fail_as_on_the_cpu,
        v1_small_chunks_are_refused_before_anything_is_written,
        v1_a_starting_gpu_gives_the_cpu_files_and_opens_both_ways,
        v1_a_gpu_kept_only_while_faster_gives_the_cpu_files_whichever_engine_wins,
        v1_a_starting_gpu_fails_as_the_cpu_in_either_engines_windows,
    ],
    anywhere: [v1_a_gpu_that_cannot_be_had_fails_the_run_or_leaves_it_to_the_cpu],
}
