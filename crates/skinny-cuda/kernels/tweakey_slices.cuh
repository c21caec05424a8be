// A tweakey for every block, bitsliced in shared memory and scheduled on the
// fly: the lab's experiments (lab.cu) and the many-message engine (many.cu)
// share it. A thread's 32 tweakeys (query j's, or message j's, in bit j of
// every word) sit cell by cell in its column of its warp's region; the layout
// and the schedule are those described at the top of lab.cu (halves that
// alternate as rows 0-1, slots in the order of P's cycle, the TK2/TK3 LFSRs
// stepped in place by the rounds that read a cell). Needs `lab_rc`, the round
// constants as 0/~0 words, declared here and filled by each user's host code.
#ifndef SKINNY_LAB_THREADS
#error "SKINNY_LAB_THREADS comes from src/kernels.rs"
#endif
#define LAB_T SKINNY_LAB_THREADS
// A thread's shared words go in fours: word w of a thread's column is at
// (w / 4) * LAB_QUAD + (w % 4) * 4 from the column's start (16 * lane), so that
// a cell's words move in 128-bit loads and stores (a quarter of the
// instructions of 32-bit ones; a warp's 512 bytes are four conflict-free
// 128-byte phases).
#define LAB_QUAD (LAB_T * 16)

__constant__ u32 lab_rc[SKINNY_MAX_ROUNDS * 6];  // 0/~0: c0 bits 0..3 (cell 0), c1 bits 0..1 (cell 4)

// Strides of the tweakey layout, in bytes: a cell, a half, a TK array.
#define LAB_CELL_BYTES(CB) ((CB) / 4 * LAB_QUAD)
#define LAB_HALF_BYTES(CB) (8 * LAB_CELL_BYTES(CB))
#define LAB_TK_BYTES(CB) (16 * LAB_CELL_BYTES(CB))

// A cell's CB words, in and out, four at a time. An 8-bit cell keeps its even
// bits in its first four words and its odd bits in the next (word 4 q + j holds
// bit 2 j + q): an LFSR step, which moves every bit by one place, then maps
// one four onto the other whole and the other onto itself shifted, so its
// 128-bit stores need 4 register moves a cell instead of 7 (4-bit cells: one
// four, natural order).
template <int CB>
DEV constexpr int lab_bit_at(int q, int j) { return CB == 8 ? 2 * j + q : 4 * q + j; }

template <int CB>
DEV void lab_get(u32* v, const char* cell) {
#pragma unroll
    for (int q = 0; q < CB / 4; q++) {
        const uint4 x = *reinterpret_cast<const uint4*>(cell + q * LAB_QUAD);
        v[lab_bit_at<CB>(q, 0)] = x.x;
        v[lab_bit_at<CB>(q, 1)] = x.y;
        v[lab_bit_at<CB>(q, 2)] = x.z;
        v[lab_bit_at<CB>(q, 3)] = x.w;
    }
}

template <int CB>
DEV void lab_put(char* cell, const u32* v) {
#pragma unroll
    for (int q = 0; q < CB / 4; q++) {
        uint4 x;
        x.x = v[lab_bit_at<CB>(q, 0)];
        x.y = v[lab_bit_at<CB>(q, 1)];
        x.z = v[lab_bit_at<CB>(q, 2)];
        x.w = v[lab_bit_at<CB>(q, 3)];
        *reinterpret_cast<uint4*>(cell + q * LAB_QUAD) = x;
    }
}

// SLOT_OF[c] = j where CYCLE[j] = c, CYCLE = (0, 1, 7, 3, 5, 6, 4, 2): one
// nibble per cell, so that it folds to an immediate.
DEV constexpr int lab_slot_of(int c) { return (0x25463710 >> (4 * c)) & 7; }

// The LFSR of TK2 (Z_IDX 1) or TK3 (Z_IDX 2) on one bitsliced cell: w = L(v).
// TK2: bits move up one, the new bit 0 is x7 ^ x5 (4-bit cells: x3 ^ x2); TK3:
// bits move down one, the new top bit is x0 ^ x6 (x0 ^ x3).
template <int CB, int Z_IDX>
DEV void lab_lfsr(u32* w, const u32* v) {
    if (Z_IDX == 1) {
#pragma unroll
        for (int i = CB - 1; i > 0; i--) w[i] = v[i - 1];
        w[0] = v[CB - 1] ^ v[CB == 8 ? 5 : 2];
    } else {
#pragma unroll
        for (int i = 0; i < CB - 1; i++) w[i] = v[i + 1];
        w[CB - 1] = v[0] ^ v[CB == 8 ? 6 : 3];
    }
}

// Its inverse: v = L^-1(w).
template <int CB, int Z_IDX>
DEV void lab_lfsr_inv(u32* v, const u32* w) {
    if (Z_IDX == 1) {
#pragma unroll
        for (int i = 0; i < CB - 1; i++) v[i] = w[i + 1];
        v[CB - 1] = w[0] ^ w[CB == 8 ? 6 : 3];
    } else {
#pragma unroll
        for (int i = CB - 1; i > 0; i--) v[i] = w[i - 1];
        v[0] = w[CB - 1] ^ w[CB == 8 ? 5 : 2];
    }
}

// Cell c of TK array z in round r: its CB words start here.
template <int CB>
DEV char* lab_cell(char* col, int r, int c) {
    return col + (r & 1) * LAB_HALF_BYTES(CB) + ((lab_slot_of(c) + (r >> 1)) & 7) * LAB_CELL_BYTES(CB);
}

