// The lab's experiments on reduced-round SKINNY: every query draws its own
// plaintext and its own tweakey from the counter-based generator, so every
// block of a thread has a tweakey of its own, scheduled on the fly.
//
// A thread takes batches of 32 consecutive queries q0 .. q0+31 (query q0+j in
// bit j of every register, as in bitsliced.cu). Its registers hold the 32
// states; its 32 tweakeys, bitsliced the same way (Z arrays of 16 cells), live
// in shared memory, one column per thread: each warp of a block has a region
// of its own, in which words w .. w+3 (w a multiple of 4) of lane l are the
// four words at (w/4 * T + l) * 4 (T = SKINNY_LAB_THREADS = 32), so a warp
// moves four words of every lane in one 128-bit access, free of bank
// conflicts (256 words of SKINNY-128-256 tweakey would not fit in registers
// next to the 128-register state). The
// block kept across the two halves of a query (C, or P3) goes to a global
// scratch buffer, a slab of 32 x NW*32 words per warp with word w of lane l at
// slab[w*32 + l]: coalesced, and at offsets known at compile time (a stride
// given at run time cost one address register per word and spilled). It is
// touched three times a batch; in shared memory it would halve the warps an
// SM can hold.
//
// The tweakey schedule moves few words, and finds every word it reads at a
// fixed offset from one of eight per-round cell addresses (a shared load with
// an immediate offset: run 32's kernels computed one address a word from a
// table in the constant bank, 144 adds and 75 constant loads a round of about
// 720 instructions, and missed the constant cache). The layout of TKz in a
// lane's column, in words: z*16*CB + h*8*CB + slot*CB + i, bit i of the cell
// in slot `slot` of half h. SKINNY's permutation PT moves rows 0-1 to rows 2-3
// unchanged and rows 2-3 to rows 0-1 through P = PT[0..8] - 8 (then the LFSRs
// step rows 0-1). So the half that is rows 0-1 alternates (half r & 1 in
// round r) and stays put in between; and P is one 8-cycle, 0 -> 1 -> 7 -> 3 ->
// 5 -> 6 -> 4 -> 2 -> 0, so with slots holding the cells in cycle order the
// renaming by P is a rotation: in round r, cell c of rows 0-1 is in slot
// (SLOT_OF[c] + r / 2) mod 8 of half r & 1 (as in aead.cu). The LFSRs are
// done on the data: a round that reads a TK2/TK3 cell for its key writes the
// cell back stepped (8 stores a cell, one XOR), ready for its next use two
// rounds later; decryption reads stepped cells, steps them back in registers
// and writes them back. Half 1 starts one step ahead (its cells are stepped on
// their way into rows 0-1 in round 1). The host (src/lab.rs) places the
// tweakey words (`lab_load_cell`) and follows the same steps for the related-
// tweakey differences; a host test checks every round key against the
// specification.
//
// Related tweakeys cost no second schedule: the schedule is linear, so
// K ^ d is K's words with the words where d's schedule has a 1 negated; the
// host lists those words for d at the start (`lab_delta_init`) and after the
// last round (`lab_delta_fin`).
//
// Constant time is not needed here (public random data), but nothing branches
// on the data anyway apart from recording hits.
//
// Differential-linear: the differential's two encryptions, then the parity
// of (C ^ C') & mask (the output linear mask, lab_mask); a hit is parity 0.
//
// Linear: one encryption; P is still in the thread's saved slab (where the
// plaintexts were drawn), so the hit test reads it back: the parity of
// (P & lab_in_mask) ^ (C & lab_mask) is 0.
//
// Cell patterns (truncated differences, differential only): per cell, the OR
// of its bit-slices of C ^ C' gives the lanes where the cell differs; a lane
// fails where a cell of lab_cell_zero differs or one of lab_cell_nonzero does
// not (both all zero without a pattern).
//
// Start rounds: the host's lab_rc holds the constants from the start round
// on, and the tweakeys drawn are start-round states (differences given at the
// master are advanced on the host), so the kernels need no change for them.
//
// Kernels (one per block width, tweakey size and experiment):
//   lab{128,64}_tk{1,2,3}_{differential,boomerang,differential_linear,linear}(start, count, key_every,
//       plain_state, key_state, rounds, hits, rec_n, rec, rec_cap, scratch, key_hits)
// run queries start .. start+count, 32 a thread. Query q's plaintext
// words and its key group's (g = q / key_every) tweakey words come from the
// generator of skinny-lab's rng.rs: word w of item i of a stream =
// mix(mix(state ^ i) ^ (w+1)*phi), state = the stream's seeded state (given).
// Hits are added to *hits; with rec_cap > 0 each hit's query index goes to
// rec[atomicAdd(rec_n)] while there is room (the host sees rec_n > rec_cap as
// overflow). With key_hits non-null (per-key runs) each key group's hits are
// added to key_hits[g - start / key_every] too (lab_count_keys).
//
// The tweakey layout and schedule code is in tweakey_slices.cuh (shared with
// many.cu), and the per-key counting in lab_key_counts.cuh, which the host
// puts before this file.

