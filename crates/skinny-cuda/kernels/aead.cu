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
// 3-input operation as the masks; the counter slices wait in shared memory and
// the renaming by P between even rounds is a change of address (see
// counter_slot).
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
//
// Many messages a launch (the sealed format's chunks, see aead_chunks_kernel):
//   aead_{m1,m5}_{enc,dec}_chunks(in, out, n, counters, warps_log2, table, sums, rounds)
//   aead_expand_masks(table, bits, nchunks, rounds, reverse): the chunks' masks

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

// The counter slices live in shared memory, not registers: beside the
// 128-slice state, 64 more live registers pushed the kernel past the 168 a
// thread that three blocks an SM allow, and it spilled (run 25: M1 seal at
// 0.48x the ECB kernel). Slice i of a cell is word `(slot * 8 + i) * T + tid`
// (T threads a block): a warp's 32 lanes read 32 consecutive words, no bank
// conflicts.
//
// The renaming by P between even rounds moves nothing. P = (1, 7, 0, 5, 2, 6,
// 4, 3) (new cell i = old cell P[i]) is one 8-cycle, 0 -> 1 -> 7 -> 3 -> 5 ->
// 6 -> 4 -> 2 -> 0, so with slot j holding round 0's cell CYCLE[j], k
// renamings are a rotation of the slots by k: in round 2k cell c takes slot
// (SLOT_OF[c] + k) mod 8.
#ifndef AEAD_MIN_BLOCKS
#define AEAD_MIN_BLOCKS 3
#endif
#define AEAD_T SKINNY_BS_THREADS
#ifdef SKINNY_HOSTSIM
// The simulator runs threads one after another: each uses its own column.
static u32 aead_counter_slices[64 * AEAD_T];
#else
__shared__ u32 aead_counter_slices[64 * AEAD_T];
#endif

// SLOT_OF[CYCLE[j]] = j, CYCLE = (0, 1, 7, 3, 5, 6, 4, 2).
DEV int counter_slot(int c, int k) {
    const int SLOT_OF[8] = {0, 1, 7, 3, 6, 4, 5, 2};
    return (SLOT_OF[c] + k) & 7;
}

// One even round's masks and counter cells into rows 0-1, one 3-input
// operation a slice; `ctr` is this thread's column, `k` the round's number of
// renamings (round 2k). All eight cells, even for a 3-byte counter: the
// renamings move its cells all over the half.
DEV void add_masks_and_counter(u32* s, const u32* k, const u32* ctr, int rot) {
#pragma unroll
    for (int c = 0; c < 8; c++) {
        const u32* cell = ctr + counter_slot(c, rot) * 8 * AEAD_T;
#pragma unroll
        for (int i = 0; i < 8; i++) s[reg_of<8>(c, i)] = xor3(s[reg_of<8>(c, i)], k[c * 8 + i], cell[i * AEAD_T]);
    }
    s[reg_of<8>(8, 1)] = ~s[reg_of<8>(8, 1)];
}

// mix_shift_inv_add (bitsliced_round.cuh) with an even round's counter cells
// added to rows 0-1 beside the masks: one operation more a column and bit, for
// row 1.
DEV void mix_shift_inv_add_counter(u32* s, const u32* k, const u32* ctr, int rot) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
        u32 t[16];
#pragma unroll
        for (int col = 0; col < 4; col++) {
            const u32 b0 = s[reg_of<8>(col, i)], b1 = s[reg_of<8>(4 + col, i)];
            const u32 b2 = s[reg_of<8>(8 + col, i)], b3 = s[reg_of<8>(12 + col, i)];
            const int c0 = col, c1 = 4 + ((col + 3) & 3), c2 = 8 + ((col + 2) & 3), c3 = 12 + ((col + 1) & 3);
            const u32 r2 = b1 ^ b3;
            t[c0] = xor3(b1, k[c0 * 8 + i], ctr[(counter_slot(c0, rot) * 8 + i) * AEAD_T]);
            t[c1] = xor3(r2, b2, k[c1 * 8 + i]) ^ ctr[(counter_slot(c1, rot) * 8 + i) * AEAD_T];
            t[c2] = (c2 == 8 && i == 1) ? ~r2 : r2;
            t[c3] = b0 ^ b3;
        }
#pragma unroll
        for (int c = 0; c < 16; c++) s[reg_of<8>(c, i)] = t[c];
    }
}