// The 8*CB round-key registers of round r: TK1 ^ TK2 ^ TK3 at the cells of
// rows 0 and 1, and the round constants c0, c1 (c2 is the round function's).
// FORWARD: the TK2/TK3 cells read are written back stepped by their LFSR (for
// round r + 2); backward (decryption, from round r + 2's cells): they are read
// stepped, stepped back here, and written back so. Folding the arrays into one
// word per bit first keeps 64 values in flight next to the state (XORing each
// loaded word straight into the state made the compiler hoist every load and
// spill).
template <int CB, int Z, bool FORWARD>
DEV void lab_round_key(u32* k, char* col, int r) {
#pragma unroll
    for (int c = 0; c < 8; c++) {
        char* cell = lab_cell<CB>(col, r, c);
        u32 x[CB];
        lab_get<CB>(x, cell);
#pragma unroll
        for (int z = 1; z < Z; z++) {
            char* tz = cell + z * LAB_TK_BYTES(CB);
            u32 v[CB], w[CB];
            lab_get<CB>(v, tz);
            if (FORWARD) {
                if (z == 1) lab_lfsr<CB, 1>(w, v); else lab_lfsr<CB, 2>(w, v);
                lab_put<CB>(tz, w);
#pragma unroll
                for (int i = 0; i < CB; i++) x[i] ^= v[i];
            } else {
                if (z == 1) lab_lfsr_inv<CB, 1>(w, v); else lab_lfsr_inv<CB, 2>(w, v);
                lab_put<CB>(tz, w);
#pragma unroll
                for (int i = 0; i < CB; i++) x[i] ^= w[i];
            }
        }
#pragma unroll
        for (int i = 0; i < CB; i++) k[c * CB + i] = x[i];
    }
    const u32* rc = lab_rc + r * 6;
#pragma unroll
    for (int i = 0; i < 4; i++) k[i] ^= rc[i];
    k[4 * CB] ^= rc[4];
    k[4 * CB + 1] ^= rc[5];
}


// Two rounds a loop pass: rounds 2m and 2m+1 share their slot rotation, so
// the pair computes fewer addresses (390 instructions a round against 408,
// SKINNY-128-256); decryption stays one round a pass (the boomerang, its only
// user, is over its target and the code is smaller).
template <int CB, int Z>
DEV void lab_encrypt(u32* s, char* col, int rounds) {
#pragma unroll 2
    for (int r = 0; r < rounds; r++) {
        u32 k[8 * CB];
        lab_round_key<CB, Z, true>(k, col, r);
        sub_cells<CB>(s);
        add_round_masks<CB>(s, k);
        shift_mix<CB>(s);
    }
}


// From the tweakey state after `rounds` rounds back to the first. Rotated
// like bitsliced.cu's decrypt_slices, so that the loop body ends with computed
// values rather than S-box renamings.
template <int CB, int Z>
DEV void lab_decrypt(u32* s, char* col, int rounds) {
    u32 k[8 * CB];
    lab_round_key<CB, Z, false>(k, col, rounds - 1);
    mix_shift_inv_add<CB>(s, k);
#pragma unroll 1
    for (int r = rounds - 2; r >= 0; r--) {
        sub_cells_inv<CB>(s);
        lab_round_key<CB, Z, false>(k, col, r);
        mix_shift_inv_add<CB>(s, k);
    }
    sub_cells_inv<CB>(s);
}

// One LFSR step of cell v of TK array z (1 or 2), forward or back.
template <int CB, int Z, bool FORWARD>
DEV void lab_step_cell(u32* v, int z) {
    u32 w[CB];
    if (FORWARD) {
        if (z == 1) lab_lfsr<CB, 1>(w, v); else lab_lfsr<CB, 2>(w, v);
    } else {
        if (z == 1) lab_lfsr_inv<CB, 1>(w, v); else lab_lfsr_inv<CB, 2>(w, v);
    }
#pragma unroll
    for (int i = 0; i < CB; i++) v[i] = w[i];
}

// Steps every TK2/TK3 cell of half h by its LFSR `n` times forward, or back
// (the slots' order does not matter: every cell of a half takes the same steps).
template <int CB, int Z, bool FORWARD>
DEV void lab_step_half(char* col, int h, int n) {
#pragma unroll
    for (int z = 1; z < Z; z++) {
#pragma unroll 1
        for (int slot = 0; slot < 8; slot++) {
            char* cell = col + z * LAB_TK_BYTES(CB) + h * LAB_HALF_BYTES(CB) + slot * LAB_CELL_BYTES(CB);
            u32 v[CB];
            lab_get<CB>(v, cell);
            // CB steps at a time unrolled (the renaming of the words is then
            // free), the rest one at a time.
            int j = 0;
#pragma unroll 1
            for (; j + CB <= n; j += CB) {
#pragma unroll
                for (int q = 0; q < CB; q++) lab_step_cell<CB, Z, FORWARD>(v, z);
            }
#pragma unroll 1
            for (; j < n; j++) lab_step_cell<CB, Z, FORWARD>(v, z);
            lab_put<CB>(cell, v);
        }
    }
}

// Back from the state after `rounds` rounds to the first: half 0 served rounds
// 0, 2, ... and half 1 rounds 1, 3, ..., each stepping its cells once.
template <int CB, int Z>
DEV void lab_unschedule(char* col, int rounds) {
    if (Z == 1) return;
    lab_step_half<CB, Z, false>(col, 0, (rounds + 1) >> 1);
    lab_step_half<CB, Z, false>(col, 1, rounds >> 1);
}

// Its inverse: from the first round's state to the state after `rounds`
// rounds, where decryption (lab_decrypt) starts.
template <int CB, int Z>
DEV void lab_schedule(char* col, int rounds) {
    if (Z == 1) return;
    lab_step_half<CB, Z, true>(col, 0, (rounds + 1) >> 1);
    lab_step_half<CB, Z, true>(col, 1, rounds >> 1);
}

