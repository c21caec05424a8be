// What the kernels' CUDA C++ needs to compile as plain C++ on the host, for
// the simulators (hostsim.cpp, lab.cpp, ...): CUDA's qualifiers as nothing, and the
// few intrinsics the kernels use, written out.
#pragma once
#include <cstdint>
#define SKINNY_HOSTSIM
#define DEV inline
#define BSWAP32(x) __builtin_bswap32(x)
#define __constant__
#define __global__
#define __restrict__ __restrict
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
struct dim3 { unsigned x, y, z; };
static dim3 blockIdx, blockDim, gridDim, threadIdx;
// CUDA's byte permutation: result byte i is byte (s >> 4i) & 7 of y:x.
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++) r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}

// Cache-hinted global loads and stores: plain ones here.
template <typename T> static inline T __ldcg(const T* p) { return *p; }
template <typename T> static inline void __stcg(T* p, T v) { *p = v; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
template <typename T, typename U> static inline T atomicAdd(T* p, U v) { T old = *p; *p += (T)v; return old; }
