// Runs the neural-pairs kernels' C++ (pairs.cu, after lab.cu) on the host,
// one simulated thread after another, against data sets from `cargo run -p
// skinny-lab --features cuda --example hostsim_pairs_vectors`, made by the
// CPU's definition (scripts/kernels/hostsim.sh). The real check is the GPU
// suite; this one needs no GPU.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
using std::min;

#include "lab_host.h"
#define PAIRS_ENTRY(...)
#include "../kernels/pairs.cu"

static std::vector<uint8_t> unhex(const std::string& s) {
    std::vector<uint8_t> v(s.size() / 2);
    for (size_t i = 0; i < v.size(); i++) v[i] = (uint8_t)std::stoul(s.substr(2 * i, 2), nullptr, 16);
    return v;
}

int main(int argc, char** argv) {
    int failures = 0, cases = 0;
    std::ifstream f(argv[1]);
    std::string line, name;
    int bs = 0, z = 0, rounds = 0, neg = 0;
    u64 first = 0, count = 0, states[5] = {0, 0, 0, 0, 0};
    std::vector<uint8_t> want_y;
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        if (tag == "pairs") {
            ls >> name >> bs >> z >> rounds >> neg >> first >> count;
        } else if (tag == "states") {
            for (auto& s : states) ls >> s;
        } else if (tag == "sym") {
            if (!read_symbol(ls)) return 2;
        } else if (tag == "y") {
            std::string h; ls >> h; want_y = unhex(h);
        } else if (tag == "x") {
            std::string h; ls >> h;
            const std::vector<uint8_t> want_x = unhex(h);
            std::vector<u32> x((count * 2 * bs) / 4 + 64, 0xAAAAAAAAu);
            std::vector<uint8_t> y(count + 64, 0xAA);
            const u64 threads = (count + 32 * LAB_T - 1) / (32 * LAB_T) * LAB_T;
            std::vector<u32> scratch(threads * 128);
            for (u64 t = 0; t < threads; t++) {
#define RUN(NW, CB, Z)                                                                                         \
    (neg ? pairs_kernel<NW, CB, Z, PAIRS_RANDOM_PLAINTEXTS>(first, count, states, rounds, x.data(), y.data(),   \
                                                           scratch.data(), t, (u32)(t % LAB_T))                 \
         : pairs_kernel<NW, CB, Z, PAIRS_RANDOM_CIPHERTEXTS>(first, count, states, rounds, x.data(), y.data(),  \
                                                            scratch.data(), t, (u32)(t % LAB_T)))
                if (bs == 16) { if (z == 1) RUN(4, 8, 1); else if (z == 2) RUN(4, 8, 2); else RUN(4, 8, 3); }
                else { if (z == 1) RUN(2, 4, 1); else if (z == 2) RUN(2, 4, 2); else RUN(2, 4, 3); }
            }
            std::vector<uint8_t> got_x((const uint8_t*)x.data(), (const uint8_t*)x.data() + count * 2 * bs);
            // Nothing written past the last sample.
            const bool clean = ((const uint8_t*)x.data())[count * 2 * bs] == 0xAA && y[count] == 0xAA;
            y.resize(count);
            const bool ok = got_x == want_x && y == want_y && clean;
            cases++;
            printf("%-16s %2d rounds %s negatives %5llu samples  %s\n", name.c_str(), rounds,
                   neg ? "random-plaintext " : "random-ciphertext", (unsigned long long)count,
                   ok ? "ok" : "MISMATCH");
            if (!ok) failures++;
        }
    }
    printf("%d cases, %d failed\n", cases, failures);
    return failures || cases == 0 ? 1 : 0;
}
