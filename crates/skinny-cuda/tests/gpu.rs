//! The device layer on real GPUs: the one way to open them (probe, the
//! selection resolved, open) and the kernels compiled and loaded. (The
//! products' kernels are checked in their own crates: the raw modes in
//! skinny-bulk, the lab in skinny-lab, the many-message engine in
//! skinny-many, the AEAD in skinny-aead.)
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).

use skinny_cuda::kernels::BITSLICED;
use skinny_cuda::{DeviceQueue, Gpu, GpuError, GpuSet, SelectError};
use skinny_exec::{GpuSelection, GpuSelectionError};
use skinny_test_support::gpu::open;
use std::sync::Arc;

fn the_set_opens_what_the_probe_counts() {
    let count = open(GpuSet::probe);
    assert!(count >= 1);
    assert_eq!(Gpu::count().unwrap(), count);
    let all: Vec<usize> = (0..count).collect();
    let set = GpuSet::open(&all).unwrap();
    assert_eq!(set.ordinals(), all);
    assert_eq!(GpuSet::all().unwrap().ordinals(), all);
    // The same GPU twice is one GPU listed twice.
    let twice = GpuSet::open(&[0, 0]).unwrap();
    assert!(Arc::ptr_eq(&twice.gpus()[0], &twice.gpus()[1]));
    match GpuSet::open(&[count]).expect_err("an ordinal past the count is refused").without_device() {
        GpuError::NoSuchDevice { ordinal, count: seen } => assert_eq!((*ordinal, *seen), (count, count)),
        e => panic!("{e}"),
    }
}

fn a_selection_opens_the_gpus_it_names_or_says_why_not() {
    let count = open(GpuSet::probe);
    assert_eq!(GpuSet::select(&GpuSelection::All).unwrap().ordinals(), (0..count).collect::<Vec<_>>());
    assert_eq!(GpuSet::select(&GpuSelection::First(1)).unwrap().ordinals(), [0]);
    assert_eq!(GpuSet::choose(&GpuSelection::List(vec![count - 1])).unwrap(), [count - 1]);
    match GpuSet::select(&GpuSelection::First(count + 1)) {
        Err(SelectError::Selection(GpuSelectionError::TooMany { asked, count: seen })) => {
            assert_eq!((asked, seen), (count + 1, count));
        }
        other => panic!("{other:?}"),
    }
}

fn kernels_compile_once_and_load() {
    let gpu = open(Gpu::first);
    gpu.load_module(&BITSLICED).expect("the bitsliced kernels compile and load");
    assert!(gpu.is_compiled(&BITSLICED), "kept in the cache once compiled");
}

fn device_bytes_round_trip_at_a_fixed_address() {
    let gpu = open(Gpu::first);
    let queue = DeviceQueue::new(&gpu).unwrap();
    assert_eq!(queue.ordinal(), gpu.ordinal());
    assert_ne!(queue.handle(), 0, "a stream of its own, not the legacy default stream");
    let host: Vec<u8> = (0..=255).cycle().take(70_001).collect();
    let bytes = queue.upload(&host).unwrap();
    assert_eq!((bytes.len(), bytes.ptr() % 8), (host.len(), 0));
    let mut back = vec![0; host.len()];
    bytes.download(&mut back).unwrap();
    assert_eq!(back, host);
    assert!(matches!(bytes.download(&mut [0; 3]), Err(GpuError::Internal(_))));
    let zeros = queue.zeroed(5).unwrap();
    let mut z = [1u8; 5];
    zeros.download(&mut z).unwrap();
    assert_eq!(z, [0; 5]);
    // Empty: an address all the same, nothing to copy.
    let empty = queue.upload(&[]).unwrap();
    assert!(empty.is_empty() && empty.ptr() != 0);
    empty.download(&mut []).unwrap();
}

skinny_test_support::gpu_test_main! {
    probe: GpuSet::probe,
    gpu: [the_set_opens_what_the_probe_counts, a_selection_opens_the_gpus_it_names_or_says_why_not, kernels_compile_once_and_load, device_bytes_round_trip_at_a_fixed_address],
}
