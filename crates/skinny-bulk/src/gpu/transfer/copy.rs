//! The host's side of the slot paths: copying into and out of pinned memory,
//! and XORing keystream into the caller's data, on several threads.

/// `op(dst, src)` over matching parts of the two on up to 8 threads: one
/// thread moves pageable memory at a fraction of what the PCIe link carries.
fn in_parallel(dst: &mut [u8], src: &[u8], op: fn(&mut [u8], &[u8])) {
    const CHUNK: usize = 4 << 20;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if src.len() <= CHUNK || threads == 1 {
        op(dst, src);
        return;
    }
    let per = src.len().div_ceil(threads).div_ceil(4096) * 4096;
    std::thread::scope(|sc| {
        for (d, s) in dst.chunks_mut(per).zip(src.chunks(per)) {
            sc.spawn(move || op(d, s));
        }
    });
}

/// `dst = src` on several threads.
pub(super) fn parallel_copy(dst: &mut [u8], src: &[u8]) {
    in_parallel(dst, src, <[u8]>::copy_from_slice);
}

/// `dst ^= src` on several threads.
pub(super) fn parallel_xor(dst: &mut [u8], src: &[u8]) {
    in_parallel(dst, src, |d, s| {
        // Eight bytes at a time; the compiler vectorises the loop.
        let (d8, d_tail) = d.as_chunks_mut::<8>();
        let (s8, s_tail) = s.as_chunks::<8>();
        for (a, b) in d8.iter_mut().zip(s8) {
            *a = (u64::from_ne_bytes(*a) ^ u64::from_ne_bytes(*b)).to_ne_bytes();
        }
        for (a, b) in d_tail.iter_mut().zip(s_tail) {
            *a ^= b;
        }
    });
}
