// The paper's kernel (Xie, Wei, Liu 2021): SKINNY-128 with fused T-table rounds,
// one thread per 16-byte block, tables and round tweakeys in __constant__ memory.
//
// NOT CONSTANT TIME: the tables are indexed by state bytes, which depend on the
// key and the data. Kept as the baseline the constant-time kernels are measured
// against, and offered only as backend `gpu-paper`.
//
// The state is kept as four column words: byte r of word c is cell (row r, col c).
// Encryption round (SubCells, AddConstants, AddRoundTweakey, ShiftRows,
// MixColumns) for column c: four look-ups and five XORs,
//   c' = T0[x(0,c)] ^ T1[x(1,c-1)] ^ T2[x(2,c-2)] ^ T3[x(3,c-3)] ^ RK[r][c] ^ RC[r][c]
// where Tj[x] is S(x) spread over the rows that column j of the binary
// MixColumns matrix selects, and RK, RC are the round tweakey and the round
// constants through ShiftRows and MixColumns (linear, so they can be added last).
//
// Decryption runs the inverse round in the same shape on the state v = ShiftRows(u)
// (u: the state just before the inverse S-box):
//   v'(c) = TI0[v(0,c)] ^ TI1[v(1,c+1)] ^ TI2[v(2,c+2)] ^ TI3[v(3,c+3)] ^ DK[r][c] ^ DC[r][c]
// with TIj[x] = S^-1(x) spread over the rows of column j of the inverse matrix and
// DK, DC the round tweakey and constants through ShiftRows.
//
// Kernels (n = number of blocks; iv = little-endian words of a block; 512
// threads per block, grid = ceil(n / 512)):
//   paper_ecb_enc(in, out, n, iv, rounds), paper_ecb_dec(...), paper_ctr(...)

__constant__ u32 T[4][256];
__constant__ u32 TI[4][256];
__constant__ u32 SINV[256];
__constant__ u32 RK[SKINNY_MAX_ROUNDS][4];
__constant__ u32 RC[SKINNY_MAX_ROUNDS][4];
__constant__ u32 DK[SKINNY_MAX_ROUNDS][4];
__constant__ u32 DC[SKINNY_MAX_ROUNDS][4];

#define BYTE(w, r) (((w) >> (8 * (r))) & 0xffu)

// Row words (word r = row r, byte c = column c) <-> column words; its own inverse.
DEV void transpose_bytes(u32 w[4]) {
    u32 o[4];
#pragma unroll
    for (int c = 0; c < 4; c++)
        o[c] = BYTE(w[0], c) | (BYTE(w[1], c) << 8) | (BYTE(w[2], c) << 16) | (BYTE(w[3], c) << 24);
#pragma unroll
    for (int c = 0; c < 4; c++) w[c] = o[c];
}

DEV void paper_encrypt(u32 x[4], int rounds) {
    transpose_bytes(x);
    for (int r = 0; r < rounds; r++) {
        u32 y[4];
#pragma unroll
        for (int c = 0; c < 4; c++) {
            y[c] = T[0][BYTE(x[c], 0)] ^ T[1][BYTE(x[(c + 3) & 3], 1)] ^ T[2][BYTE(x[(c + 2) & 3], 2)] ^
                   T[3][BYTE(x[(c + 1) & 3], 3)] ^ RK[r][c] ^ RC[r][c];
        }
#pragma unroll
        for (int c = 0; c < 4; c++) x[c] = y[c];
    }
    transpose_bytes(x);
}

// Inverse MixColumns on one column word: (b0,b1,b2,b3) -> (b1, b1^b2^b3, b1^b3, b0^b3).
DEV u32 mix_inv_word(u32 w) {
    u32 b0 = BYTE(w, 0), b1 = BYTE(w, 1), b2 = BYTE(w, 2), b3 = BYTE(w, 3);
    return b1 | ((b1 ^ b2 ^ b3) << 8) | ((b1 ^ b3) << 16) | ((b0 ^ b3) << 24);
}

DEV void paper_decrypt(u32 x[4], int rounds) {
    transpose_bytes(x);
    // v = MixColumns^-1(ciphertext) ^ ShiftRows(K[last])
#pragma unroll
    for (int c = 0; c < 4; c++) x[c] = mix_inv_word(x[c]) ^ DK[rounds - 1][c] ^ DC[rounds - 1][c];
    for (int r = rounds - 1; r > 0; r--) {
        u32 y[4];
#pragma unroll
        for (int c = 0; c < 4; c++) {
            y[c] = TI[0][BYTE(x[c], 0)] ^ TI[1][BYTE(x[(c + 1) & 3], 1)] ^ TI[2][BYTE(x[(c + 2) & 3], 2)] ^
                   TI[3][BYTE(x[(c + 3) & 3], 3)] ^ DK[r - 1][c] ^ DC[r - 1][c];
        }
#pragma unroll
        for (int c = 0; c < 4; c++) x[c] = y[c];
    }
    // plaintext = S^-1(ShiftRows^-1(v)): cell (row, c) = S^-1(v(row, c + row))
    u32 y[4];
#pragma unroll
    for (int c = 0; c < 4; c++) {
        y[c] = SINV[BYTE(x[c], 0)] | (SINV[BYTE(x[(c + 1) & 3], 1)] << 8) |
               (SINV[BYTE(x[(c + 2) & 3], 2)] << 16) | (SINV[BYTE(x[(c + 3) & 3], 3)] << 24);
    }
#pragma unroll
    for (int c = 0; c < 4; c++) x[c] = y[c];
    transpose_bytes(x);
}

DEV void paper_block(const u32* in, u32* out, u64 n, const u32* iv, int rounds, int mode, u64 g) {
    if (g >= n) return;
    const uint4* in4 = reinterpret_cast<const uint4*>(in);
    uint4* out4 = reinterpret_cast<uint4*>(out);
    u32 x[4];
    if (mode == 2) {
        counter_words128(iv, g, x);  // CTR: the counter lives in registers
    } else {
        uint4 v = in4[g];
        x[0] = v.x; x[1] = v.y; x[2] = v.z; x[3] = v.w;
    }
    if (mode == 1) paper_decrypt(x, rounds);
    else paper_encrypt(x, rounds);
    if (mode == 2) {
        uint4 v = in4[g];
        x[0] ^= v.x; x[1] ^= v.y; x[2] ^= v.z; x[3] ^= v.w;
    }
    uint4 o;
    o.x = x[0]; o.y = x[1]; o.z = x[2]; o.w = x[3];
    out4[g] = o;
}

#ifndef SKINNY_HOSTSIM
#define PAPER_ENTRY(name, MODE)                                                             \
    extern "C" __global__ void __launch_bounds__(SKINNY_PAPER_THREADS)                                       \
    name(const u32* __restrict__ in, u32* __restrict__ out, u64 n, u32 iv0, u32 iv1,        \
         u32 iv2, u32 iv3, int rounds) {                                                     \
        const u32 iv[4] = {iv0, iv1, iv2, iv3};                                              \
        paper_block(in, out, n, iv, rounds, MODE, (u64)blockIdx.x * blockDim.x + threadIdx.x); \
    }
#endif

PAPER_ENTRY(paper_ecb_enc, 0)
PAPER_ENTRY(paper_ecb_dec, 1)
PAPER_ENTRY(paper_ctr, 2)