// Byte offset (in the layout above) of the cell that takes bits g*CB .. g*CB+CB-1
// of 32-bit tweakey word u, at [u * 8 + g] (see the host's lab.rs).
__constant__ u32 lab_load_cell[12 * 8];
__constant__ u32 lab_dp[128];       // the plaintext difference, 0/~0 per state register
__constant__ u32 lab_dc[128];       // the boomerang's ciphertext difference
__constant__ u32 lab_target[128];   // what the compared difference must be
__constant__ u32 lab_mask[128];     // which compared bits count (linear: the output mask)
__constant__ u32 lab_in_mask[128];  // the linear experiment's input mask
__constant__ u32 lab_cell_zero[16];     // 0/~0 a cell: its difference must be zero
__constant__ u32 lab_cell_nonzero[16];  // 0/~0 a cell: its difference must not be zero
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

// 64-bit word w of 32 items (queries' plaintexts or keys), bitsliced: lo[p]
// (hi[p]) holds bit p (32 + p) of the word for item j in bit j.
DEV void lab_draw_word(u32* lo, u32* hi, const u64* item, int w) {
#pragma unroll
    for (int j = 0; j < 32; j++) {
        const u64 x = lab_mix(item[j] ^ ((u64)(w + 1) * LAB_PHI));
        lo[j] = (u32)x;
        hi[j] = (u32)(x >> 32);
    }
    transpose32(lo);
    transpose32(hi);
}

DEV u32& lab_word(char* col, u32 off) { return *reinterpret_cast<u32*>(col + off); }

DEV void lab_negate(char* col, const u32* list) {
    const u32 n = list[0];
#pragma unroll 1
    for (u32 i = 0; i < n; i++) lab_word(col, list[1 + i]) = ~lab_word(col, list[1 + i]);
}

// Swaps the state with the saved block, XORing `d` into what comes back.
template <int NW>
DEV void lab_swap_saved(u32* s, u32* saved, const u32* d) {
#pragma unroll
    for (int w = 0; w < NW * 32; w++) {
        const u32 t = __ldcg(saved + w * 32);
        __stcg(saved + w * 32, s[w]);
        s[w] = t ^ d[w];
    }
}

// Word u's 32 slices x[0..32] to their cells (lab_load_cell): slice p is bit
// p % CB of the cell of group p / CB.
template <int CB>
DEV void lab_put_word(char* col, int u, const u32* x) {
#pragma unroll
    for (int g = 0; g < 32 / CB; g++) {
        lab_put<CB>(col + lab_load_cell[u * 8 + g], x + g * CB);
    }
}

