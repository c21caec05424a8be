// SKINNY-AEAD (NIST LWC round 2, members M1-M6) on bitsliced SKINNY-128, 32 blocks
// per thread: constant time.
//
// In every member only TK1 changes from block to block, and only its counter
// cells do: an LFSR value in cells 0..7 (M1-M4, a 64-bit LFSR) or 0..2 (M5-M6,
// a 24-bit one). The domain byte, the nonce and the
// key are the same for a whole run of blocks, so the host folds their round
// tweakeys (with the round constants) into masks in __constant__ memory, as for
// one tweakey. The counter cells start in rows 0-1 and TK1 has no LFSR, so they
// are in rows 0-1 in even rounds only: round 2k adds them permuted k times by P
// (P = PT[0..8] - 8), and in odd rounds they sit in rows 2-3, which take no key.
// Each even round therefore XORs the counter slices into the state in the same
// 3-input operation as the masks, and the counter slices are renamed by P
// between even rounds.
//
// Blocks go to lanes as in bitsliced.cu: lane l of warp w takes block
// w*1024 + 32 j + l as its j-th block (coalesced loads). Block g of a launch
// is block `first + g` of the run, whose counter is `start * x^g` (the LFSR's
// step is multiplication by x modulo its polynomial). A small kernel computes
// every warp's first counter (`aead_warp_counters`); each lane multiplies it by
// x^l and then steps by x^32 from block to block. The counters are public.
//
// Kernels (n = blocks in this launch, `counters` = one u64 per warp):
//   aead_{m1,m5}_enc(in, out, n, counters, sums, rounds): out = E(in), sums ^= in
//   aead_{m1,m5}_dec(in, out, n, counters, sums, rounds): out = D(in), sums ^= out
//   aead_{m1,m5}_auth(in, out, n, counters, sums, rounds): sums ^= E(in) (out unused)
// `sums` is SUM_SLOTS x 4 words: warp w XORs its blocks' sum into slot w mod
// SUM_SLOTS (spreading the atomics); the host XORs the slots together.
// `in` and `out` may be the same buffer (each block is read, then written, by
// one thread) but must not otherwise overlap.

#define AEAD_ENC 0
#define AEAD_DEC 1
#define AEAD_AUTH 2

// Slots of the partial sums (a power of two).
#define SUM_SLOTS 1024

// Shared-tweakey masks (domain, nonce, key, round constants) by round, forward
// and reversed (see bitsliced.cu for why decryption reads them reversed).
__constant__ u32 aead_masks[SKINNY_MAX_ROUNDS * 64];
__constant__ u32 aead_masks_rev[SKINNY_MAX_ROUNDS * 64];

// Multiplication by x^k (k < 32) modulo the LFSR's polynomial
// x^BITS + x^4 + x^3 + x + 1, in steps of at most 8 bits so the reduction of
// the bits shifted out (times 0x1b) never overflows again.
template <int BITS>
DEV u64 lfsr_times_x(u64 c, int k) {
    const u64 mask = BITS == 64 ? ~0ull : ((1ull << BITS) - 1);
    while (k > 0) {
        const int s = k < 8 ? k : 8;
        const u64 out = c >> (BITS - s);
        c = ((c << s) & mask) ^ out ^ (out << 1) ^ (out << 3) ^ (out << 4);
        k -= s;
    }
    return c;
}

// a * b modulo the LFSR's polynomial (schoolbook; the values are public).
template <int BITS>
DEV u64 lfsr_mul(u64 a, u64 b) {
    u64 r = 0;
    for (int i = 0; i < BITS; i++) {
        if ((b >> i) & 1) r ^= a;
        a = lfsr_times_x<BITS>(a, 1);
    }
    return r;
}

// counters[w] = start * x^(1024 w) for the warps of a launch: x^(1024 w) from
// `pow_lo[w & 255]` (= x^(1024 (w & 255))) and `pow_hi[w >> 8]`
// (= x^(262144 (w >> 8))), both tables made once by the host.
template <int BITS>
DEV void warp_counters(u64* counters, u64 nwarps, u64 start, const u64* pow_lo, const u64* pow_hi) {
    const u64 w = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= nwarps) return;
    counters[w] = lfsr_mul<BITS>(lfsr_mul<BITS>(start, pow_lo[w & 255]), pow_hi[w >> 8]);
}

// One even round's counter cells XORed into rows 0-1 together with the masks,
// one 3-input operation a slice: cell c of the state takes counter cell
// ctr[c]. All eight cells, even for a 3-byte counter: the renamings by P move
// its cells all over the half.
DEV void add_masks_and_counter(u32* s, const u32* k, const u32* ctr) {
#pragma unroll
    for (int c = 0; c < 8; c++) {
#pragma unroll
        for (int i = 0; i < 8; i++) s[reg_of<8>(c, i)] = xor3(s[reg_of<8>(c, i)], k[c * 8 + i], ctr[c * 8 + i]);
    }
    s[reg_of<8>(8, 1)] = ~s[reg_of<8>(8, 1)];
}

