// The many-message engine: Romulus-N and Romulus-M (v1.3, on SKINNY-128-384+:
// SKINNY-128-384 cut to 40 rounds) over a batch of independent messages, each
// with its own key, nonce, AD and length. Constant time: bitsliced, no table
// look-up, no branch or address that depends on a key, a nonce or the data
// (they depend on the lengths and the message indices, which are public).
//
// A thread takes 32 messages (message j of the thread in bit j of every
// register, as in bitsliced.cu) of one length class: the same number of AD
// blocks and of message blocks, and the same fullness of each last block. The
// host (skinny-many's gpu module) groups the messages so. Every lane of a
// thread then makes the same sequence of TBC calls, whose TK1 (56-bit LFSR
// counter ‖ domain ‖ 0^64) is the same for all 32: it is spread into 0/~0 words.
// TK2 (the nonce, or an AD or MAC block) and TK3 (the key) are each lane's own.
// All three sit bitsliced in shared memory and are scheduled on the fly, round
// by round (tweakey_slices.cuh, the lab's code); after a call the TK2/TK3
// cells are stepped back to their loaded state (lab_unschedule), so the key
// (and the nonce in the message phase) is loaded and transposed once.
//
// Per-lane lengths differ inside a class only in the last blocks' lengths:
// the loads, the padding and the stores follow each lane's own length.
//
// Kernels (many_entry.cu), one thread per group of 32 messages (`ngroups`
// groups), and the same for the SKINNY-AEAD members (many_aead.cu):
//   many_romulus_{n,m}_{seal,open}(lanes, ad_ends, data_ends, out_ends, keys,
//       nonces, ad, data, out, status, ngroups)
//   many_aead_m{1..6}_{seal,open}(the same)
// lanes[32 g + j]: message of lane j of group g (MANY_NONE: an empty lane);
// *_ends[i]: the end of message i's AD / data / output (its start is the end
// before, or 0); keys and nonces 16 bytes a message. Seal writes ciphertext ‖
// tag; open reads ciphertext ‖ tag, writes the plaintext, and status[i] = 0
// (authentic) or 1 (forged: its plaintext is overwritten with zeros). Open's
// messages all hold at least a tag (the host fails shorter ones itself).

#define MANY_ROUNDS 40
// Shared memory of one warp: TK1, TK2, TK3 of 32 lanes, 128 words each.
#define MANY_WARP_BYTES (3 * 128 * 4 * LAB_T)

// The domain bytes (Romulus v1.3). Romulus-M ORs 32 into each.
#define D_AD 8
#define D_AD_LAST_FULL 24
#define D_AD_LAST_PARTIAL 26
#define D_MSG 4
#define D_MSG_LAST_FULL 20
#define D_MSG_LAST_PARTIAL 21
#define D_PAIR_WITH_MESSAGE 12
#define M_MEMBER 32

#ifdef SKINNY_HOSTSIM
static u32 many_shared[3 * 128 * LAB_T];
#else
extern __shared__ u32 many_shared[];
#endif

// The messages' bytes (and `u8`, MANY_NONE): many_io.cuh, which the host puts
// before this file.

// The lane j of each word q's slices t: bits 8g + i are bit i of cell 4q + g.
// SLOT and home of a cell (tweakey_slices.cuh): cells 0-7 in half 0, slot
// SLOT_OF[c]; cell 8 + d in half 1 at round 1's slot of the position j with
// PT[j] = 8 + d (HOME_J), stepped once by its LFSR.
DEV constexpr int many_home_j(int d) { return (0x15367402 >> (4 * d)) & 7; }

DEV char* many_home(char* col, int z, int c) {
    const int half = c >= 8 ? 1 : 0;
    const int slot = c < 8 ? lab_slot_of(c) : lab_slot_of(many_home_j(c - 8));
    return col + z * LAB_TK_BYTES(8) + half * LAB_HALF_BYTES(8) + slot * LAB_CELL_BYTES(8);
}

