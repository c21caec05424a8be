// The lab's experiments on reduced-round SKINNY: every query draws its own
// plaintext and its own tweakey from the counter-based generator, so every
// block of a thread has a tweakey of its own, scheduled on the fly.
//
// A thread takes batches of 32 consecutive queries q0 .. q0+31 (query q0+j in
// bit j of every register, as in bitsliced.cu). Its registers hold the 32
// states; its 32 tweakeys, bitsliced the same way (Z arrays of 16 cells), live
// in shared memory, one column per thread: each warp of a block has a region
// of its own, in which word w of lane l is at w*T + l (T = SKINNY_LAB_THREADS =
// 32), so a warp's access to one word is 32 consecutive words, free of bank
// conflicts (256 words of SKINNY-128-256
// tweakey would not fit in registers next to the 128-register state). The
// block kept across the two halves of a query (C, or P3) goes to a global
// scratch buffer, a slab of 32 x NW*32 words per warp with word w of lane l at
// slab[w*32 + l]: coalesced, and at offsets known at compile time (a stride
// given at run time cost one address register per word and spilled). It is
// touched three times a batch; in shared memory it would halve the warps an
// SM can hold.
//
// The tweakey schedule moves nothing. Its cell permutation and the LFSRs' bit
// shifts are renamings, tracked on the host (src/lab.rs): `lab_ark` says which
// shared word holds bit i of cell c of TKz in round r, `lab_lfsr` which word
// gets XORed with which after round r (the one real operation of an LFSR step:
// its new bit goes where its dropped bit was). Both repeat every 16 rounds
// (the permutation has order 16; each cell takes 8 LFSR steps in that time);
// a host test checks it. An update is its own inverse (a ^= b with b
// untouched), so decryption walks the same tables back.
//
// Related tweakeys cost no second schedule: the schedule is linear, so
// K ^ d is K's words with the words where d's schedule has a 1 negated; the
// host lists those words for d at the start (`lab_delta_init`) and after the
// last round (`lab_delta_fin`).
//
// Constant time is not needed here (public random data), but nothing branches
// on the data anyway apart from recording hits.
//
// Kernels (one per block width, tweakey size and experiment):
//   lab{128,64}_tk{1,2,3}_{differential,boomerang}(start, count, key_every,
//       plain_state, key_state, rounds, hits, rec_n, rec, rec_cap, scratch)
// run queries start .. start+count, 32 a thread. Query q's plaintext
// words and its key group's (g = q / key_every) tweakey words come from the
// generator of skinny-lab's rng.rs: word w of item i of a stream =
// mix(mix(state ^ i) ^ (w+1)*phi), state = the stream's seeded state (given).
// Hits are added to *hits; with rec_cap > 0 each hit's query index goes to
// rec[atomicAdd(rec_n)] while there is room (the host sees rec_n > rec_cap as
// overflow).

#ifndef SKINNY_LAB_THREADS
#error "SKINNY_LAB_THREADS comes from src/kernels.rs"
#endif
#define LAB_T SKINNY_LAB_THREADS
#define LAB_STRIDE (LAB_T * 4)  // bytes between a thread's consecutive shared words

// Shared word offsets (bytes, already times LAB_STRIDE), see the host's lab.rs.
__constant__ u32 lab_ark[16 * 3 * 64];     // (r % 16, z, 8-cell index c*CB + i)
__constant__ u32 lab_lfsr[16 * 16 * 2];    // (r % 16, pair, {a, b}): word a ^= word b
__constant__ u32 lab_rc[SKINNY_MAX_ROUNDS * 6];  // 0/~0: c0 bits 0..3 (cell 0), c1 bits 0..1 (cell 4)
__constant__ u32 lab_dp[128];       // the plaintext difference, 0/~0 per state register
__constant__ u32 lab_dc[128];       // the boomerang's ciphertext difference
__constant__ u32 lab_target[128];   // what the compared difference must be
__constant__ u32 lab_mask[128];     // which compared bits count
__constant__ u32 lab_delta_init[1 + 384];  // count, then words to negate
__constant__ u32 lab_delta_fin[1 + 384];

#ifdef SKINNY_HOSTSIM
static u32 lab_shared[384 * LAB_T];
#define LAB_WARP_SUM(x) (x)
#define LAB_LEADER true
#else
extern __shared__ u32 lab_shared[];
#define LAB_WARP_SUM(x) __reduce_add_sync(0xffffffffu, (x))
#define LAB_LEADER ((threadIdx.x & 31) == 0)
#endif

