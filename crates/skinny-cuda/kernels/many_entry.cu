// The many-message kernels' entry points (after many.cu and many_aead.cu),
// one module a scheme family (see MANY_MODULE below).
// SCHEME: 0 Romulus-N, 1 Romulus-M, 2..7 SKINNY-AEAD M1..M6.

// Bytes of a scheme's tag.
DEV constexpr u32 many_tag_len(int scheme) { return scheme < 2 ? 16 : aead_tag_len(scheme - 1); }

template <int SCHEME, bool OPEN>
DEV void many_kernel(const ManyArgs& a, u32 ngroups, u64 gtid, u32 tid) {
    if (gtid >= ngroups) return;
    const u32* lanes = a.lanes + 32 * gtid;
    char* col = reinterpret_cast<char*>(many_shared) + (tid >> 5) * MANY_WARP_BYTES + 16 * (tid & 31);
    if (SCHEME == 0) romulus_n(a, lanes, col, OPEN);
    else if (SCHEME == 1) romulus_m(a, lanes, col, OPEN);
    else skinny_aead_many<SCHEME < 2 ? 1 : SCHEME - 1>(a, lanes, col, OPEN);
}

#ifndef SKINNY_HOSTSIM
#define MANY_ENTRY(name, SCHEME, OPEN)                                                                    \
    extern "C" __global__ void __launch_bounds__(SKINNY_MANY_THREADS, 1)                                  \
    name(const u32* lanes, const u32* ad_ends, const u32* data_ends, const u32* out_ends, const u8* keys,  \
         const u8* nonces, const u8* ad, const u8* data, u8* out, u32* status, u32 ngroups) {             \
        const ManyArgs a = {lanes,  ad_ends, data_ends, out_ends, keys, nonces,                           \
                            ad,     data,    out,       status,   many_tag_len(SCHEME)};                   \
        many_kernel<SCHEME, OPEN>(a, ngroups, (u64)blockIdx.x * blockDim.x + threadIdx.x, threadIdx.x);   \
    }
#endif

// Which entry points a module holds: MANY_MODULE 0 Romulus, 1..6 SKINNY-AEAD
// M1..M6 (the host puts the #define first).
#if !defined(MANY_MODULE) || MANY_MODULE == 0
MANY_ENTRY(many_romulus_n_seal, 0, false)
MANY_ENTRY(many_romulus_n_open, 0, true)
MANY_ENTRY(many_romulus_m_seal, 1, false)
MANY_ENTRY(many_romulus_m_open, 1, true)
#elif MANY_MODULE == 1
MANY_ENTRY(many_aead_m1_seal, 2, false)
MANY_ENTRY(many_aead_m1_open, 2, true)
#elif MANY_MODULE == 2
MANY_ENTRY(many_aead_m2_seal, 3, false)
MANY_ENTRY(many_aead_m2_open, 3, true)
#elif MANY_MODULE == 3
MANY_ENTRY(many_aead_m3_seal, 4, false)
MANY_ENTRY(many_aead_m3_open, 4, true)
#elif MANY_MODULE == 4
MANY_ENTRY(many_aead_m4_seal, 5, false)
MANY_ENTRY(many_aead_m4_open, 5, true)
#elif MANY_MODULE == 5
MANY_ENTRY(many_aead_m5_seal, 6, false)
MANY_ENTRY(many_aead_m5_open, 6, true)
#elif MANY_MODULE == 6
MANY_ENTRY(many_aead_m6_seal, 7, false)
MANY_ENTRY(many_aead_m6_open, 7, true)
#endif