// Word q's slices (from gather) into TK array Z (0: TK1, 1: TK2, 2: TK3)
// before round 0 (TK1 has no LFSR).
template <int Z>
DEV void put_word(char* col, int q, const u32* t) {
#pragma unroll
    for (int g = 0; g < 4; g++) {
        const int c = 4 * q + g;
        if (c >= 8 && Z > 0) {
            u32 w[8];
            lab_lfsr<8, Z>(w, t + 8 * g);
            lab_put<8>(many_home(col, Z, c), w);
        } else {
            lab_put<8>(many_home(col, Z, c), t + 8 * g);
        }
    }
}

// `part`'s block k (padded when `pad`) of every lane into TK array Z.
template <int Z>
DEV void load_tk(char* col, const ManyArgs& a, const u32* lanes, int part, bool open, u32 k, bool pad) {
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        gather(t, a, lanes, part, open, k, q, pad);
        put_word<Z>(col, q, t);
    }
}

// TK1 = counter ‖ domain ‖ 0^64, the same for every lane: cells 0-7 as 0/~0
// words (cells 8-15, zero, are cleared once: TK1 has no LFSR).
DEV void set_tk1(char* col, u64 counter, u32 domain) {
    const u64 v = counter | ((u64)domain << 56);
#pragma unroll
    for (int c = 0; c < 8; c++) {
        u32 w[8];
#pragma unroll
        for (int i = 0; i < 8; i++) w[i] = 0u - (u32)((v >> (8 * c + i)) & 1);
        lab_put<8>(many_home(col, 0, c), w);
    }
}

DEV void clear_tk1_half1(char* col) {
    u32 z[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll 1
    for (int c = 8; c < 16; c++) lab_put<8>(many_home(col, 0, c), z);
}

// The 56-bit LFSR counter: one step multiplies by x modulo x^56 + x^7 + x^4 + x^2 + 1.
DEV u64 lfsr56_step(u64 c) {
    const u64 carry = (c >> 55) & 1;
    return ((c << 1) & ((1ull << 56) - 1)) ^ (carry * 0x95);
}

// S <- E(S) under TK1 (counter, domain) and the TK2/TK3 in shared memory,
// which are stepped back to their loaded state afterwards.
DEV void tbc(u32* s, char* col, u64 counter, u32 domain) {
    set_tk1(col, counter, domain);
    lab_encrypt<8, 3>(s, col, MANY_ROUNDS);
    lab_unschedule<8, 3>(col, MANY_ROUNDS);
}

// S ^= `part`'s block k (padded), every lane.
DEV void absorb(u32* s, const ManyArgs& a, const u32* lanes, int part, bool open, u32 k) {
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        gather(t, a, lanes, part, open, k, q, true);
#pragma unroll
        for (int p = 0; p < 32; p++) s[q * 32 + p] ^= t[p];
    }
}

// Word q of G(S) (every byte (x7 .. x0) -> (x0 ^ x7, x7, .., x1)), as
// slices: t[8 g + i] for cell 4 q + g.
DEV void g_word(u32* t, const u32* s, int q) {
#pragma unroll
    for (int g = 0; g < 4; g++) {
        const u32* c = s + q * 32 + 8 * g;
#pragma unroll
        for (int i = 0; i < 7; i++) t[8 * g + i] = c[i + 1];
        t[8 * g + 7] = c[0] ^ c[7];
    }
}

// S <- G(S) in place.
DEV void g_state(u32* s) {
#pragma unroll
    for (int c = 0; c < 16; c++) {
        u32* x = s + 8 * c;
        const u32 x0 = x[0];
#pragma unroll
        for (int i = 0; i < 7; i++) x[i] = x[i + 1];
        x[7] ^= x0;
    }
}