#define LAB_PHI 0x9e3779b97f4a7c15ull

DEV u64 lab_mix(u64 z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

DEV u32& lab_word(char* col, u32 off) { return *reinterpret_cast<u32*>(col + off); }

// The 8*CB round-key registers of round r: TK1 ^ TK2 ^ TK3 at the cells of
// rows 0 and 1, and the round constants c0, c1 (c2 is the round function's).
// Folding the arrays into one word per bit first keeps 64 values in flight
// next to the state, not the 128 or 192 loaded words (measured: XORing each
// loaded word straight into the state made the compiler hoist every load
// and spill about 1 KiB a thread).
template <int CB, int Z>
DEV void lab_round_key(u32* k, char* col, int r) {
    const u32* ark = lab_ark + (r & 15) * 192;
#pragma unroll
    for (int ci = 0; ci < 8 * CB; ci++) {
        u32 x = lab_word(col, ark[ci]);
        if (Z == 2) x ^= lab_word(col, ark[64 + ci]);
        if (Z == 3) x = xor3(x, lab_word(col, ark[64 + ci]), lab_word(col, ark[128 + ci]));
        k[ci] = x;
    }
    const u32* rc = lab_rc + r * 6;
#pragma unroll
    for (int i = 0; i < 4; i++) k[i] ^= rc[i];
    k[4 * CB] ^= rc[4];
    k[4 * CB + 1] ^= rc[5];
}

// The LFSR steps after round r (8 cells of TK2, then of TK3), or their undoing.
template <int Z>
DEV void lab_lfsr_step(char* col, int r) {
    const u32* p = lab_lfsr + (r & 15) * 32;
#pragma unroll
    for (int i = 0; i < 8 * (Z - 1); i++) lab_word(col, p[2 * i]) ^= lab_word(col, p[2 * i + 1]);
}

DEV void lab_negate(char* col, const u32* list) {
    const u32 n = list[0];
#pragma unroll 1
    for (u32 i = 0; i < n; i++) lab_word(col, list[1 + i]) = ~lab_word(col, list[1 + i]);
}

template <int CB, int Z>
DEV void lab_encrypt(u32* s, char* col, int rounds) {
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
        u32 k[8 * CB];
        lab_round_key<CB, Z>(k, col, r);
        sub_cells<CB>(s);
        add_round_masks<CB>(s, k);
        shift_mix<CB>(s);
        lab_lfsr_step<Z>(col, r);
    }
}

// From the tweakey state after `rounds` rounds back to the first: each round
// first undoes its LFSR steps. Rotated like bitsliced.cu's decrypt_slices, so
// that the loop body ends with computed values rather than S-box renamings.
template <int CB, int Z>
DEV void lab_decrypt(u32* s, char* col, int rounds) {
    u32 k[8 * CB];
    lab_lfsr_step<Z>(col, rounds - 1);
    lab_round_key<CB, Z>(k, col, rounds - 1);
    mix_shift_inv_add<CB>(s, k);
#pragma unroll 1
    for (int r = rounds - 2; r >= 0; r--) {
        sub_cells_inv<CB>(s);
        lab_lfsr_step<Z>(col, r);
        lab_round_key<CB, Z>(k, col, r);
        mix_shift_inv_add<CB>(s, k);
    }
    sub_cells_inv<CB>(s);
}

template <int Z>
DEV void lab_unschedule(char* col, int rounds) {
#pragma unroll 1
    for (int r = rounds - 1; r >= 0; r--) lab_lfsr_step<Z>(col, r);
}

// Swaps the state with the saved block, XORing `d` into what comes back.
template <int NW>
DEV void lab_swap_saved(u32* s, u32* saved, const u32* d) {
#pragma unroll
    for (int w = 0; w < NW * 32; w++) {
        const u32 t = saved[w * 32];
        saved[w * 32] = s[w];
        s[w] = t ^ d[w];
    }
}

