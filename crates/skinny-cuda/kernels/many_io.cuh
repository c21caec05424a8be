// The many-message kernels' access to their messages (many.cu): where each
// lane's key, nonce, AD, data and output lie, their blocks' words loaded
// zero-padded (and padded as Romulus's pad_n or SKINNY-AEAD's 10*), written back byte-exact, and
// gathered into bitsliced words. Branches and addresses follow the lengths and
// the message indices only, which are public.

typedef unsigned char u8;

// An empty lane.
#define MANY_NONE 0xFFFFFFFFu

// Where a thread finds its messages.
struct ManyArgs {
    const u32* lanes;
    const u32* ad_ends;
    const u32* data_ends;
    const u32* out_ends;
    const u8* keys;
    const u8* nonces;
    const u8* ad;
    const u8* data;
    u8* out;
    u32* status;
    u32 tag;  // bytes of a tag (16, or 8 for SKINNY-AEAD M3, M4, M6): constant a kernel
};

// The parts of a message a block can come from.
#define PART_KEY 0
#define PART_NONCE 1
#define PART_AD 2
#define PART_IN 3    // seal: the plaintext; open: the ciphertext (the tag excluded)
#define PART_TAG 4   // open: the tag after the ciphertext
#define PART_OUT 5   // the output (open: the plaintext written so far)

DEV u32 span_start(const u32* ends, u32 i) { return i == 0 ? 0u : ends[i - 1]; }

// Base, start and length of `part` of message `m` (none for an empty lane).
DEV const u8* part_span(const ManyArgs& a, int part, bool open, u32 m, u32& start, u32& len) {
    start = 0;
    len = 0;
    if (m == MANY_NONE) return a.data;
    switch (part) {
        case PART_KEY: start = 16 * m; len = 16; return a.keys;
        case PART_NONCE: start = 16 * m; len = 16; return a.nonces;
        case PART_AD: start = span_start(a.ad_ends, m); len = a.ad_ends[m] - start; return a.ad;
        case PART_IN:
        case PART_TAG: {
            start = span_start(a.data_ends, m);
            len = a.data_ends[m] - start;
            const u32 body = open ? len - a.tag : len;
            if (part == PART_TAG) { start += body; len = a.tag; } else { len = body; }
            return a.data;
        }
        default: start = span_start(a.out_ends, m); len = a.out_ends[m] - start; return a.out;
    }
}

// Bytes off .. off+3 of the `len` bytes at base + start, zero past the end
// (little-endian, as the blocks' words are everywhere).
DEV u32 word_at(const u8* base, u32 start, u32 len, u32 off) {
    if (off + 4 <= len && ((start + off) & 3) == 0) return *reinterpret_cast<const u32*>(base + start + off);
    u32 w = 0;
#pragma unroll
    for (int b = 0; b < 4; b++) {
        if (off + b < len) w |= (u32)base[start + off + b] << (8 * b);
    }
    return w;
}

// How a block short of 16 bytes is padded (`gather`).
#define PAD_NONE 0
#define PAD_ROMULUS 1  // Romulus's pad_n: its length in byte 15
#define PAD_AEAD 2     // SKINNY-AEAD's: 0x80 after the data (also for an empty block)

// Romulus's pad_n of block k, word q: a short last block gets its length in
// byte 15 (an empty one stays zero).
DEV u32 pad_byte(u32 len, u32 k, int q) {
    const u32 from = 16 * k;
    return (q == 3 && len > from && len - from < 16) ? (len - from) << 24 : 0u;
}

// SKINNY-AEAD's padding of block k, word q: 0x80 at byte len - 16 k when that
// lies inside the block (the callers ask only for a last, short block).
DEV u32 pad80_byte(u32 len, u32 k, int q) {
    const u32 from = 16 * k;
    const u32 at = len - from;
    return (len >= from && at < 16 && at / 4 == (u32)q) ? 0x80u << (8 * (at & 3)) : 0u;
}

DEV u32 pad_word(int pad, u32 len, u32 k, int q) {
    return pad == PAD_ROMULUS ? pad_byte(len, k, q) : pad == PAD_AEAD ? pad80_byte(len, k, q) : 0u;
}

// The first n bytes of w (n may exceed 4).
DEV u32 keep_bytes(u32 w, u32 n) { return n >= 4 ? w : w & ((1u << (8 * n)) - 1u); }

// How many of bytes off .. off+3 lie below len.
DEV u32 bytes_below(u32 len, u32 off) { return len <= off ? 0u : len - off; }

// Writes the first n (< 4 or 4) bytes of w at base + at.
DEV void store_word(u8* base, u32 at, u32 w, u32 n) {
    if (n >= 4 && (at & 3) == 0) {
        *reinterpret_cast<u32*>(base + at) = w;
        return;
    }
#pragma unroll
    for (u32 b = 0; b < 4; b++) {
        if (b < n) base[at + b] = (u8)(w >> (8 * b));
    }
}

// t[p] bit j = bit p of word q of block k of `part` of lane j (padded as
// `pad` says; true: Romulus's): a block's word as the state and the tweakey
// slices hold it.
DEV void gather(u32* t, const ManyArgs& a, const u32* lanes, int part, bool open, u32 k, int q, int pad) {
#pragma unroll 4
    for (int j = 0; j < 32; j++) {
        u32 start, len;
        const u8* base = part_span(a, part, open, lanes[j], start, len);
        t[j] = word_at(base, start, len, 16 * k + 4 * q) | pad_word(pad, len, k, q);
    }
    transpose32(t);
}

