// The many-message engine's SKINNY-AEAD members (M1-M6, NIST LWC round 2) over
// a batch of independent messages, each with its own key, nonce, AD and
// length: the frame of many.cu (32 messages a thread, bitsliced, one length
// class a thread, each message's tweakey in shared memory, scheduled on the
// fly), with the mode of skinny-aead's mode.rs. Constant time as many.cu.
//
// With message blocks M_1 .. M_l (the last, M_*, possibly partial), AD blocks
// A_1 .. A_a and lfsr_i the counter after i - 1 steps from 1:
//   C_i = E(lfsr_i, D_MSG; M_i)   (open: M_i = D(lfsr_i, D_MSG; C_i))
//   C_* = M_* ^ E(lfsr_{l+1}, D_MSG_PARTIAL; 0), truncated
//   tag block = E(lfsr_{l+1}, D_TAG; Σ) or, after a partial block,
//               E(lfsr_{l+2}, D_TAG_PARTIAL; Σ), Σ = XOR of the plaintext
//               blocks, the partial one padded 10*
//   Auth = XOR of E(lfsr_i, D_AD; A_i), a partial last one padded 10* under
//          D_AD_PARTIAL (the counter restarted at 1)
//   tag = the first τ bytes of tag block ^ Auth.
// Every domain byte carries the member's prefix. A class (the host's layout)
// is: whole AD blocks, a partial AD block or not, whole message blocks, a
// partial message block or not; so every call of a thread has one counter
// and one domain for its 32 lanes.
//
// The tweakey: M1-M4 (SKINNY-128-384, 56 rounds) TK1 = counter (8 bytes,
// little-endian) ‖ 0^56 ‖ domain, TK2 = the nonce zero-padded, TK3 = the key;
// M5-M6 (SKINNY-128-256, 48 rounds) TK1 = counter (3 bytes) ‖ domain ‖ the
// 96-bit nonce, TK2 = the key. The counter and domain cells are the same for
// the 32 lanes (0/~0 words, written before each call); the nonce and key are
// loaded once a thread (the host puts each nonce in a 16-byte slot where the
// tweakey wants it: bytes 4..16 for M5-M6, else from byte 0). Calls step
// TK2/TK3 back afterwards (lab_unschedule); a decryption steps them forward
// first (lab_schedule).
//
// Auth and the tag block are sums of cipher outputs: Auth waits in local
// memory (a word a lane and word of the block; 128 words would not fit next to
// the state in registers), and Σ is summed in the state once the message is
// done, from the plaintext (seal's input, open's output already written).

// M1..M6 as 1..6: their cipher, rounds, counter width, tag and domain prefix.
DEV constexpr int aead_z(int m) { return m <= 4 ? 3 : 2; }
DEV constexpr int aead_rounds(int m) { return m <= 4 ? 56 : 48; }
DEV constexpr int aead_counter_bits(int m) { return m <= 4 ? 64 : 24; }
DEV constexpr u32 aead_tag_len(int m) { return (m == 1 || m == 2 || m == 5) ? 16 : 8; }
// The prefix: bit 4 for a 96-bit nonce, bit 3 for a 64-bit tag.
DEV constexpr u32 aead_prefix(int m) { return (m == 1 || m == 3 ? 0 : 0x10) | (aead_tag_len(m) == 8 ? 0x08 : 0); }

#define AEAD_D_MSG 0
#define AEAD_D_MSG_PARTIAL 1
#define AEAD_D_AD 2
#define AEAD_D_AD_PARTIAL 3
#define AEAD_D_TAG 4
#define AEAD_D_TAG_PARTIAL 5

// One step of the counter: multiplication by x modulo x^BITS + x^4 + x^3 + x + 1.
template <int BITS>
DEV u64 aead_lfsr_step(u64 c) {
    const u64 mask = BITS == 64 ? ~0ull : ((1ull << BITS) - 1);
    const u64 top = (c >> (BITS - 1)) & 1;
    return ((c << 1) & mask) ^ (top * 0x1b);
}