// The tweakeys of queries q0 .. q0+31, bitsliced into this thread's column:
// u32 word u of a tweakey is word u % NW of TK(u / NW); its 32 slices go to
// words u*32 + p. When all 32 queries share a key (key_every >= 32, away from
// group edges) the key is drawn once and its bits spread into all-ones /
// all-zero words; otherwise each query's key is drawn and transposed.
template <int NW, int Z>
DEV void lab_load_tweakeys(char* col, u64 q0, u64 key_every, u64 key_state) {
    u64 g = q0 / key_every, within = q0 % key_every;
    if (within + 31 < key_every) {
        const u64 item = lab_mix(key_state ^ g);
#pragma unroll 1
        for (int w = 0; w < Z * NW / 2; w++) {
            const u64 x = lab_mix(item ^ ((u64)(w + 1) * LAB_PHI));
#pragma unroll
            for (int p = 0; p < 32; p++) {
                lab_word(col, ((2 * w) * 32 + p) * LAB_STRIDE) = 0u - (u32)((x >> p) & 1);
                lab_word(col, ((2 * w + 1) * 32 + p) * LAB_STRIDE) = 0u - (u32)((x >> (32 + p)) & 1);
            }
        }
        return;
    }
    u64 item[32];
#pragma unroll
    for (int j = 0; j < 32; j++) {
        item[j] = lab_mix(key_state ^ g);
        within++;
        const bool next = within == key_every;
        g += next ? 1 : 0;
        within = next ? 0 : within;
    }
#pragma unroll 1
    for (int w = 0; w < Z * NW / 2; w++) {
        u32 lo[32], hi[32];
#pragma unroll
        for (int j = 0; j < 32; j++) {
            const u64 x = lab_mix(item[j] ^ ((u64)(w + 1) * LAB_PHI));
            lo[j] = (u32)x;
            hi[j] = (u32)(x >> 32);
        }
        transpose32(lo);
        transpose32(hi);
#pragma unroll
        for (int p = 0; p < 32; p++) {
            lab_word(col, ((2 * w) * 32 + p) * LAB_STRIDE) = lo[p];
            lab_word(col, ((2 * w + 1) * 32 + p) * LAB_STRIDE) = hi[p];
        }
    }
}

// One batch: queries q0 .. q0 + valid - 1. Returns the hit lanes.
template <int NW, int CB, int Z, bool BOOMERANG>
DEV u32 lab_batch(u64 q0, int valid, u64 key_every, u64 plain_state, u64 key_state, int rounds, char* col,
                  u32* saved) {
    lab_load_tweakeys<NW, Z>(col, q0, key_every, key_state);

    // The 32 plaintexts, bitsliced into registers, and a copy in the scratch.
    u32 s[NW * 32];
#pragma unroll
    for (int j = 0; j < 32; j++) {
        const u64 item = lab_mix(plain_state ^ (q0 + j));
#pragma unroll
        for (int w = 0; w < NW / 2; w++) {
            const u64 x = lab_mix(item ^ ((u64)(w + 1) * LAB_PHI));
            s[(2 * w) * 32 + j] = (u32)x;
            s[(2 * w + 1) * 32 + j] = (u32)(x >> 32);
        }
    }
#pragma unroll
    for (int q = 0; q < NW; q++) transpose32(s + q * 32);
#pragma unroll
    for (int w = 0; w < NW * 32; w++) saved[w * 32] = s[w];

    if (!BOOMERANG) {
        lab_encrypt<CB, Z>(s, col, rounds);             // C = E_K(P)
        lab_swap_saved<NW>(s, saved, lab_dp);  // saved C; s = P ^ dp
        lab_unschedule<Z>(col, rounds);
        lab_negate(col, lab_delta_init);               // K' = K ^ dk
        lab_encrypt<CB, Z>(s, col, rounds);             // C' = E_K'(P')
    } else {
        lab_encrypt<CB, Z>(s, col, rounds);             // C1 = E_K1(P1)
#pragma unroll
        for (int w = 0; w < NW * 32; w++) s[w] ^= lab_dc[w];  // C3
        lab_negate(col, lab_delta_fin);                // K3 = K1 ^ dk2, at the end
        lab_decrypt<CB, Z>(s, col, rounds);             // P3 = D_K3(C3)
        lab_swap_saved<NW>(s, saved, lab_dp);  // saved P3; s = P1 ^ dp = P2
        lab_negate(col, lab_delta_init);               // K2 = K3 ^ dk2 ^ dk1, at the start
        lab_encrypt<CB, Z>(s, col, rounds);             // C2 = E_K2(P2)
#pragma unroll
        for (int w = 0; w < NW * 32; w++) s[w] ^= lab_dc[w];  // C4
        lab_negate(col, lab_delta_fin);                // K4 = K2 ^ dk2
        lab_decrypt<CB, Z>(s, col, rounds);             // P4 = D_K4(C4)
    }

    // Differential: (C' ^ C ^ dc) & mask == 0; boomerang: P4 ^ P3 ^ dp == 0.
    u32 bad = 0;
#pragma unroll
    for (int w = 0; w < NW * 32; w++) bad |= (s[w] ^ saved[w * 32] ^ lab_target[w]) & lab_mask[w];
    return ~bad & (valid >= 32 ? ~0u : valid <= 0 ? 0u : ((1u << valid) - 1u));
}

