// The bitsliced round function on 32 blocks per thread, shared by the bulk
// kernels (bitsliced.cu) and the experiment kernels (lab.cu): the register
// layout, the 32x32 transposition, the S-box circuits, the linear layer and the
// masked AddRoundTweakey. Constant time: logic on whole registers, no branch or
// address depends on the data. The host prepends it to both sources.

// Register of bit i of cell c. CB = bits per cell (8: 128-bit block, 4: 64-bit).
// 8-bit cells: word q = row q, byte k = column k.
// 4-bit cells: word q = rows 2q, 2q+1; byte k of it holds cells 8q+2k (high
// nibble) and 8q+2k+1 (low nibble).
template <int CB>
DEV constexpr int reg_of(int c, int i) {
    return CB == 8 ? (c >> 2) * 32 + 8 * (c & 3) + i
                   : (c >> 3) * 32 + 8 * ((c & 7) >> 1) + ((c & 1) ? 0 : 4) + i;
}

// One stage of the 32x32 bit transposition: swaps bit p+S of row i with bit p of
// row i+S for rows i and bit positions p with bit S clear. The byte and
// half-word stages are two byte permutations (PRMT) a pair; the others a shift
// and a 3-input select (LOP3) per output.
template <int S>
DEV void transpose_stage(u32* a) {
    const u32 m = S == 4 ? 0x0F0F0F0Fu : S == 2 ? 0x33333333u : 0x55555555u;
#pragma unroll
    for (int i = 0; i < 32; i++) {
        if ((i & S) == 0) {
            const u32 x = a[i], y = a[i + S];
            if (S == 16) {
                a[i] = __byte_perm(x, y, 0x5410);
                a[i + S] = __byte_perm(x, y, 0x7632);
            } else if (S == 8) {
                a[i] = __byte_perm(x, y, 0x6240);
                a[i + S] = __byte_perm(x, y, 0x7351);
            } else {
                a[i] = (x & m) | ((y << S) & ~m);
                a[i + S] = ((x >> S) & m) | (y & ~m);
            }
        }
    }
}

// a[p] bit j <- a[j] bit p (its own inverse).
DEV void transpose32(u32* a) {
    transpose_stage<16>(a);
    transpose_stage<8>(a);
    transpose_stage<4>(a);
    transpose_stage<2>(a);
    transpose_stage<1>(a);
}

// ---- S-boxes on bit slices (b[i] = bit i of the cell) -------------------------

// x ^ ~(a | b) as one explicit LOP3 (truth table 0xE1 for inputs x, a, b): the
// front end would otherwise split the negation out and the back end carry it
// around the round loop as separate NOT instructions.
DEV u32 nor_xor(u32 x, u32 a, u32 b) {
#ifdef SKINNY_HOSTSIM
    return x ^ ~(a | b);
#else
    u32 d;
    asm("lop3.b32 %0, %1, %2, %3, 0xE1;" : "=r"(d) : "r"(x), "r"(a), "r"(b));
    return d;
#endif
}

// a ^ b ^ c as one explicit LOP3 (0x96).
DEV u32 xor3(u32 a, u32 b, u32 c) {
#ifdef SKINNY_HOSTSIM
    return a ^ b ^ c;
#else
    u32 d;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
#endif
}

DEV void nor_layer8(u32* b) {
    b[4] = nor_xor(b[4], b[7], b[6]);
    b[0] = nor_xor(b[0], b[3], b[2]);
}
// (x7..x0) -> (x2,x1,x7,x6,x4,x0,x3,x5)
DEV void permute8(u32* b) {
    u32 t[8] = {b[5], b[3], b[0], b[4], b[6], b[7], b[1], b[2]};
#pragma unroll
    for (int i = 0; i < 8; i++) b[i] = t[i];
}
DEV void permute8_inv(u32* b) {
    u32 t[8] = {b[2], b[6], b[7], b[1], b[3], b[0], b[4], b[5]};
#pragma unroll
    for (int i = 0; i < 8; i++) b[i] = t[i];
}
DEV void swap12(u32* b) {
    u32 t = b[1];
    b[1] = b[2];
    b[2] = t;
}
DEV void sbox8(u32* b) {
    nor_layer8(b); permute8(b);
    nor_layer8(b); permute8(b);
    nor_layer8(b); permute8(b);
    nor_layer8(b); swap12(b);
}
DEV void sbox8_inv(u32* b) {
    swap12(b); nor_layer8(b);
    permute8_inv(b); nor_layer8(b);
    permute8_inv(b); nor_layer8(b);
    permute8_inv(b); nor_layer8(b);
}

