// The lab kernels' per-key counting (runs with per-key distributions): each
// key group's hits added to its own counter, summed within a warp first. Put
// before lab.cu by the host (skinny-cuda's kernels.rs) and by the host
// simulator.

// LAB_PEERS(key): the lanes of the warp with the same key; LAB_PEER_SUM and
// LAB_PEER_LEADER: their sum and their lowest lane (the host simulator runs
// one lane at a time: each is its own warp).
#ifdef SKINNY_HOSTSIM
#define LAB_PEERS(key) 1u
#define LAB_PEER_SUM(peers, x) ((void)(peers), (x))
#define LAB_PEER_LEADER(peers) ((void)(peers), true)
#else
#define LAB_PEERS(key) __match_any_sync(0xffffffffu, (key))
#define LAB_PEER_SUM(peers, x) __reduce_add_sync((peers), (x))
#define LAB_PEER_LEADER(peers) ((u32)(__ffs(peers) - 1) == (threadIdx.x & 31))
#endif

// Per-key counts: the hits of queries q0 .. q0 + valid - 1 (bit j of `hit`
// for query q0 + j) added to their key groups' counters, group g at
// key_hits[g - start / key_every] (groups relative to the launch's first). A
// thread whose queries lie in one group sums with the warp's other lanes of
// that group: one atomic a group a warp. A thread whose queries straddle
// groups (key_every < 32, or at a group's edge) adds each group's part itself.
// Every lane of the warp must call this (the match is warp-wide).
DEV void lab_count_keys(u32 hit, u64 start, u64 q0, int valid, u64 key_every, u32* key_hits) {
    const u64 first = start / key_every;
    const u64 g0 = q0 / key_every;
    const bool single = valid > 0 && (q0 + (u64)(valid - 1)) / key_every == g0;
    // A launch has at most 2^25 + 1 groups: no group is 0xffffffff.
    const u32 rel = single ? (u32)(g0 - first) : 0xffffffffu;
    const u32 peers = LAB_PEERS(rel);
    if (single) {
        const u32 n = LAB_PEER_SUM(peers, (u32)__popc(hit));
        if (LAB_PEER_LEADER(peers) && n != 0) atomicAdd(key_hits + rel, n);
        return;
    }
    // Runs of bits by group: from bit j, key_every - within queries remain
    // in group g.
    u64 g = g0 - first, within = q0 % key_every;
    u32 rest = hit;
    int j = 0;
#pragma unroll 1
    while (rest != 0) {
        const u64 left = key_every - within;
        const int len = left >= (u64)(32 - j) ? 32 - j : (int)left;
        const u32 run = len == 32 ? ~0u : ((1u << len) - 1u) << j;
        const u32 n = (u32)__popc(rest & run);
        if (n != 0) atomicAdd(key_hits + g, n);
        rest &= ~run;
        j += len;
        g++;
        within = 0;
    }
}

// The histogram of whole key groups (per-key runs with small groups): a
// launch's per-key counts reduced on the GPU, so the host reads back the
// histogram (a count per possible number of hits) and not one counter per
// group (2^25 of them a launch with a fresh key every query). A group's
// count h adds one to hist[min(h, bins)]: bins = key_every + 1, and
// hist[bins] counts groups with more hits than queries (a fault the host
// reports). Lanes with equal counts add once for the warp; every lane of the
// warp must call this (the match is warp-wide), `valid` false for lanes past
// the end.
DEV void lab_key_histogram_add(u32 h, bool valid, u32 bins, u32* hist) {
    const u32 bin = valid ? (h < bins ? h : bins) : 0xffffffffu;
    const u32 peers = LAB_PEERS(bin);
    if (valid && LAB_PEER_LEADER(peers)) atomicAdd(hist + bin, (u32)__popc(peers));
}

// Histograms of at most this many bins (with the fault bin) are summed in
// each block's shared memory first (16 KiB), then added to hist once a block.
#define LAB_HIST_SHARED_BINS 4096

#ifndef SKINNY_HOSTSIM
// lab_key_histogram(key_hits, from, to, bins, hist): adds key_hits[from ..
// to) to hist (bins + 1 counters, zeroed by the host), as
// lab_key_histogram_add. Any grid of 1-D blocks of whole warps; each warp
// steps through the groups together.
extern "C" __global__ void lab_key_histogram(const u32* key_hits, u32 from, u32 to, u32 bins, u32* hist) {
    __shared__ u32 local[LAB_HIST_SHARED_BINS];
    const bool in_shared = bins < LAB_HIST_SHARED_BINS;
    if (in_shared) {
        for (u32 i = threadIdx.x; i <= bins; i += blockDim.x) local[i] = 0;
        __syncthreads();
    }
    u32* into = in_shared ? local : hist;
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 base = from + blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < to; base += stride) {
        const u32 g = base + (threadIdx.x & 31u);
        const bool valid = g < to;
        lab_key_histogram_add(valid ? key_hits[g] : 0u, valid, bins, into);
    }
    if (in_shared) {
        __syncthreads();
        for (u32 i = threadIdx.x; i <= bins; i += blockDim.x)
            if (local[i] != 0) atomicAdd(hist + i, local[i]);
    }
}
#endif
