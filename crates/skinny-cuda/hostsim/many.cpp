// Runs the many-message kernels' C++ (kernels/many.cu, many_aead.cu) on the host, one
// simulated thread after another, over a chunk image written by
// `cargo run -p skinny-many --features cuda --example many_gpu_hostsim`, which
// then checks the output against the single-message Romulus and SKINNY-AEAD
// types. A check of
// the kernels' logic that needs no GPU; the real check is the GPU suite.
//
// many <image-in> <image-out>: the input file is the header (u32 scheme (0:
// Romulus-N, 1: Romulus-M, 2..7: SKINNY-AEAD M1..M6), u32 open, u32 ngroups, u32 nmsg, u64 in_len, u64 out_len, u64
// offsets of lanes, ad_ends, data_ends, out_ends, keys, nonces, ad, data in
// the input image and of out, status in the output image), the round
// constants (56 x 6 u32), then the input image; the output file is the
// output image.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>
#include <algorithm>
using std::min;

#include "shim.h"
#define MANY_ENTRY(...)

#include "../kernels/common.cuh"
#include "../kernels/bitsliced_round.cuh"
#include "../kernels/tweakey_slices.cuh"
#include "../kernels/many_io.cuh"
#include "../kernels/many.cu"
#include "../kernels/many_aead.cu"
#include "../kernels/many_entry.cu"

// many_kernel<scheme, open> for a scheme known at run time.
template <int S>
void run(u32 scheme, bool open, const ManyArgs& a, u32 ngroups, u32 g) {
    if (scheme != S) {
        if constexpr (S < 7) run<S + 1>(scheme, open, a, ngroups, g);
        return;
    }
    if (open) many_kernel<S, true>(a, ngroups, g, g % 32);
    else many_kernel<S, false>(a, ngroups, g, g % 32);
}

int main(int argc, char** argv) {
    if (argc != 3) { fprintf(stderr, "usage: many <image-in> <image-out>\n"); return 2; }
    std::ifstream f(argv[1], std::ios::binary);
    std::vector<char> file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const char* p = file.data();
    u32 h[4];
    u64 lens[2], off[10];
    memcpy(h, p, 16); p += 16;
    memcpy(lens, p, 16); p += 16;
    memcpy(off, p, 80); p += 80;
    memcpy(lab_rc, p, sizeof(u32) * SKINNY_MAX_ROUNDS * 6); p += sizeof(u32) * SKINNY_MAX_ROUNDS * 6;
    std::vector<u8> in(p, p + lens[0]);
    std::vector<u8> out(lens[1], 0xA5);
    ManyArgs a = {(const u32*)(in.data() + off[0]), (const u32*)(in.data() + off[1]), (const u32*)(in.data() + off[2]),
                  (const u32*)(in.data() + off[3]), in.data() + off[4], in.data() + off[5], in.data() + off[6],
                  in.data() + off[7], out.data() + off[8], (u32*)(out.data() + off[9]), 16};
    const u32 scheme = h[0], open = h[1], ngroups = h[2];
    if (scheme > 7) { fprintf(stderr, "no scheme %u\n", scheme); return 2; }
    a.tag = many_tag_len((int)scheme);
    for (u32 g = 0; g < ngroups; g++) run<0>(scheme, open != 0, a, ngroups, g);
    std::ofstream o(argv[2], std::ios::binary);
    o.write((const char*)out.data(), out.size());
    return 0;
}