// The counter cells of the next even round: new cell i is old cell P[i], P =
// (1, 7, 0, 5, 2, 6, 4, 3) (checked against the specification's PT by the
// host's tests through the kernel's results).
DEV void permute_counter(u32* t) {
    const int P[8] = {1, 7, 0, 5, 2, 6, 4, 3};
    u32 n[64];
#pragma unroll
    for (int c = 0; c < 8; c++) {
#pragma unroll
        for (int i = 0; i < 8; i++) n[c * 8 + i] = t[P[c] * 8 + i];
    }
#pragma unroll
    for (int q = 0; q < 64; q++) t[q] = n[q];
}

// The inverse renaming: old cell P[i] is new cell i.
DEV void permute_counter_inv(u32* t) {
    const int P[8] = {1, 7, 0, 5, 2, 6, 4, 3};
    u32 n[64];
#pragma unroll
    for (int c = 0; c < 8; c++) {
#pragma unroll
        for (int i = 0; i < 8; i++) n[P[c] * 8 + i] = t[c * 8 + i];
    }
#pragma unroll
    for (int q = 0; q < 64; q++) t[q] = n[q];
}

// Inverse MixColumns then inverse ShiftRows (as mix_shift_inv_add in
// bitsliced_round.cuh, without the masks: here they go in apart, with the
// counter in even rounds).
DEV void mix_shift_inv8(u32* s) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
        u32 t[16];
#pragma unroll
        for (int col = 0; col < 4; col++) {
            const u32 b0 = s[reg_of<8>(col, i)], b1 = s[reg_of<8>(4 + col, i)];
            const u32 b2 = s[reg_of<8>(8 + col, i)], b3 = s[reg_of<8>(12 + col, i)];
            const u32 r2 = b1 ^ b3;
            t[col] = b1;
            t[4 + ((col + 3) & 3)] = r2 ^ b2;
            t[8 + ((col + 2) & 3)] = r2;
            t[12 + ((col + 1) & 3)] = b0 ^ b3;
        }
#pragma unroll
        for (int c = 0; c < 16; c++) s[reg_of<8>(c, i)] = t[c];
    }
}

// Full rounds with the counter slices `t` (cells 0..7 of round 0's rows 0-1).
DEV void aead_encrypt_slices(u32* s, u32* t, int rounds) {
#pragma unroll 1
    for (int r = 0; r + 1 < rounds; r += 2) {
        sub_cells<8>(s);
        add_masks_and_counter(s, aead_masks + r * 64, t);
        shift_mix<8>(s);
        sub_cells<8>(s);
        add_round_masks<8>(s, aead_masks + (r + 1) * 64);
        shift_mix<8>(s);
        permute_counter(t);
    }
    if (rounds & 1) {
        sub_cells<8>(s);
        add_masks_and_counter(s, aead_masks + (rounds - 1) * 64, t);
        shift_mix<8>(s);
    }
}

// The inverse: the counter slices are first renamed forward to the last even
// round, then back by P^-1 after each even round undone.
DEV void aead_decrypt_slices(u32* s, u32* t, int rounds) {
    const int last_even = (rounds - 1) & ~1;
#pragma unroll 1
    for (int r = 0; r < last_even; r += 2) permute_counter(t);
    // Round i of the loop undoes round rounds-1-i; masks_rev + i*64 are its masks.
#pragma unroll 1
    for (int i = 0; i < rounds; i++) {
        const int r = rounds - 1 - i;
        mix_shift_inv8(s);
        if ((r & 1) == 0) {
            add_masks_and_counter(s, aead_masks_rev + i * 64, t);
            if (r > 0) permute_counter_inv(t);
        } else {
            add_round_masks<8>(s, aead_masks_rev + i * 64);
        }
        sub_cells_inv<8>(s);
    }
}

// XOR of `w` over the warp, into slot `slot` of `sums` (lane 0 writes).
DEV void warp_sum(u32 w[4], u32* sums, u64 slot) {
#ifdef SKINNY_HOSTSIM
    // The simulator runs lanes one after another: each adds its own part.
    for (int q = 0; q < 4; q++) sums[slot * 4 + q] ^= w[q];
#else
#pragma unroll
    for (int q = 0; q < 4; q++) {
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) w[q] ^= __shfl_xor_sync(0xffffffffu, w[q], d);
    }
    if ((threadIdx.x & 31) == 0) {
#pragma unroll
        for (int q = 0; q < 4; q++) atomicXor(sums + slot * 4 + q, w[q]);
    }