// Full rounds, two a loop pass (the counter in the even one). `masks`: the
// shared-tweakey masks by round (`aead_masks`, or one chunk's row of the
// chunk kernels' table).
DEV void aead_encrypt_slices(u32* s, const u32* ctr, int rounds, const u32* masks) {
    int k = 0;
#pragma unroll 1
    for (int r = 0; r + 1 < rounds; r += 2, k++) {
        sub_cells<8>(s);
        add_masks_and_counter(s, masks + r * 64, ctr, k);
        shift_mix<8>(s);
        sub_cells<8>(s);
        add_round_masks<8>(s, masks + (r + 1) * 64);
        shift_mix<8>(s);
    }
    if (rounds & 1) {
        sub_cells<8>(s);
        add_masks_and_counter(s, masks + (rounds - 1) * 64, ctr, k);
        shift_mix<8>(s);
    }
}

// The inverse rounds for an even number of rounds (every SKINNY-128 variant:
// 40, 48, 56), rotated as decrypt_slices in bitsliced.cu so the loop body ends
// with computed values. Step i undoes round rounds-1-i with masks_rev + 64 i;
// the odd steps are the even rounds, with the counter. `masks_rev`: the masks
// with the rounds reversed.
DEV void aead_decrypt_slices(u32* s, const u32* ctr, int rounds, const u32* masks_rev) {
    mix_shift_inv_add<8>(s, masks_rev);
    int k = (rounds - 2) / 2;
#pragma unroll 1
    for (int i = 1; i + 1 < rounds; i += 2, k--) {
        sub_cells_inv<8>(s);
        mix_shift_inv_add_counter(s, masks_rev + i * 64, ctr, k);
        sub_cells_inv<8>(s);
        mix_shift_inv_add<8>(s, masks_rev + (i + 1) * 64);
    }
    sub_cells_inv<8>(s);
    mix_shift_inv_add_counter(s, masks_rev + (rounds - 1) * 64, ctr, 0);
    sub_cells_inv<8>(s);
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

// One warp's 1024 blocks (this lane's 32): blocks warp*1024 + 32 j + lane of
// `in` under the counter `counter * x^(32 j + lane)` and the masks `masks`
// (`masks_rev` to decrypt), their sum into slot `slot` of `sums`. The caller
// has returned already for a warp wholly past the `n` blocks.
// BITS = the LFSR's width (64: M1-M4, 24: M5-M6).
template <int BITS, int MODE>
DEV void aead_warp(const u32* in, u32* out, u64 n, u64 counter, const u32* masks, const u32* masks_rev, u32* sums,
                   u64 slot, int rounds, u64 gtid) {
    typedef uint4 V;
    const u64 warp = gtid >> 5;
    const u32 lane = (u32)(gtid & 31);
    const u64 first = warp * 1024 + lane;
    const int valid = first >= n ? 0 : (int)min((n - first + 31) / 32, (u64)32);
    const V* ip = reinterpret_cast<const V*>(in) + first;
    V* op = reinterpret_cast<V*>(out) + first;

    // The counters of this lane's blocks, transposed like the data: t[8 c + i]
    // bit j = bit i of byte c of block j's counter (little-endian).
    u32 t[64];
    {
        u64 c = lfsr_times_x<BITS>(counter, (int)lane);
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
    u32* ctr = aead_counter_slices + threadIdx.x;
#pragma unroll
    for (int c = 0; c < 8; c++) {
#pragma unroll
        for (int i = 0; i < 8; i++) ctr[(counter_slot(c, 0) * 8 + i) * AEAD_T] = t[8 * c + i];
    }

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

    if (MODE == AEAD_DEC) aead_decrypt_slices(s, ctr, rounds, masks_rev);
    else aead_encrypt_slices(s, ctr, rounds, masks);

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
    warp_sum(sum, sums, slot);
}

// One run of blocks under the masks in __constant__ memory (the pointers stay
// constant-space after inlining: the same code as before the split).
template <int BITS, int MODE>
DEV void aead_kernel(const u32* in, u32* out, u64 n, const u64* counters, u32* sums, int rounds,
                     u64 gtid) {
    const u64 warp = gtid >> 5;
    if (warp * 1024 >= n) return;  // whole warp past the end (uniform)
    aead_warp<BITS, MODE>(in, out, n, counters[warp], aead_masks, aead_masks_rev, sums, warp & (SUM_SLOTS - 1),
                          rounds, gtid);
}

// ---------------------------------------------------------------------------
// Many messages in one launch: the sealed format's chunks (`skinny seal` /
// `skinny open` on the GPU). Every chunk is a message of its own: its own
// nonce (so its own shared-tweakey masks), its counter restarting at the
// LFSR's start, its own checksum.
//
// Chunk c lies at block c << chunk_log2 - 4 of the buffer (a power of two of at
// least 16 KiB, so a warp's 1024 blocks never straddle two chunks): warp w
// serves chunk w >> warps_log2 (warps_log2 = chunk_log2 - 14) at position
// w & (2^warps_log2 - 1) inside it. Only the last chunk of a launch may be
// short; `n` counts the whole blocks up to its end, as in one run.
//
// The masks of every chunk come from a device table, one row of `rounds` x 64
// words a chunk, in the order the kernel reads them (reversed to decrypt). Why
// a table filled by the host's key schedule rather than the masks derived on
// the device: the host runs SKINNY's key schedule for a chunk in about a
// microsecond (rayon, per window), and sends 8 bytes a round
// (`round_key_bits`, 448 bytes a chunk for M1: under 1 % of a 64 KiB chunk);
// `aead_expand_masks` spreads them into words on the device. The alternative,
// the schedule's linearity (masks of chunk i = masks of chunk 0 XOR the masks
// of the changed nonce bits), would save the host that microsecond at the cost
// of a second, subtler derivation of secret masks. A warp reads its row with
// uniform addresses (one broadcast load a word, the L1 serving the warps of a
// chunk); the reads depend on the chunk index only, which is public: constant
// time as before.
//
// The counters depend only on a warp's position inside its chunk, so the host
// uploads them once for a chunk size: counters[k] = start * x^(1024 k), k <
// 2^warps_log2 (at most 1024, for 16 MiB chunks). Sums: one slot (4 words) a
// chunk; a chunk's warps XOR into it (at most 1024 atomics an address).

// table[(c * rounds + s) * 64 + i] = ~0 where bit i of round r's key bits of
// chunk c is 1 (r = s, or rounds - 1 - s when `reverse`): the layout of
// constants.rs's bitsliced_masks(_reversed), from `bits[c * rounds + r]`.
DEV void expand_masks(u32* table, const u64* bits, u64 nchunks, int rounds, int reverse, u64 t) {
    const u64 per = (u64)rounds * 64;
    if (t >= nchunks * per) return;
    const u64 c = t / per;
    const int slot = (int)((t % per) / 64), i = (int)(t % 64);
    const int r = reverse ? rounds - 1 - slot : slot;
    table[t] = 0u - (u32)((bits[c * rounds + r] >> i) & 1);
}

template <int BITS, int MODE>
DEV void aead_chunks_kernel(const u32* in, u32* out, u64 n, const u64* counters, int warps_log2, const u32* table,
                            u32* sums, int rounds, u64 gtid) {
    const u64 warp = gtid >> 5;
    if (warp * 1024 >= n) return;  // whole warp past the end (uniform)
    const u64 chunk = warp >> warps_log2;
    const u32* masks = table + chunk * (u64)rounds * 64;
    aead_warp<BITS, MODE>(in, out, n, counters[warp & ((1ull << warps_log2) - 1)], masks, masks, sums, chunk, rounds,
                          gtid);
}

#ifndef SKINNY_HOSTSIM
#define AEAD_ENTRY(name, BITS, MODE)                                                          \
    extern "C" __global__ void __launch_bounds__(SKINNY_BS_THREADS, AEAD_MIN_BLOCKS)                             \
    name(const u32* in, u32* out, u64 n, const u64* counters, u32* sums, int rounds) {                \
        aead_kernel<BITS, MODE>(in, out, n, counters, sums, rounds,                          \
                                      (u64)blockIdx.x * blockDim.x + threadIdx.x);                 \
    }
#define AEAD_CHUNKS_ENTRY(name, BITS, MODE)                                                    \
    extern "C" __global__ void __launch_bounds__(SKINNY_BS_THREADS, AEAD_MIN_BLOCKS)                \
    name(const u32* in, u32* out, u64 n, const u64* counters, int warps_log2,                       \
         const u32* __restrict__ table,                                                             \
         u32* sums, int rounds) {                                                                   \
        aead_chunks_kernel<BITS, MODE>(in, out, n, counters, warps_log2, table, sums, rounds,       \
                                       (u64)blockIdx.x * blockDim.x + threadIdx.x);                 \
    }
extern "C" __global__ void aead_expand_masks(u32* table, const u64* bits, u64 nchunks, int rounds, int reverse) {
    expand_masks(table, bits, nchunks, rounds, reverse, (u64)blockIdx.x * blockDim.x + threadIdx.x);
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
AEAD_CHUNKS_ENTRY(aead_m1_enc_chunks, 64, AEAD_ENC)
AEAD_CHUNKS_ENTRY(aead_m1_dec_chunks, 64, AEAD_DEC)
AEAD_CHUNKS_ENTRY(aead_m5_enc_chunks, 24, AEAD_ENC)
AEAD_CHUNKS_ENTRY(aead_m5_dec_chunks, 24, AEAD_DEC)
AEAD_COUNTERS(aead_m1_counters, 64)
AEAD_COUNTERS(aead_m5_counters, 24)
