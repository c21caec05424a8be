// SKINNY, bitsliced across 32 blocks per thread: constant time.
//
// Each thread takes 32 blocks. Their words are transposed (32x32 bit matrices)
// so that register s[q*32 + p] holds bit p of word q of all 32 blocks, one
// block per bit. Every step of the round is then logic on whole registers:
// - SubCells: the specification's NOR/XOR circuit, one 3-input logic
//   operation (LOP3) per layer and output bit; its wire crossings are renamings;
// - AddConstants / AddRoundTweakey: XOR with per-round masks (0 or ~0) from
//   __constant__ memory, at addresses that depend only on the round number;
// - ShiftRows: a renaming; MixColumns: XORs of registers.
// No branch and no memory address depends on the key or the data.
//
// Warp w handles blocks w*1024 .. w*1024+1023; its lane l takes block
// w*1024 + 32*j + l as its j-th block, so each load and store of the warp covers
// 32 consecutive blocks (coalesced).
//
// Kernels (n = number of blocks, iv = little-endian words of a block):
//   bs{128,64}_ecb_enc / _ecb_dec(in, out, n, iv, rounds)   (iv unused)
//   bs{128,64}_ctr(in, out, n, iv, rounds)   out = in ^ E(iv + g)
//   bs{128,64}_cbc_dec(in, out, n, iv, rounds) out = D(in[g]) ^ in[g-1] (iv for g=0)
//   bs{128,64}_cfb_dec(in, out, n, iv, rounds) out = in[g] ^ E(in[g-1]) (iv for g=0)
// `in` and `out` must not overlap.

// Round masks: for each round, cells 0..7 (the rows the tweakey touches), each
// cell's bits from bit 0 up: ~0 where (round tweakey ^ round constant) has a 1.
// 56 rounds (the most) x 8 cells x 8 bits.
__constant__ u32 round_masks[SKINNY_MAX_ROUNDS * 64];
// The same masks with the rounds in reverse order, for decryption: both loops
// then read their masks at addresses that grow with a uniform counter, which
// the compiler serves from uniform registers (with a down-counting index it
// loaded them into ordinary registers, raising register pressure).
__constant__ u32 round_masks_rev[SKINNY_MAX_ROUNDS * 64];

#define MODE_ECB 0
#define MODE_CTR 1
#define MODE_CBC 2
#define MODE_CFB 3

template <int CB>
DEV void encrypt_slices(u32* s, int rounds) {
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
        sub_cells<CB>(s);
        add_round_masks<CB>(s, round_masks + r * 64);
        shift_mix<CB>(s);
    }
}

// The inverse rounds, rotated so that the loop body ends with computed values
// (inverse MixColumns and the masks) rather than with the inverse S-box, whose
// wire crossings would otherwise cost register moves to carry round to round.
template <int CB>
DEV void decrypt_slices(u32* s, int rounds) {
    mix_shift_inv_add<CB>(s, round_masks_rev);
#pragma unroll 1
    for (int i = 1; i < rounds; i++) {
        sub_cells_inv<CB>(s);
        mix_shift_inv_add<CB>(s, round_masks_rev + i * 64);
    }
    sub_cells_inv<CB>(s);
}

// NW = words per block (4: 128-bit, 2: 64-bit); CB = bits per cell.
// Blocks are addressed from one per-thread base pointer with offsets known at
// compile time (block j of a lane is 32 j blocks on), so the 32 loads and
// stores need no address registers of their own.
template <int NW>
struct BlockIo;

