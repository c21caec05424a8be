// Shared by every SKINNY kernel source (prepended by the host before NVRTC
// compiles a kernel file; also included by the host-side simulator).
//
// Block layout in device memory: a block's bytes as the specification orders
// them (cells row by row; 4-bit cells: high nibble first). Loaded as
// little-endian 32-bit words, so word q holds bytes 4q..4q+3 with byte 4q in
// bits 0..7.

typedef unsigned int u32;
typedef unsigned long long u64;

// Constants shared with the Rust side, which passes them as -D options
// (crates/skinny-cuda/src/kernels.rs: MAX_ROUNDS, BITSLICED_THREADS,
// PAPER_THREADS); they have one home, there.
#if !defined(SKINNY_MAX_ROUNDS) || !defined(SKINNY_BS_THREADS) || !defined(SKINNY_PAPER_THREADS)
#error "SKINNY_MAX_ROUNDS, SKINNY_BS_THREADS and SKINNY_PAPER_THREADS come from src/kernels.rs"
#endif

#ifndef SKINNY_HOSTSIM
#define DEV __device__ __forceinline__
#define BSWAP32(x) __byte_perm((x), 0u, 0x0123u)
#endif

// Counter block number `g` past the start `iv` (a big-endian integer of the
// block's width, wrapping), as the little-endian words of its bytes. `iv` is
// given as the little-endian words of its bytes too. The 128-bit sum is done as
// two 64-bit halves with the carry between them.
DEV void counter_words128(const u32 iv[4], u64 g, u32 w[4]) {
    u64 hi = ((u64)BSWAP32(iv[0]) << 32) | BSWAP32(iv[1]);
    u64 lo = ((u64)BSWAP32(iv[2]) << 32) | BSWAP32(iv[3]);
    u64 nlo = lo + g;
    hi += (nlo < lo) ? 1ull : 0ull;  // carry, a select not a branch
    w[0] = BSWAP32((u32)(hi >> 32));
    w[1] = BSWAP32((u32)hi);
    w[2] = BSWAP32((u32)(nlo >> 32));
    w[3] = BSWAP32((u32)nlo);
}

DEV void counter_words64(const u32 iv[2], u64 g, u32 w[2]) {
    u64 n = (((u64)BSWAP32(iv[0]) << 32) | BSWAP32(iv[1])) + g;
    w[0] = BSWAP32((u32)(n >> 32));
    w[1] = BSWAP32((u32)n);
}

// Fills `n` words with pseudo-random data (splitmix64 of the index), for
// benchmarks: timing on zeros would hide unwritten outputs.
extern "C" __global__ void skinny_fill_random(u32* p, u64 n, u64 seed) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u64 stride = (u64)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        u64 z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        p[i] = (u32)(z ^ (z >> 31));
    }
}
