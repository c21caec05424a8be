// Runs the many-message kernels' C++ (kernels/many.cu) on the host, one
// simulated thread after another, over a chunk image written by
// `cargo run -p skinny-many --features cuda --example many_gpu_hostsim`, which
// then checks the output against the single-message Romulus types. A check of
// the kernels' logic that needs no GPU; the real check is the GPU suite.
//
// many <image-in> <image-out>: the input file is the header (u32 scheme (0:
// N, 1: M), u32 open, u32 ngroups, u32 nmsg, u64 in_len, u64 out_len, u64
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
                  in.data() + off[7], out.data() + off[8], (u32*)(out.data() + off[9])};
    const u32 scheme = h[0], open = h[1], ngroups = h[2];
    for (u32 g = 0; g < ngroups; g++) {
        if (scheme == 0) { if (open) many_kernel<0, true>(a, ngroups, g, g % 32); else many_kernel<0, false>(a, ngroups, g, g % 32); }
        else { if (open) many_kernel<1, true>(a, ngroups, g, g % 32); else many_kernel<1, false>(a, ngroups, g, g % 32); }
    }
    std::ofstream o(argv[2], std::ios::binary);
    o.write((const char*)out.data(), out.size());
    return 0;
}