// One message block i of every lane: out = G(S) ^ in (each lane's own bytes
// of block i of PART_IN, written at its output), then S ^= the plaintext
// block (padded: seal's input, open's output), unless `absorb_plain` is off.
DEV void crypt_block(u32* s, const ManyArgs& a, const u32* lanes, bool open, u32 i, bool absorb_plain) {
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        g_word(t, s, q);
        transpose32(t);
#pragma unroll 4
        for (int j = 0; j < 32; j++) {
            u32 start, len, ostart, olen;
            const u8* base = part_span(a, PART_IN, open, lanes[j], start, len);
            part_span(a, PART_OUT, open, lanes[j], ostart, olen);
            const u32 off = 16 * i + 4 * q;
            const u32 n = bytes_below(len, off);
            const u32 in = word_at(base, start, len, off);
            const u32 o = keep_bytes(t[j] ^ in, n);
            if (n > 0) store_word(a.out, ostart + off, o, n < 4 ? n : 4);
            t[j] = (open ? o : in) | pad_byte(len, i, q);
        }
        if (absorb_plain) {
            transpose32(t);
#pragma unroll
            for (int p = 0; p < 32; p++) s[q * 32 + p] ^= t[p];
        }
    }
}

// Seal: writes G(S) as each lane's tag after its ciphertext. Open: compares
// G(S) with each lane's tag and returns the lanes whose tag is wrong (a bit
// a lane; empty lanes never fail).
DEV u32 finish_tag(const u32* s, const ManyArgs& a, const u32* lanes, bool open) {
    u32 bad = 0;
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        g_word(t, s, q);
        transpose32(t);
#pragma unroll 4
        for (int j = 0; j < 32; j++) {
            u32 start, len;
            if (open) {
                const u8* base = part_span(a, PART_TAG, open, lanes[j], start, len);
                const u32 diff = t[j] ^ word_at(base, start, len, 4 * q);
                bad |= (diff != 0 && lanes[j] != MANY_NONE ? 1u : 0u) << j;
            } else if (lanes[j] != MANY_NONE) {
                part_span(a, PART_IN, open, lanes[j], start, len);
                u32 ostart, olen;
                part_span(a, PART_OUT, open, lanes[j], ostart, olen);
                store_word(a.out, ostart + len + 4 * q, t[j], 4);
            }
        }
    }
    return bad;
}

// Open: each lane's status, and zeros over a forged lane's plaintext.
DEV void report(const ManyArgs& a, const u32* lanes, u32 bad) {
#pragma unroll 1
    for (int j = 0; j < 32; j++) {
        const u32 m = lanes[j];
        if (m == MANY_NONE) continue;
        const u32 forged = (bad >> j) & 1;
        a.status[m] = forged;
        if (forged) {
            u32 start, len;
            part_span(a, PART_OUT, true, m, start, len);
            for (u32 b = 0; b < len; b++) a.out[start + b] = 0;
        }
    }
}

// The block counts of a class: n blocks (the empty string is one empty block)
// and whether the last is full, from lane 0's lengths.
DEV void blocks_of(u32 len, u32& n, bool& full) {
    n = len == 0 ? 1u : (len + 15) / 16;
    full = len != 0 && len % 16 == 0;
}

// Absorbs blocks `from` .. `from + n` of the pair sequence (Romulus-N's AD,
// Romulus-M's AD then message): even blocks into S, odd ones as TK2 of a call
// with counter x^k and `domain`. `counter` is x^from; returns x^(from + n).
DEV u64 absorb_pairs(u32* s, char* col, const ManyArgs& a, const u32* lanes, int part, bool open, u32 from, u32 n,
                     u64 counter, u32 domain) {
#pragma unroll 1
    for (u32 b = 0; b < n; b++) {
        if (((from + b) & 1) == 0) {
            absorb(s, a, lanes, part, open, b);
        } else {
            load_tk<1>(col, a, lanes, part, open, b, true);
            tbc(s, col, counter, domain);
        }
        counter = lfsr56_step(counter);
    }
    return counter;
}

DEV void zero_state(u32* s) {
#pragma unroll
    for (int w = 0; w < 128; w++) s[w] = 0;
}