// TK1's counter and domain cells (the same for every lane) at their homes.
template <int M>
DEV void aead_set_tk1(char* col, u64 counter, u32 domain) {
    const int ncells = M <= 4 ? 8 : 3;
#pragma unroll
    for (int c = 0; c < ncells + 1; c++) {
        const u32 v = c < ncells ? (u32)(counter >> (8 * c)) & 0xff : domain;
        u32 w[8];
#pragma unroll
        for (int i = 0; i < 8; i++) w[i] = 0u - ((v >> i) & 1);
        lab_put<8>(many_home(col, 0, c < ncells ? c : (M <= 4 ? 15 : 3)), w);
    }
}

// S <- E(S), or D(S) when `inverse`, under this call's counter and domain and
// the lanes' nonces and keys; TK2/TK3 are back in their loaded state after.
template <int M>
DEV void aead_tbc(u32* s, char* col, u64 counter, u32 domain, bool inverse) {
    aead_set_tk1<M>(col, counter, aead_prefix(M) | domain);
    if (inverse) {
        lab_schedule<8, aead_z(M)>(col, aead_rounds(M));
        lab_decrypt<8, aead_z(M)>(s, col, aead_rounds(M));
    } else {
        lab_encrypt<8, aead_z(M)>(s, col, aead_rounds(M));
        lab_unschedule<8, aead_z(M)>(col, aead_rounds(M));
    }
}

// S = block k of `part` of every lane (padded as `pad`).
DEV void aead_load(u32* s, const ManyArgs& a, const u32* lanes, int part, bool open, u32 k, int pad) {
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        gather(t, a, lanes, part, open, k, q, pad);
#pragma unroll
        for (int p = 0; p < 32; p++) s[q * 32 + p] = t[p];
    }
}

// S ^= block k of `part` of every lane (padded as `pad`).
DEV void aead_absorb(u32* s, const ManyArgs& a, const u32* lanes, int part, bool open, u32 k, int pad) {
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        gather(t, a, lanes, part, open, k, q, pad);
#pragma unroll
        for (int p = 0; p < 32; p++) s[q * 32 + p] ^= t[p];
    }
}

// Word q of S, a word a lane: t[j] = lane j's.
DEV void aead_unslice(u32* t, const u32* s, int q) {
#pragma unroll
    for (int p = 0; p < 32; p++) t[p] = s[q * 32 + p];
    transpose32(t);
}

// Every lane's output block i: its bytes of block i of PART_IN XORed with S
// (whole blocks: S itself, `xor_in` off; the partial block: the keystream),
// as many as the lane's input has there.
DEV void aead_store(const u32* s, const ManyArgs& a, const u32* lanes, bool open, u32 i, bool xor_in) {
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        aead_unslice(t, s, q);
#pragma unroll 4
        for (int j = 0; j < 32; j++) {
            u32 start, len, ostart, olen;
            const u8* base = part_span(a, PART_IN, open, lanes[j], start, len);
            part_span(a, PART_OUT, open, lanes[j], ostart, olen);
            const u32 off = 16 * i + 4 * q;
            const u32 n = bytes_below(len, off);
            const u32 o = keep_bytes(xor_in ? t[j] ^ word_at(base, start, len, off) : t[j], n);
            if (n > 0) store_word(a.out, ostart + off, o, n < 4 ? n : 4);
        }
    }
}

// acc (local memory, acc[32 q + j] = word q of lane j) ^= S.
DEV void aead_fold(u32* acc, const u32* s) {
#pragma unroll 1
    for (int q = 0; q < 4; q++) {
        u32 t[32];
        aead_unslice(t, s, q);
#pragma unroll 1
        for (int j = 0; j < 32; j++) acc[32 * q + j] ^= t[j];
    }
}

