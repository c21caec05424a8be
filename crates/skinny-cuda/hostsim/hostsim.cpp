// Runs the CUDA kernels' C++ on the host, one simulated thread after another,
// against vectors from `cargo run --example hostsim_vectors`. A check of the
// kernels' logic that needs no GPU (scripts/kernels/hostsim.sh); the real check is
// the GPU test suite.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <algorithm>
using std::min;

#include "shim.h"
#define BS_ENTRY(...)
#define PAPER_ENTRY(...)

#include "../kernels/common.cuh"
#include "../kernels/bitsliced_round.cuh"
#include "../kernels/bitsliced.cu"
#include "../kernels/paper_ttable.cu"

static std::vector<uint8_t> unhex(const std::string& s) {
    std::vector<uint8_t> v(s.size() / 2);
    for (size_t i = 0; i < v.size(); i++) v[i] = (uint8_t)std::stoul(s.substr(2 * i, 2), nullptr, 16);
    return v;
}

template <typename F>
static std::vector<uint8_t> run_threads(const std::vector<uint8_t>& in, size_t n, size_t bs, F f, size_t threads) {
    std::vector<uint8_t> out(in.size() + 64 * 1024, 0xAA);
    for (size_t t = 0; t < threads; t++) f((const u32*)in.data(), (u32*)out.data(), (u64)n, (u64)t);
    out.resize(n * bs);
    return out;
}

int main(int argc, char** argv) {
    int failures = 0;
    for (int a = 1; a < argc; a++) {
        std::ifstream f(argv[a]);
        std::string line, name;
        size_t bs = 0, n = 0;
        int rounds = 0;
        std::map<std::string, std::vector<uint8_t>> vec;
        while (std::getline(f, line)) {
            std::istringstream ls(line);
            std::string tag;
            ls >> tag;
            if (tag == "variant") ls >> name >> bs >> rounds;
            else if (tag == "sym") {
                std::string sym; size_t cnt; ls >> sym >> cnt;
                std::vector<u32> w(cnt);
                for (auto& x : w) { std::string h; ls >> h; x = (u32)std::stoul(h, nullptr, 16); }
                u32* dst = sym == "round_masks" ? round_masks : sym == "round_masks_rev" ? round_masks_rev : sym == "T" ? &T[0][0] : sym == "TI" ? &TI[0][0]
                         : sym == "SINV" ? SINV : sym == "RK" ? &RK[0][0] : sym == "RC" ? &RC[0][0]
                         : sym == "DK" ? &DK[0][0] : &DC[0][0];
                memcpy(dst, w.data(), cnt * 4);
            } else if (tag == "n") ls >> n;
            else { std::string h; ls >> h; vec[tag] = unhex(h); }
        }
        u32 iv[4] = {0, 0, 0, 0};
        memcpy(iv, vec["iv"].data(), bs);
        const auto& data = vec["data"];
        size_t bs_threads = (n + 1023) / 1024 * 32;
        auto check = [&](const char* what, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
            bool ok = got == want;
            printf("%-16s %-12s %s\n", name.c_str(), what, ok ? "ok" : "MISMATCH");
            if (!ok) failures++;
        };
#define BS(NW, CB, MODE, DEC) [&](const u32* i, u32* o, u64 nn, u64 t) { bitsliced_kernel<NW, CB, MODE, DEC>(i, o, nn, iv, rounds, t); }
        if (bs == 16) {
            check("bs ecb_enc", run_threads(data, n, bs, BS(4, 8, MODE_ECB, false), bs_threads), vec["ecb_enc"]);
            check("bs ecb_dec", run_threads(data, n, bs, BS(4, 8, MODE_ECB, true), bs_threads), vec["ecb_dec"]);
            check("bs ctr", run_threads(data, n, bs, BS(4, 8, MODE_CTR, false), bs_threads), vec["ctr"]);
            check("bs cbc_dec", run_threads(data, n, bs, BS(4, 8, MODE_CBC, true), bs_threads), vec["cbc_dec"]);
            check("bs cfb_dec", run_threads(data, n, bs, BS(4, 8, MODE_CFB, false), bs_threads), vec["cfb_dec"]);
#define PP(MODE) [&](const u32* i, u32* o, u64 nn, u64 t) { paper_block(i, o, nn, iv, rounds, MODE, t); }
            check("paper ecb_enc", run_threads(data, n, bs, PP(0), n), vec["ecb_enc"]);
            check("paper ecb_dec", run_threads(data, n, bs, PP(1), n), vec["ecb_dec"]);
            check("paper ctr", run_threads(data, n, bs, PP(2), n), vec["ctr"]);
        } else {
            check("bs ecb_enc", run_threads(data, n, bs, BS(2, 4, MODE_ECB, false), bs_threads), vec["ecb_enc"]);
            check("bs ecb_dec", run_threads(data, n, bs, BS(2, 4, MODE_ECB, true), bs_threads), vec["ecb_dec"]);
            check("bs ctr", run_threads(data, n, bs, BS(2, 4, MODE_CTR, false), bs_threads), vec["ctr"]);
            check("bs cbc_dec", run_threads(data, n, bs, BS(2, 4, MODE_CBC, true), bs_threads), vec["cbc_dec"]);
            check("bs cfb_dec", run_threads(data, n, bs, BS(2, 4, MODE_CFB, false), bs_threads), vec["cfb_dec"]);
        }
    }
    printf("%d failed\n", failures);
    return failures ? 1 : 0;
}