// The tweakeys drawn: u32 word u of a tweakey is word u % NW of TK(u / NW); its
// 32 slices go to their cells' words. When all 32 queries share a key
// (key_every >= 32, away from group edges) the key is drawn once and its bits
// spread into all-ones / all-zero words; otherwise each query's key is drawn
// and transposed.
template <int NW, int CB, int Z>
DEV void lab_draw_tweakeys(char* col, u64 q0, u64 key_every, u64 key_state) {
    u64 g = q0 / key_every, within = q0 % key_every;
    if (within + 31 < key_every) {
        const u64 item = lab_mix(key_state ^ g);
#pragma unroll 1
        for (int w = 0; w < Z * NW / 2; w++) {
            const u64 x = lab_mix(item ^ ((u64)(w + 1) * LAB_PHI));
            u32 lo[32], hi[32];
#pragma unroll
            for (int p = 0; p < 32; p++) {
                lo[p] = 0u - (u32)((x >> p) & 1);
                hi[p] = 0u - (u32)((x >> (32 + p)) & 1);
            }
            lab_put_word<CB>(col, 2 * w, lo);
            lab_put_word<CB>(col, 2 * w + 1, hi);
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
        lab_draw_word(lo, hi, item, w);
        lab_put_word<CB>(col, 2 * w, lo);
        lab_put_word<CB>(col, 2 * w + 1, hi);
    }
}

// The tweakeys of queries q0 .. q0+31, bitsliced into this thread's column,
// ready for round 0.
template <int NW, int CB, int Z>
DEV void lab_load_tweakeys(char* col, u64 q0, u64 key_every, u64 key_state) {
    lab_draw_tweakeys<NW, CB, Z>(col, q0, key_every, key_state);
    // Half 1's cells enter rows 0-1 in round 1 through the LFSRs.
    if (Z > 1) lab_step_half<CB, Z, true>(col, 1, 1);
}

// The experiments (the kernels' MODE).
#define LAB_DIFFERENTIAL 0
#define LAB_BOOMERANG 1
#define LAB_DIFFERENTIAL_LINEAR 2
#define LAB_LINEAR 3

// One batch: queries q0 .. q0 + valid - 1. Returns the hit lanes.
template <int NW, int CB, int Z, int MODE>
DEV u32 lab_batch(u64 q0, int valid, u64 key_every, u64 plain_state, u64 key_state, int rounds, char* col,
                  u32* saved) {
    lab_load_tweakeys<NW, CB, Z>(col, q0, key_every, key_state);

    // The 32 plaintexts, bitsliced, into the scratch, then into registers. A
    // rolled loop over the plaintext's 64-bit words, as for the tweakeys: the
    // same work unrolled was about 3,000 instructions of straight code a
    // batch, and 13 % of the stalls were instruction fetches (run 37).
    {
        u64 item[32];
#pragma unroll
        for (int j = 0; j < 32; j++) item[j] = lab_mix(plain_state ^ (q0 + j));
#pragma unroll 1
        for (int w = 0; w < NW / 2; w++) {
            u32 lo[32], hi[32];
            lab_draw_word(lo, hi, item, w);
            u32* out = saved + (2 * w) * 32 * 32;  // words 2w*32.. of this lane
#pragma unroll
            for (int p = 0; p < 32; p++) {
                __stcg(out + p * 32, lo[p]);
                __stcg(out + (32 + p) * 32, hi[p]);
            }
        }
    }
    u32 s[NW * 32];
#pragma unroll
    for (int w = 0; w < NW * 32; w++) s[w] = __ldcg(saved + w * 32);

    // Each experiment as a rolled loop over its two halves, so that the round
    // loops exist once in the code (also for the instruction cache).
    if (MODE == LAB_LINEAR) {
        lab_encrypt<CB, Z>(s, col, rounds);             // C = E_K(P); P stays saved
    } else if (MODE != LAB_BOOMERANG) {
#pragma unroll 1
        for (int half = 0; half < 2; half++) {
            lab_encrypt<CB, Z>(s, col, rounds);         // C = E_K(P); C' = E_K'(P')
            if (half == 1) break;
            lab_swap_saved<NW>(s, saved, lab_dp);       // saved C; s = P ^ dp
            lab_unschedule<CB, Z>(col, rounds);
            lab_negate(col, lab_delta_init);            // K' = K ^ dk
        }
    } else {
#pragma unroll 1
        for (int half = 0; half < 2; half++) {
            lab_encrypt<CB, Z>(s, col, rounds);         // C1 = E_K1(P1); C2 = E_K2(P2)
#pragma unroll
            for (int w = 0; w < NW * 32; w++) s[w] ^= lab_dc[w];  // C3; C4
            lab_negate(col, lab_delta_fin);             // K3 = K1 ^ dk2; K4 = K2 ^ dk2
            lab_decrypt<CB, Z>(s, col, rounds);         // P3 = D_K3(C3); P4 = D_K4(C4)
            if (half == 1) break;
            lab_swap_saved<NW>(s, saved, lab_dp);       // saved P3; s = P1 ^ dp = P2
            lab_negate(col, lab_delta_init);            // K2 = K3 ^ dk2 ^ dk1, at the start
        }
    }

    // Differential: (C' ^ C ^ dc) & mask == 0 and the cell pattern; boomerang:
    // P4 ^ P3 ^ dp == 0; differential-linear: the parity of (C' ^ C) & mask
    // is 0; linear: the parity of (P & in_mask) ^ (C & mask) is 0.
    u32 bad = 0;
    if (MODE == LAB_DIFFERENTIAL_LINEAR) {
#pragma unroll
        for (int w = 0; w < NW * 32; w++) bad ^= (s[w] ^ __ldcg(saved + w * 32)) & lab_mask[w];
    } else if (MODE == LAB_LINEAR) {
#pragma unroll
        for (int w = 0; w < NW * 32; w++) bad ^= (s[w] & lab_mask[w]) ^ (__ldcg(saved + w * 32) & lab_in_mask[w]);
    } else if (MODE == LAB_DIFFERENTIAL) {
        // Cell by cell (every word once), for the pattern's OR of each cell.
#pragma unroll
        for (int c = 0; c < 16; c++) {
            u32 differs = 0;
#pragma unroll
            for (int i = 0; i < CB; i++) {
                const int w = reg_of<CB>(c, i);
                const u32 d = s[w] ^ __ldcg(saved + w * 32);
                bad |= (d ^ lab_target[w]) & lab_mask[w];
                differs |= d;
            }
            bad |= (differs & lab_cell_zero[c]) | (~differs & lab_cell_nonzero[c]);
        }
    } else {
#pragma unroll
        for (int w = 0; w < NW * 32; w++) bad |= (s[w] ^ __ldcg(saved + w * 32) ^ lab_target[w]) & lab_mask[w];
    }
    return ~bad & (valid >= 32 ? ~0u : valid <= 0 ? 0u : ((1u << valid) - 1u));
}

// Thread g takes batch g: queries start + 32 g .. (a thread past the end
// runs with no valid lane, so that its warp's sum of the hits sees all 32
// lanes). One batch a thread, no loop over batches: with a grid-stride loop
// around it the compiler kept values live across the whole body and the
// boomerang kernel spilled about 1.7 KiB a thread (measured, ptxas -v).
template <int NW, int CB, int Z, int MODE>
DEV void lab_kernel(u64 start, u64 count, u64 key_every, u64 plain_state, u64 key_state, int rounds,
                    u64* hits, u32* rec_n, u64* rec, u32 rec_cap, u32* scratch, u32* key_hits, u64 gtid,
                    u32 t) {
    // This warp's region (Z arrays of NW*32 words for each of its 32 lanes),
    // then this lane's column in it.
    char* col = reinterpret_cast<char*>(lab_shared) + (t >> 5) * (Z * NW * 32 * LAB_T * 4) + 16 * (t & 31);
    u32* saved = scratch + (gtid >> 5) * (NW * 32 * 32) + (gtid & 31);  // this warp's slab, this lane
    const u64 i0 = gtid * 32;
    const int valid = i0 >= count ? 0 : (int)min(count - i0, (u64)32);
    u32 hit = lab_batch<NW, CB, Z, MODE>(start + i0, valid, key_every, plain_state, key_state, rounds, col, saved);
    const u32 n = LAB_WARP_SUM((u32)__popc(hit));
    if (LAB_LEADER && n != 0) atomicAdd(reinterpret_cast<unsigned long long*>(hits), (unsigned long long)n);
    // Null unless per-key counts are asked for (the same for the whole grid).
    if (key_hits != nullptr) lab_count_keys(hit, start, start + i0, valid, key_every, key_hits);
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
#define LAB_ENTRY(name, NW, CB, Z, MODE)                                                          \
    extern "C" __global__ void __launch_bounds__(LAB_T * SKINNY_LAB_MAX_WARPS)                  \
    name(u64 start, u64 count, u64 key_every, u64 plain_state, u64 key_state, int rounds,       \
         u64* hits, u32* rec_n, u64* rec, u32 rec_cap, u32* scratch, u32* key_hits) {            \
        lab_kernel<NW, CB, Z, MODE>(start, count, key_every, plain_state, key_state, rounds,     \
                                    hits, rec_n, rec, rec_cap, scratch, key_hits,                \
                                    (u64)blockIdx.x * blockDim.x + threadIdx.x, threadIdx.x);    \
    }
#endif

LAB_ENTRY(lab128_tk1_differential, 4, 8, 1, LAB_DIFFERENTIAL)
LAB_ENTRY(lab128_tk2_differential, 4, 8, 2, LAB_DIFFERENTIAL)
LAB_ENTRY(lab128_tk3_differential, 4, 8, 3, LAB_DIFFERENTIAL)
LAB_ENTRY(lab64_tk1_differential, 2, 4, 1, LAB_DIFFERENTIAL)
LAB_ENTRY(lab64_tk2_differential, 2, 4, 2, LAB_DIFFERENTIAL)
LAB_ENTRY(lab64_tk3_differential, 2, 4, 3, LAB_DIFFERENTIAL)
LAB_ENTRY(lab128_tk1_boomerang, 4, 8, 1, LAB_BOOMERANG)
LAB_ENTRY(lab128_tk2_boomerang, 4, 8, 2, LAB_BOOMERANG)
LAB_ENTRY(lab128_tk3_boomerang, 4, 8, 3, LAB_BOOMERANG)
LAB_ENTRY(lab64_tk1_boomerang, 2, 4, 1, LAB_BOOMERANG)
LAB_ENTRY(lab64_tk2_boomerang, 2, 4, 2, LAB_BOOMERANG)
LAB_ENTRY(lab64_tk3_boomerang, 2, 4, 3, LAB_BOOMERANG)
LAB_ENTRY(lab128_tk1_differential_linear, 4, 8, 1, LAB_DIFFERENTIAL_LINEAR)
LAB_ENTRY(lab128_tk2_differential_linear, 4, 8, 2, LAB_DIFFERENTIAL_LINEAR)
LAB_ENTRY(lab128_tk3_differential_linear, 4, 8, 3, LAB_DIFFERENTIAL_LINEAR)
LAB_ENTRY(lab64_tk1_differential_linear, 2, 4, 1, LAB_DIFFERENTIAL_LINEAR)
LAB_ENTRY(lab64_tk2_differential_linear, 2, 4, 2, LAB_DIFFERENTIAL_LINEAR)
LAB_ENTRY(lab64_tk3_differential_linear, 2, 4, 3, LAB_DIFFERENTIAL_LINEAR)
LAB_ENTRY(lab128_tk1_linear, 4, 8, 1, LAB_LINEAR)
LAB_ENTRY(lab128_tk2_linear, 4, 8, 2, LAB_LINEAR)
LAB_ENTRY(lab128_tk3_linear, 4, 8, 3, LAB_LINEAR)
LAB_ENTRY(lab64_tk1_linear, 2, 4, 1, LAB_LINEAR)
LAB_ENTRY(lab64_tk2_linear, 2, 4, 2, LAB_LINEAR)
LAB_ENTRY(lab64_tk3_linear, 2, 4, 3, LAB_LINEAR)