// Seal: each lane's tag (the first τ bytes of acc) after its ciphertext.
// Open: the lanes whose tag differs (a bit a lane; empty lanes never fail).
DEV u32 aead_finish(const u32* acc, const ManyArgs& a, const u32* lanes, bool open) {
    u32 bad = 0;
#pragma unroll 1
    for (u32 q = 0; q < a.tag / 4; q++) {
#pragma unroll 1
        for (int j = 0; j < 32; j++) {
            const u32 m = lanes[j];
            if (m == MANY_NONE) continue;
            u32 start, len;
            if (open) {
                const u8* base = part_span(a, PART_TAG, open, m, start, len);
                bad |= (acc[32 * q + j] != word_at(base, start, len, 4 * q) ? 1u : 0u) << j;
            } else {
                part_span(a, PART_IN, open, m, start, len);
                u32 ostart, olen;
                part_span(a, PART_OUT, open, m, ostart, olen);
                store_word(a.out, ostart + len + 4 * q, acc[32 * q + j], 4);
            }
        }
    }
    return bad;
}

// One thread's 32 messages of member M.
template <int M>
DEV void skinny_aead_many(const ManyArgs& a, const u32* lanes, char* col, bool open) {
    const int BITS = aead_counter_bits(M);
    u32 s0, s1, sa, sd;
    part_span(a, PART_AD, open, lanes[0], s0, sa);
    part_span(a, PART_IN, open, lanes[0], s1, sd);
    const u32 na = sa / 16, nm = sd / 16;
    const bool apart = sa % 16 != 0, mpart = sd % 16 != 0;

    // The key, the nonce, and (M1-M4) TK1's zero cells 8..14.
    if (M <= 4) {
        clear_tk1_half1(col);
        load_tk<2>(col, a, lanes, PART_KEY, open, 0, false);
        load_tk<1>(col, a, lanes, PART_NONCE, open, 0, false);
    } else {
        load_tk<1>(col, a, lanes, PART_KEY, open, 0, false);
        load_tk<0>(col, a, lanes, PART_NONCE, open, 0, false);
    }

    u32 acc[128];
#pragma unroll 1
    for (int w = 0; w < 128; w++) acc[w] = 0;
    u32 s[128];

    u64 counter = 1;
#pragma unroll 1
    for (u32 i = 0; i < na; i++) {
        aead_load(s, a, lanes, PART_AD, open, i, PAD_NONE);
        aead_tbc<M>(s, col, counter, AEAD_D_AD, false);
        aead_fold(acc, s);
        counter = aead_lfsr_step<BITS>(counter);
    }
    if (apart) {
        aead_load(s, a, lanes, PART_AD, open, na, PAD_AEAD);
        aead_tbc<M>(s, col, counter, AEAD_D_AD_PARTIAL, false);
        aead_fold(acc, s);
    }

    counter = 1;
#pragma unroll 1
    for (u32 i = 0; i < nm; i++) {
        aead_load(s, a, lanes, PART_IN, open, i, PAD_NONE);
        aead_tbc<M>(s, col, counter, AEAD_D_MSG, open);
        aead_store(s, a, lanes, open, i, false);
        counter = aead_lfsr_step<BITS>(counter);
    }
    if (mpart) {
        zero_state(s);
        aead_tbc<M>(s, col, counter, AEAD_D_MSG_PARTIAL, false);
        aead_store(s, a, lanes, open, nm, true);
        counter = aead_lfsr_step<BITS>(counter);
    }

    // Σ from the plaintext: seal's input, open's output (written above).
    const int plain = open ? PART_OUT : PART_IN;
    zero_state(s);
#pragma unroll 1
    for (u32 i = 0; i < nm; i++) aead_absorb(s, a, lanes, plain, open, i, PAD_NONE);
    if (mpart) aead_absorb(s, a, lanes, plain, open, nm, PAD_AEAD);
    aead_tbc<M>(s, col, counter, mpart ? AEAD_D_TAG_PARTIAL : AEAD_D_TAG, false);
    aead_fold(acc, s);

    const u32 bad = aead_finish(acc, a, lanes, open);
    if (open) report(a, lanes, bad);
}
