// Runs the lab kernels' C++ on the host, one simulated thread after another,
// against experiments from `cargo run -p skinny-lab --features cuda --example
// hostsim_lab_vectors`, whose hits were found with the specification code
// (scripts/kernels/hostsim.sh). The real check is the GPU suite; this one needs
// no GPU.
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

int main(int argc, char** argv) {
    int failures = 0, cases = 0;
    std::ifstream f(argv[1]);
    std::string line;
    std::string name, exp;
    int rounds = 0, bs = 0, z = 0;
    u64 key_every = 1, plain = 0, key = 0, count = 0;
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        if (tag == "lab") {
            ls >> name >> bs >> z >> rounds >> exp >> key_every >> plain >> key >> count;
        } else if (tag == "sym") {
            if (!read_symbol(ls)) return 2;
        } else if (tag == "hits") {
            std::vector<u64> want;
            u64 q;
            while (ls >> q) want.push_back(q);
            const u64 start = 1000;  // the queries run are start .. start+count
            u64 hits = 0;
            u32 rec_n = 0;
            std::vector<u64> rec(count + 64);
            const u64 threads = (count + 32 * LAB_T - 1) / (32 * LAB_T) * LAB_T;
            std::vector<u32> scratch(threads * 128);
            // Per-key counts, group g at g - start / key_every.
            const u64 first = start / key_every;
            std::vector<u32> key_hits((start + count - 1) / key_every - first + 1);
            for (u64 t = 0; t < threads; t++) {
                const int mode = exp == "boomerang" ? LAB_BOOMERANG
                             : exp == "differential-linear" ? LAB_DIFFERENTIAL_LINEAR
                             : exp == "linear" ? LAB_LINEAR : LAB_DIFFERENTIAL;
#define RUN_MODE(NW, CB, Z, M) lab_kernel<NW, CB, Z, M>(start, count, key_every, plain, key, rounds, &hits, &rec_n, rec.data(), (u32)rec.size(), scratch.data(), key_hits.data(), t, (u32)(t % LAB_T))
#define RUN(NW, CB, Z)                                                                    \
    (mode == LAB_BOOMERANG ? RUN_MODE(NW, CB, Z, LAB_BOOMERANG)                             \
     : mode == LAB_DIFFERENTIAL_LINEAR ? RUN_MODE(NW, CB, Z, LAB_DIFFERENTIAL_LINEAR)      \
     : mode == LAB_LINEAR ? RUN_MODE(NW, CB, Z, LAB_LINEAR)                                \
                                       : RUN_MODE(NW, CB, Z, LAB_DIFFERENTIAL))
                if (bs == 16) { if (z == 1) RUN(4, 8, 1); else if (z == 2) RUN(4, 8, 2); else RUN(4, 8, 3); }
                else { if (z == 1) RUN(2, 4, 1); else if (z == 2) RUN(2, 4, 2); else RUN(2, 4, 3); }
            }
            std::vector<u64> got(rec.begin(), rec.begin() + min<u64>(rec_n, rec.size()));
            std::sort(got.begin(), got.end());
            std::sort(want.begin(), want.end());
            std::vector<u32> want_keys(key_hits.size());
            for (u64 w : want) want_keys[w / key_every - first]++;
            // The GPU's histogram of the groups between the first and last
            // (lab_key_histogram), against one counted here.
            const u32 bins = (u32)key_every + 1;
            std::vector<u32> hist(bins + 1), want_hist(bins + 1);
            for (size_t g = 1; g + 1 < key_hits.size(); g++) {
                lab_key_histogram_add(key_hits[g], true, bins, hist.data());
                want_hist[min<u64>(want_keys[g], bins)]++;
            }
            const bool ok = got == want && hits == want.size() && key_hits == want_keys && hist == want_hist;
            cases++;
            printf("%-16s %2d rounds %-12s key every %-3llu %5zu hits of %llu  %s\n", name.c_str(), rounds, exp.c_str(),
                   (unsigned long long)key_every, want.size(), (unsigned long long)count, ok ? "ok" : "MISMATCH");
            if (!ok) {
                failures++;
                printf("  got %llu hits, recorded %zu, per-key counts %s, their histogram %s\n",
                       (unsigned long long)hits, got.size(), key_hits == want_keys ? "equal" : "DIFFER",
                       hist == want_hist ? "equal" : "DIFFERS");
            }
        }
    }
    printf("%d cases, %d failed\n", cases, failures);
    return failures || cases == 0 ? 1 : 0;
}