#endif
}

// BITS = the LFSR's width (64: M1-M4, 24: M5-M6).
template <int BITS, int MODE>
DEV void aead_kernel(const u32* in, u32* out, u64 n, const u64* counters, u32* sums, int rounds,
                     u64 gtid) {
    typedef uint4 V;
    const u64 warp = gtid >> 5;
    const u32 lane = (u32)(gtid & 31);
    const u64 first = warp * 1024 + lane;
    if (warp * 1024 >= n) return;  // whole warp past the end (uniform)
    const int valid = first >= n ? 0 : (int)min((n - first + 31) / 32, (u64)32);
    const V* ip = reinterpret_cast<const V*>(in) + first;
    V* op = reinterpret_cast<V*>(out) + first;

    // The counters of this lane's blocks, transposed like the data: t[8 c + i]
    // bit j = bit i of byte c of block j's counter (little-endian).
    u32 t[64];
    {
        u64 c = lfsr_times_x<BITS>(counters[warp], (int)lane);
#pragma unroll
        for (int j = 0; j < 32; j++) {
            t[j] = (u32)c;
            t[32 + j] = (u32)(c >> 32);
            c = lfsr_times_x<BITS>(c, 32);
        }
        transpose32(t);
        transpose32(t + 32);
    }
    // transpose32 gives t[q*32 + p] = bit p of word q, i.e. bit 8 c + i of the
    // counter at index 8 c + i for c < 4 (word 0) and 32 + 8 (c - 4) + i for
    // c >= 4 (word 1): that is t[8 c + i] for every c.

    u32 s[128];
    u32 sum[4] = {0, 0, 0, 0};
#pragma unroll
    for (int j = 0; j < 32; j++) {
        u32 w[4] = {0, 0, 0, 0};
        if (j < valid) {
            uint4 v = ip[32 * j];
            w[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w;
        }
        if (MODE == AEAD_ENC) {
#pragma unroll
            for (int q = 0; q < 4; q++) sum[q] ^= w[q];
        }
#pragma unroll
        for (int q = 0; q < 4; q++) s[q * 32 + j] = w[q];
    }
#pragma unroll
    for (int q = 0; q < 4; q++) transpose32(s + q * 32);

    if (MODE == AEAD_DEC) aead_decrypt_slices(s, t, rounds);
    else aead_encrypt_slices(s, t, rounds);

#pragma unroll
    for (int q = 0; q < 4; q++) transpose32(s + q * 32);
#pragma unroll
    for (int j = 0; j < 32; j++) {
        if (j < valid) {
            uint4 v;
            v.x = s[j]; v.y = s[32 + j]; v.z = s[64 + j]; v.w = s[96 + j];
            if (MODE != AEAD_ENC) {
                sum[0] ^= v.x; sum[1] ^= v.y; sum[2] ^= v.z; sum[3] ^= v.w;
            }
            if (MODE != AEAD_AUTH) op[32 * j] = v;
        }
    }
    warp_sum(sum, sums, warp & (SUM_SLOTS - 1));
}

#ifndef SKINNY_HOSTSIM
#define AEAD_ENTRY(name, BITS, MODE)                                                          \
    extern "C" __global__ void __launch_bounds__(SKINNY_BS_THREADS, 3)                             \
    name(const u32* in, u32* out, u64 n, const u64* counters, u32* sums, int rounds) {                \
        aead_kernel<BITS, MODE>(in, out, n, counters, sums, rounds,                          \
                                      (u64)blockIdx.x * blockDim.x + threadIdx.x);                 \
    }
#define AEAD_COUNTERS(name, BITS)                                                                   \
    extern "C" __global__ void name(u64* counters, u64 nwarps, u64 start, const u64* pow_lo,       \
                                    const u64* pow_hi) {                                            \
        warp_counters<BITS>(counters, nwarps, start, pow_lo, pow_hi);                              \
    }
#endif

AEAD_ENTRY(aead_m1_enc, 64, AEAD_ENC)
AEAD_ENTRY(aead_m1_dec, 64, AEAD_DEC)
AEAD_ENTRY(aead_m1_auth, 64, AEAD_AUTH)
AEAD_ENTRY(aead_m5_enc, 24, AEAD_ENC)
AEAD_ENTRY(aead_m5_dec, 24, AEAD_DEC)
AEAD_ENTRY(aead_m5_auth, 24, AEAD_AUTH)
AEAD_COUNTERS(aead_m1_counters, 64)
AEAD_COUNTERS(aead_m5_counters, 24)