DEV void nor_layer4(u32* b) { b[0] = nor_xor(b[0], b[3], b[2]); }
// (x3,x2,x1,x0) -> (x2,x1,x0,x3)
DEV void rotl4(u32* b) {
    u32 t = b[3];
    b[3] = b[2]; b[2] = b[1]; b[1] = b[0]; b[0] = t;
}
DEV void rotr4(u32* b) {
    u32 t = b[0];
    b[0] = b[1]; b[1] = b[2]; b[2] = b[3]; b[3] = t;
}
DEV void sbox4(u32* b) {
    nor_layer4(b); rotl4(b);
    nor_layer4(b); rotl4(b);
    nor_layer4(b); rotl4(b);
    nor_layer4(b);
}
DEV void sbox4_inv(u32* b) {
    nor_layer4(b);
    rotr4(b); nor_layer4(b);
    rotr4(b); nor_layer4(b);
    rotr4(b); nor_layer4(b);
}

template <int CB>
DEV void sub_cells(u32* s) {
#pragma unroll
    for (int c = 0; c < 16; c++) {
        u32 b[CB];
#pragma unroll
        for (int i = 0; i < CB; i++) b[i] = s[reg_of<CB>(c, i)];
        if (CB == 8) sbox8(b); else sbox4(b);
#pragma unroll
        for (int i = 0; i < CB; i++) s[reg_of<CB>(c, i)] = b[i];
    }
}

template <int CB>
DEV void sub_cells_inv(u32* s) {
#pragma unroll
    for (int c = 0; c < 16; c++) {
        u32 b[CB];
#pragma unroll
        for (int i = 0; i < CB; i++) b[i] = s[reg_of<CB>(c, i)];
        if (CB == 8) sbox8_inv(b); else sbox4_inv(b);
#pragma unroll
        for (int i = 0; i < CB; i++) s[reg_of<CB>(c, i)] = b[i];
    }
}

// AddConstants and AddRoundTweakey: the masks into rows 0 and 1; the constant
// c2 = 2 into cell 8 (bit 1), the same every round.
template <int CB>
DEV void add_round_masks(u32* s, const u32* k) {
#pragma unroll
    for (int c = 0; c < 8; c++) {
#pragma unroll
        for (int i = 0; i < CB; i++) s[reg_of<CB>(c, i)] ^= k[c * CB + i];
    }
    s[reg_of<CB>(8, 1)] = ~s[reg_of<CB>(8, 1)];
}

// ShiftRows then MixColumns. After ShiftRows cell (row, col) holds the old cell
// (row, col - row); MixColumns maps a column (a0,a1,a2,a3) to
// (a0^a2^a3, a0, a1^a2, a0^a2).
template <int CB>
DEV void shift_mix(u32* s) {
    // Bit by bit: each bit's 16 cells mix among themselves, so only 16 values
    // are in flight at once (keeps register pressure near the 128-slice state).
#pragma unroll
    for (int i = 0; i < CB; i++) {
        u32 t[16];
#pragma unroll
        for (int col = 0; col < 4; col++) {
            u32 a0 = s[reg_of<CB>(col, i)];
            u32 a1 = s[reg_of<CB>(4 + ((col + 3) & 3), i)];
            u32 a2 = s[reg_of<CB>(8 + ((col + 2) & 3), i)];
            u32 a3 = s[reg_of<CB>(12 + ((col + 1) & 3), i)];
            t[col] = a0 ^ a2 ^ a3;
            t[4 + col] = a0;
            t[8 + col] = a1 ^ a2;
            t[12 + col] = a0 ^ a2;
        }
#pragma unroll
        for (int c = 0; c < 16; c++) s[reg_of<CB>(c, i)] = t[c];
    }
}

// Inverse MixColumns, (b0,b1,b2,b3) -> (b1, b1^b2^b3, b1^b3, b0^b3), then
// inverse ShiftRows (cell (row, col) takes cell (row, col + row)), then the
// round masks (rows 0, 1) and the constant 2 (cell 8): written out so that row 1
// reuses row 2's b1^b3 and takes its mask in the same 3-input operation, four
// operations a column and bit.
template <int CB>
DEV void mix_shift_inv_add(u32* s, const u32* k) {
#pragma unroll
    for (int i = 0; i < CB; i++) {
        u32 t[16];
#pragma unroll
        for (int col = 0; col < 4; col++) {
            u32 b0 = s[reg_of<CB>(col, i)];
            u32 b1 = s[reg_of<CB>(4 + col, i)];
            u32 b2 = s[reg_of<CB>(8 + col, i)];
            u32 b3 = s[reg_of<CB>(12 + col, i)];
            // The mixed column's row r lands in column col - r.
            const int c0 = col, c1 = 4 + ((col + 3) & 3), c2 = 8 + ((col + 2) & 3), c3 = 12 + ((col + 1) & 3);
            u32 r2 = b1 ^ b3;
            t[c0] = b1 ^ k[c0 * CB + i];
            t[c1] = xor3(r2, b2, k[c1 * CB + i]);
            t[c2] = (c2 == 8 && i == 1) ? ~r2 : r2;
            t[c3] = b0 ^ b3;
        }
#pragma unroll
        for (int c = 0; c < 16; c++) s[reg_of<CB>(c, i)] = t[c];
    }
}