template <>
struct BlockIo<4> {
    typedef uint4 V;
    DEV static void load(const V* p, long off, u32 w[4]) {
        uint4 v = p[off];
        w[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w;
    }
    DEV static void store(V* p, long off, const u32 w[4]) {
        uint4 v; v.x = w[0]; v.y = w[1]; v.z = w[2]; v.w = w[3];
        p[off] = v;
    }
    DEV static void counter(const u32* iv, u64 g, u32 w[4]) { counter_words128(iv, g, w); }
};

template <>
struct BlockIo<2> {
    typedef uint2 V;
    DEV static void load(const V* p, long off, u32 w[2]) {
        uint2 v = p[off];
        w[0] = v.x; w[1] = v.y;
    }
    DEV static void store(V* p, long off, const u32 w[2]) {
        uint2 v; v.x = w[0]; v.y = w[1];
        p[off] = v;
    }
    DEV static void counter(const u32* iv, u64 g, u32 w[2]) { counter_words64(iv, g, w); }
};

// The block before block g = first + 32 j: the chaining input of CBC and CFB
// decryption (the IV before block 0).
template <int NW>
DEV void previous_block(const typename BlockIo<NW>::V* p, int j, bool is_first, const u32* iv, u32* w) {
    if (is_first) {
#pragma unroll
        for (int q = 0; q < NW; q++) w[q] = iv[q];
    } else {
        BlockIo<NW>::load(p, 32 * j - 1, w);
    }
}

// Writes this lane's blocks j < valid: the cipher output (slices transposed
// back), XORed with the data (CTR, CFB) or the previous ciphertext (CBC).
template <int NW, int MODE>
DEV void store_blocks(const u32* s, const typename BlockIo<NW>::V* ip, typename BlockIo<NW>::V* op,
                      int valid, bool lane_has_block_0, const u32* iv) {
#pragma unroll
    for (int j = 0; j < 32; j++) {
        if (j < valid) {
            u32 w[NW];
#pragma unroll
            for (int q = 0; q < NW; q++) w[q] = s[q * 32 + j];
            if (MODE == MODE_CTR || MODE == MODE_CFB || MODE == MODE_CBC) {
                u32 x[NW];
                if (MODE == MODE_CBC) previous_block<NW>(ip, j, j == 0 && lane_has_block_0, iv, x);
                else BlockIo<NW>::load(ip, 32 * j, x);
#pragma unroll
                for (int q = 0; q < NW; q++) w[q] ^= x[q];
            }
            BlockIo<NW>::store(op, 32 * j, w);
        }
    }
}

template <int NW, int CB, int MODE, bool DECRYPT>
DEV void bitsliced_kernel(const u32* __restrict__ in, u32* __restrict__ out, u64 n,
                          const u32* iv, int rounds, u64 gtid) {
    typedef typename BlockIo<NW>::V V;
    const u64 warp = gtid >> 5;
    const u32 lane = (u32)(gtid & 31);
    const u64 first = warp * 1024 + lane;
    if (warp * 1024 >= n) return;  // whole warp past the end (uniform)
    // This lane's blocks first + 32 j exist for j < valid.
    const int valid = first >= n ? 0 : (int)min((n - first + 31) / 32, (u64)32);
    const V* ip = reinterpret_cast<const V*>(in) + first;
    V* op = reinterpret_cast<V*>(out) + first;

    u32 s[NW * 32];
#pragma unroll
    for (int j = 0; j < 32; j++) {
        u32 w[NW];
#pragma unroll
        for (int q = 0; q < NW; q++) w[q] = 0;
        if (MODE == MODE_CTR) {
            BlockIo<NW>::counter(iv, first + 32 * (u64)j, w);
        } else if (j < valid) {
            if (MODE == MODE_CFB) previous_block<NW>(ip, j, j == 0 && first == 0, iv, w);
            else BlockIo<NW>::load(ip, 32 * j, w);
        }
#pragma unroll
        for (int q = 0; q < NW; q++) s[q * 32 + j] = w[q];
    }
#pragma unroll
    for (int q = 0; q < NW; q++) transpose32(s + q * 32);

    if (DECRYPT) decrypt_slices<CB>(s, rounds);
    else encrypt_slices<CB>(s, rounds);

#pragma unroll
    for (int q = 0; q < NW; q++) transpose32(s + q * 32);
    // Whole warps (all but the last) store without per-block conditions, which
    // would otherwise split the store phase into branches that hold every value
    // live across them.
    if (warp * 1024 + 1024 <= n) store_blocks<NW, MODE>(s, ip, op, 32, first == 0, iv);
    else store_blocks<NW, MODE>(s, ip, op, valid, first == 0, iv);
}

#ifndef SKINNY_HOSTSIM
#define BS_THREADS SKINNY_BS_THREADS
// Three blocks of 128 threads per SM: at most 168 registers a thread, 12 warps
// an SM to hide load and store latency behind other warps' logic.
#ifndef BS_MIN_BLOCKS
#define BS_MIN_BLOCKS 3
#endif
#define BS_ENTRY(name, NW, CB, MODE, DEC)                                                   \
    extern "C" __global__ void __launch_bounds__(BS_THREADS, BS_MIN_BLOCKS)                               \
    name(const u32* __restrict__ in, u32* __restrict__ out, u64 n, u32 iv0, u32 iv1,       \
         u32 iv2, u32 iv3, int rounds) {                                                    \
        const u32 iv[4] = {iv0, iv1, iv2, iv3};                                             \
        bitsliced_kernel<NW, CB, MODE, DEC>(in, out, n, iv, rounds,                         \
                                            (u64)blockIdx.x * blockDim.x + threadIdx.x);    \
    }
#endif

BS_ENTRY(bs128_ecb_enc, 4, 8, MODE_ECB, false)
BS_ENTRY(bs128_ecb_dec, 4, 8, MODE_ECB, true)
BS_ENTRY(bs128_ctr, 4, 8, MODE_CTR, false)
BS_ENTRY(bs128_cbc_dec, 4, 8, MODE_CBC, true)
BS_ENTRY(bs128_cfb_dec, 4, 8, MODE_CFB, false)
BS_ENTRY(bs64_ecb_enc, 2, 4, MODE_ECB, false)
BS_ENTRY(bs64_ecb_dec, 2, 4, MODE_ECB, true)
BS_ENTRY(bs64_ctr, 2, 4, MODE_CTR, false)
BS_ENTRY(bs64_cbc_dec, 2, 4, MODE_CBC, true)
BS_ENTRY(bs64_cfb_dec, 2, 4, MODE_CFB, false)