// Romulus-N, one thread's 32 messages.
DEV void romulus_n(const ManyArgs& a, const u32* lanes, char* col, bool open) {
    u32 s0, s1, sa, sd;
    part_span(a, PART_AD, open, lanes[0], s0, sa);
    part_span(a, PART_IN, open, lanes[0], s1, sd);
    u32 na, nm;
    bool afull, mfull;
    blocks_of(sa, na, afull);
    blocks_of(sd, nm, mfull);

    u32 s[128];
    zero_state(s);
    clear_tk1_half1(col);
    load_tk<2>(col, a, lanes, PART_KEY, open, 0, false);
    u64 counter = absorb_pairs(s, col, a, lanes, PART_AD, open, 0, na, 1, D_AD);
    load_tk<1>(col, a, lanes, PART_NONCE, open, 0, false);
    tbc(s, col, counter, afull ? D_AD_LAST_FULL : D_AD_LAST_PARTIAL);

    counter = 1;
#pragma unroll 1
    for (u32 i = 0; i < nm; i++) {
        crypt_block(s, a, lanes, open, i, true);
        counter = lfsr56_step(counter);
        const u32 domain = i + 1 < nm ? D_MSG : mfull ? D_MSG_LAST_FULL : D_MSG_LAST_PARTIAL;
        tbc(s, col, counter, domain);
    }
    const u32 bad = finish_tag(s, a, lanes, open);
    if (open) report(a, lanes, bad);
}

// Romulus-M's MAC over the AD and `msg` (seal: the input; open: the output).
DEV void romulus_m_mac(u32* s, const ManyArgs& a, const u32* lanes, char* col, bool open, int msg, u32 na, bool afull,
                       u32 nm, bool mfull) {
    zero_state(s);
    load_tk<2>(col, a, lanes, PART_KEY, open, 0, false);
    u64 counter = absorb_pairs(s, col, a, lanes, PART_AD, open, 0, na, 1, D_AD | M_MEMBER);
    counter = absorb_pairs(s, col, a, lanes, msg, open, na, nm, counter, D_PAIR_WITH_MESSAGE | M_MEMBER);
    u32 w = 16;
    if ((na & 1) == 0) w |= 8;
    if ((nm & 1) == 0) w |= 4;
    if (!afull) w |= 2;
    if (!mfull) w |= 1;
    load_tk<1>(col, a, lanes, PART_NONCE, open, 0, false);
    tbc(s, col, counter, w | M_MEMBER);
}

// Romulus-M's encryption from S = the tag (TK2 = the nonce, TK3 = the key loaded).
DEV void romulus_m_crypt(u32* s, const ManyArgs& a, const u32* lanes, char* col, bool open, u32 nm) {
    u64 counter = 1;
#pragma unroll 1
    for (u32 i = 0; i < nm; i++) {
        tbc(s, col, counter, D_MSG | M_MEMBER);
        counter = lfsr56_step(counter);
        crypt_block(s, a, lanes, open, i, i + 1 < nm);
    }
}

// Romulus-M, one thread's 32 messages.
DEV void romulus_m(const ManyArgs& a, const u32* lanes, char* col, bool open) {
    u32 s0, s1, sa, sd;
    part_span(a, PART_AD, open, lanes[0], s0, sa);
    part_span(a, PART_IN, open, lanes[0], s1, sd);
    u32 na, nm;
    bool afull, mfull;
    blocks_of(sa, na, afull);
    blocks_of(sd, nm, mfull);

    u32 s[128];
    clear_tk1_half1(col);
    if (!open) {
        romulus_m_mac(s, a, lanes, col, open, PART_IN, na, afull, nm, mfull);
        finish_tag(s, a, lanes, false);
        g_state(s);
        romulus_m_crypt(s, a, lanes, col, open, nm);
    } else {
        // S = the tag given; TK2 = the nonce, TK3 = the key.
        zero_state(s);
        absorb(s, a, lanes, PART_TAG, open, 0);
        load_tk<2>(col, a, lanes, PART_KEY, open, 0, false);
        load_tk<1>(col, a, lanes, PART_NONCE, open, 0, false);
        romulus_m_crypt(s, a, lanes, col, open, nm);
        romulus_m_mac(s, a, lanes, col, open, PART_OUT, na, afull, nm, mfull);
        report(a, lanes, finish_tag(s, a, lanes, true));
    }
}
