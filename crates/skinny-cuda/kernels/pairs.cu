// Training data for neural distinguishers (skinny-lab's `pairs` module, the
// CPU's definition): sample i of a seeded data set is a label, a pair of
// plaintexts and a tweakey drawn from the counter-based generator at index i,
// and the pair's two ciphertexts. This file follows lab.cu (its generator,
// tweakey layout and schedule, and its __constant__ tables lab_load_cell,
// lab_rc, lab_dp and lab_delta_init, filled by the host as for a
// differential), so that one thread makes 32 consecutive samples bitsliced,
// a tweakey each, as the lab's kernels run 32 queries.
//
// Sample i (seed's stream states given by the host):
//   label  = bit 0 of word 0 of item i of the label stream (a fair coin);
//   P0     = item i of the plaintext stream, K = item i of the key stream;
//   P1     = P0 ^ dp when the label is 1 or negatives are random ciphertexts,
//            else item i of the second plaintext stream (random plaintexts);
//   K1     = K ^ dk (lab_delta_init negates the words where dk's bits are 1);
//   row    = E_K(P0) || E_K1(P1), or, for a label 0 with random-ciphertext
//            negatives, item i of the random-ciphertext stream (2 blocks).
// Rows are written as the numpy array (n, 2, block) holds them, 8 bytes a
// store (x must be 8-byte aligned), labels one byte each.
//
// Kernels: pairs{64,128}_tk{1,2,3}_{ciphertexts,plaintexts}(first, count,
//   states, rounds, x, y, scratch): samples first .. first+count into
//   x[0 ..], y[0 ..]; states = {plain, key, label, random plaintext,
//   random ciphertext}, the streams' seeded states.

#define PAIRS_RANDOM_CIPHERTEXTS 0
#define PAIRS_RANDOM_PLAINTEXTS 1

// Bit 0 of word 0 of items q0 .. q0+31 of the stream `state`, lane j in bit j.
DEV u32 pairs_coins(u64 state, u64 q0) {
    u32 m = 0;
#pragma unroll
    for (int j = 0; j < 32; j++) {
        const u64 x = lab_mix(lab_mix(state ^ (q0 + j)) ^ LAB_PHI);
        m |= (u32)(x & 1) << j;
    }
    return m;
}

// The plaintexts of items q0 .. q0+31 of `state`, bitsliced, into the
// thread's slab (word w of lane l at saved[w * 32]).
template <int NW>
DEV void pairs_draw_block(u32* saved, u64 state, u64 q0) {
    u64 item[32];
#pragma unroll
    for (int j = 0; j < 32; j++) item[j] = lab_mix(state ^ (q0 + j));
#pragma unroll 1
    for (int w = 0; w < NW / 2; w++) {
        u32 lo[32], hi[32];
        lab_draw_word(lo, hi, item, w);
        u32* out = saved + (2 * w) * 32 * 32;
#pragma unroll
        for (int p = 0; p < 32; p++) {
            __stcg(out + p * 32, lo[p]);
            __stcg(out + (32 + p) * 32, hi[p]);
        }
    }
}