// Thread g takes batch g: queries start + 32 g .. (a thread past the end
// runs with no valid lane, so that its warp's sum of the hits sees all 32
// lanes). One batch a thread, no loop over batches: with a grid-stride loop
// around it the compiler kept values live across the whole body and the
// boomerang kernel spilled about 1.7 KiB a thread (measured, ptxas -v).
template <int NW, int CB, int Z, bool BOOMERANG>
DEV void lab_kernel(u64 start, u64 count, u64 key_every, u64 plain_state, u64 key_state, int rounds,
                    u64* hits, u32* rec_n, u64* rec, u32 rec_cap, u32* scratch, u64 gtid, u32 t) {
    // This warp's region (Z arrays of NW*32 words for each of its 32 lanes),
    // then this lane's column in it.
    char* col = reinterpret_cast<char*>(lab_shared) + (t >> 5) * (Z * NW * 32 * LAB_STRIDE) + 4 * (t & 31);
    u32* saved = scratch + (gtid >> 5) * (NW * 32 * 32) + (gtid & 31);  // this warp's slab, this lane
    const u64 i0 = gtid * 32;
    const int valid = i0 >= count ? 0 : (int)min(count - i0, (u64)32);
    u32 hit = lab_batch<NW, CB, Z, BOOMERANG>(start + i0, valid, key_every, plain_state, key_state, rounds, col, saved);
    const u32 n = LAB_WARP_SUM((u32)__popc(hit));
    if (LAB_LEADER && n != 0) atomicAdd(reinterpret_cast<unsigned long long*>(hits), (unsigned long long)n);
    if (rec_cap != 0) {
        while (hit != 0) {
            const int j = __ffs(hit) - 1;
            hit &= hit - 1;
            const u32 slot = atomicAdd(rec_n, 1u);
            if (slot < rec_cap) rec[slot] = start + i0 + j;
        }
    }
}

#ifndef SKINNY_HOSTSIM
#define LAB_ENTRY(name, NW, CB, Z, BOOM)                                                          \
    extern "C" __global__ void __launch_bounds__(LAB_T * SKINNY_LAB_MAX_WARPS)                  \
    name(u64 start, u64 count, u64 key_every, u64 plain_state, u64 key_state, int rounds,       \
         u64* hits, u32* rec_n, u64* rec, u32 rec_cap, u32* scratch) {                           \
        lab_kernel<NW, CB, Z, BOOM>(start, count, key_every, plain_state, key_state, rounds,     \
                                    hits, rec_n, rec, rec_cap, scratch,                          \
                                    (u64)blockIdx.x * blockDim.x + threadIdx.x, threadIdx.x);    \
    }
#endif

LAB_ENTRY(lab128_tk1_differential, 4, 8, 1, false)
LAB_ENTRY(lab128_tk2_differential, 4, 8, 2, false)
LAB_ENTRY(lab128_tk3_differential, 4, 8, 3, false)
LAB_ENTRY(lab64_tk1_differential, 2, 4, 1, false)
LAB_ENTRY(lab64_tk2_differential, 2, 4, 2, false)
LAB_ENTRY(lab64_tk3_differential, 2, 4, 3, false)
LAB_ENTRY(lab128_tk1_boomerang, 4, 8, 1, true)
LAB_ENTRY(lab128_tk2_boomerang, 4, 8, 2, true)
LAB_ENTRY(lab128_tk3_boomerang, 4, 8, 3, true)
LAB_ENTRY(lab64_tk1_boomerang, 2, 4, 1, true)
LAB_ENTRY(lab64_tk2_boomerang, 2, 4, 2, true)
LAB_ENTRY(lab64_tk3_boomerang, 2, 4, 3, true)