template <int NW, int CB, int Z, int NEG>
DEV void pairs_kernel(u64 first, u64 count, const u64* states, int rounds, u32* x, unsigned char* y, u32* scratch,
                      u64 gtid, u32 t) {
    char* col = reinterpret_cast<char*>(lab_shared) + (t >> 5) * (Z * NW * 32 * LAB_T * 4) + 16 * (t & 31);
    u32* saved = scratch + (gtid >> 5) * (NW * 32 * 32) + (gtid & 31);
    const u64 i0 = gtid * 32;
    const int valid = i0 >= count ? 0 : (int)min(count - i0, (u64)32);
    const u64 q0 = first + i0;
    const u32 labels = pairs_coins(states[2], q0);

    lab_load_tweakeys<NW, CB, Z>(col, q0, 1, states[1]);
    pairs_draw_block<NW>(saved, states[0], q0);
    u32 s[NW * 32];
#pragma unroll
    for (int w = 0; w < NW * 32; w++) s[w] = __ldcg(saved + w * 32);
    lab_encrypt<CB, Z>(s, col, rounds);         // C0 = E_K(P0)
    lab_swap_saved<NW>(s, saved, lab_dp);       // saved C0; s = P0 ^ dp
    if (NEG == PAIRS_RANDOM_PLAINTEXTS) {
        // Where the label is 0, P1 is the random-plaintext stream's item,
        // drawn a 64-bit word at a time (the items recomputed for each, so
        // that no 32 items stay live beside the state).
#pragma unroll
        for (int w = 0; w < NW / 2; w++) {
            u32 lo[32], hi[32];
#pragma unroll
            for (int j = 0; j < 32; j++) {
                const u64 v = lab_mix(lab_mix(states[3] ^ (q0 + j)) ^ ((u64)(w + 1) * LAB_PHI));
                lo[j] = (u32)v;
                hi[j] = (u32)(v >> 32);
            }
            transpose32(lo);
            transpose32(hi);
#pragma unroll
            for (int p = 0; p < 32; p++) {
                s[(2 * w) * 32 + p] = (s[(2 * w) * 32 + p] & labels) | (lo[p] & ~labels);
                s[(2 * w + 1) * 32 + p] = (s[(2 * w + 1) * 32 + p] & labels) | (hi[p] & ~labels);
            }
        }
    }
    lab_unschedule<CB, Z>(col, rounds);
    lab_negate(col, lab_delta_init);            // K1 = K ^ dk
    lab_encrypt<CB, Z>(s, col, rounds);         // C1 = E_K1(P1)

    // Back to a sample a lane: after the transposition, s[u * 32 + j] is
    // word u of sample j's C1. A row is C0's NW words then C1's, written as
    // NW pairs of words (8-byte stores); pair w of the random-ciphertext row
    // is 64-bit word w of its item.
#pragma unroll
    for (int u = 0; u < NW; u++) transpose32(s + u * 32);
    u32* rows = x + i0 * 2 * NW;
    const u32 keep = NEG == PAIRS_RANDOM_CIPHERTEXTS ? labels : ~0u;
#pragma unroll
    for (int w = 0; w < NW; w++) {
        u32 a[32], b[32];
        if (2 * w < NW) {
#pragma unroll
            for (int p = 0; p < 32; p++) {
                a[p] = __ldcg(saved + ((2 * w) * 32 + p) * 32);
                b[p] = __ldcg(saved + ((2 * w + 1) * 32 + p) * 32);
            }
            transpose32(a);
            transpose32(b);
        } else {
#pragma unroll
            for (int p = 0; p < 32; p++) {
                a[p] = s[(2 * w - NW) * 32 + p];
                b[p] = s[(2 * w + 1 - NW) * 32 + p];
            }
        }
#pragma unroll
        for (int j = 0; j < 32; j++) {
            u32 lo = a[j], hi = b[j];
            if (NEG == PAIRS_RANDOM_CIPHERTEXTS) {
                const u64 v = lab_mix(lab_mix(states[4] ^ (q0 + j)) ^ ((u64)(w + 1) * LAB_PHI));
                const u32 m = 0u - ((keep >> j) & 1);
                lo = (lo & m) | ((u32)v & ~m);
                hi = (hi & m) | ((u32)(v >> 32) & ~m);
            }
            if (j < valid) {
                uint2 o;
                o.x = lo;
                o.y = hi;
                *reinterpret_cast<uint2*>(rows + j * 2 * NW + 2 * w) = o;
            }
        }
    }
#pragma unroll
    for (int j = 0; j < 32; j++) {
        if (j < valid) y[i0 + j] = (unsigned char)((labels >> j) & 1);
    }
}

#ifndef SKINNY_HOSTSIM
#define PAIRS_ENTRY(name, NW, CB, Z, NEG)                                                          \
    extern "C" __global__ void __launch_bounds__(LAB_T * SKINNY_LAB_MAX_WARPS)                    \
    name(u64 first, u64 count, const u64* states, int rounds, u32* x, unsigned char* y, u32* scratch) {   \
        pairs_kernel<NW, CB, Z, NEG>(first, count, states, rounds, x, y, scratch,                  \
                                     (u64)blockIdx.x * blockDim.x + threadIdx.x, threadIdx.x);     \
    }
#endif

PAIRS_ENTRY(pairs128_tk1_ciphertexts, 4, 8, 1, PAIRS_RANDOM_CIPHERTEXTS)
PAIRS_ENTRY(pairs128_tk2_ciphertexts, 4, 8, 2, PAIRS_RANDOM_CIPHERTEXTS)
PAIRS_ENTRY(pairs128_tk3_ciphertexts, 4, 8, 3, PAIRS_RANDOM_CIPHERTEXTS)
PAIRS_ENTRY(pairs64_tk1_ciphertexts, 2, 4, 1, PAIRS_RANDOM_CIPHERTEXTS)
PAIRS_ENTRY(pairs64_tk2_ciphertexts, 2, 4, 2, PAIRS_RANDOM_CIPHERTEXTS)
PAIRS_ENTRY(pairs64_tk3_ciphertexts, 2, 4, 3, PAIRS_RANDOM_CIPHERTEXTS)
PAIRS_ENTRY(pairs128_tk1_plaintexts, 4, 8, 1, PAIRS_RANDOM_PLAINTEXTS)
PAIRS_ENTRY(pairs128_tk2_plaintexts, 4, 8, 2, PAIRS_RANDOM_PLAINTEXTS)
PAIRS_ENTRY(pairs128_tk3_plaintexts, 4, 8, 3, PAIRS_RANDOM_PLAINTEXTS)
PAIRS_ENTRY(pairs64_tk1_plaintexts, 2, 4, 1, PAIRS_RANDOM_PLAINTEXTS)
PAIRS_ENTRY(pairs64_tk2_plaintexts, 2, 4, 2, PAIRS_RANDOM_PLAINTEXTS)
PAIRS_ENTRY(pairs64_tk3_plaintexts, 2, 4, 3, PAIRS_RANDOM_PLAINTEXTS)
