// Runs the AEAD kernels' C++ on the host, one simulated thread after another,
// against cases from `cargo run --example hostsim_aead_vectors`, whose outputs
// and sums were computed block by block with the specification code
// (scripts/kernels/hostsim.sh). The real check is the GPU suite; this one needs no
// GPU.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
using std::min;

#include "shim.h"
#define AEAD_ENTRY(...)
#define AEAD_COUNTERS(...)
#define AEAD_CHUNKS_ENTRY(...)

#include "../kernels/common.cuh"
#include "../kernels/bitsliced_round.cuh"
#include "../kernels/aead.cu"

static std::vector<u32> read_words(std::istringstream& ls) {
    size_t n; ls >> n;
    std::vector<u32> w(n);
    for (size_t i = 0; i < n; i++) { std::string h; ls >> h; w[i] = (u32)std::stoul(h, nullptr, 16); }
    return w;
}

template <int BITS>
static void run(int op, int rounds, u64 n, u64 start, const std::vector<u64>& lo, const std::vector<u64>& hi,
                const std::vector<u32>& in, std::vector<u32>& out, u32* sums) {
    const u64 nwarps = (n + 1023) / 1024;
    std::vector<u64> counters(nwarps);
    blockDim.x = 1;
    for (u64 w = 0; w < nwarps; w++) {
        blockIdx.x = (unsigned)w; threadIdx.x = 0;
        warp_counters<BITS>(counters.data(), nwarps, start, lo.data(), hi.data());
    }
    for (u64 g = 0; g < nwarps * 32; g++) {
        threadIdx.x = (unsigned)(g & 31);
        if (op == AEAD_ENC) aead_kernel<BITS, AEAD_ENC>(in.data(), out.data(), n, counters.data(), sums, rounds, g);
        else if (op == AEAD_DEC) aead_kernel<BITS, AEAD_DEC>(in.data(), out.data(), n, counters.data(), sums, rounds, g);
        else aead_kernel<BITS, AEAD_AUTH>(in.data(), out.data(), n, counters.data(), sums, rounds, g);
    }
}

// The chunk kernels: the masks spread from the key bits, then every thread.
template <int BITS>
static void run_chunks(int op, int rounds, int chunk_log2, u64 nchunks, u64 n, const std::vector<u64>& bits,
                       const std::vector<u64>& counters, const std::vector<u32>& in, std::vector<u32>& out,
                       u32* sums) {
    std::vector<u32> table(nchunks * rounds * 64, 0x5a5a5a5a);
    for (u64 t = 0; t < table.size() + 100; t++) expand_masks(table.data(), bits.data(), nchunks, rounds, op == AEAD_DEC, t);
    const u64 nwarps = (n + 1023) / 1024;
    blockDim.x = 1;
    for (u64 g = 0; g < (nwarps + 3) * 32; g++) {  // a few warps past the end too
        threadIdx.x = (unsigned)(g & 31);
        if (op == AEAD_ENC)
            aead_chunks_kernel<BITS, AEAD_ENC>(in.data(), out.data(), n, counters.data(), chunk_log2 - 14, table.data(), sums, rounds, g);
        else
            aead_chunks_kernel<BITS, AEAD_DEC>(in.data(), out.data(), n, counters.data(), chunk_log2 - 14, table.data(), sums, rounds, g);
    }
}

static std::vector<u64> read_u64s(std::istringstream& ls) {
    std::vector<u32> w = read_words(ls);
    std::vector<u64> t(w.size() / 2);
    for (size_t i = 0; i < t.size(); i++) t[i] = (u64)w[2 * i] | ((u64)w[2 * i + 1] << 32);
    return t;
}

int main(int argc, char** argv) {
    std::ifstream f(argv[1]);
    std::string line;
    int cases = 0, failures = 0;
    int bits = 0, op = 0, rounds = 0;
    u64 n = 0, start = 0;
    std::vector<u64> lo, hi;
    std::vector<u32> in, want;
    // Chunk cases: "chunks bits op rounds chunk_log2 nchunks n", then key bits,
    // counters, input, output, and one sum a chunk ("sums").
    int chunk_log2 = 0;
    u64 nchunks = 0;
    std::vector<u64> key_bits, chunk_counters;
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        std::string tag; ls >> tag;
        if (tag == "case") {
            std::string s; ls >> bits >> op >> rounds >> n >> s; start = std::stoull(s, nullptr, 16);
        } else if (tag == "masks" || tag == "masks_rev") {
            std::vector<u32> w = read_words(ls);
            std::copy(w.begin(), w.end(), tag == "masks" ? aead_masks : aead_masks_rev);
        } else if (tag == "pow_lo" || tag == "pow_hi") {
            std::vector<u32> w = read_words(ls);
            std::vector<u64>& t = tag == "pow_lo" ? lo : hi;
            t.assign(w.size() / 2, 0);
            for (size_t i = 0; i < t.size(); i++) t[i] = (u64)w[2 * i] | ((u64)w[2 * i + 1] << 32);
        } else if (tag == "chunks") {
            ls >> bits >> op >> rounds >> chunk_log2 >> nchunks >> n;
        } else if (tag == "key_bits") {
            key_bits = read_u64s(ls);
        } else if (tag == "counters") {
            chunk_counters = read_u64s(ls);
        } else if (tag == "sums") {
            std::vector<u32> want_sums = read_words(ls);
            std::vector<u32> out(in.size(), 0);
            std::vector<u32> sums(nchunks * 4, 0);
            if (bits == 64) run_chunks<64>(op, rounds, chunk_log2, nchunks, n, key_bits, chunk_counters, in, out, sums.data());
            else run_chunks<24>(op, rounds, chunk_log2, nchunks, n, key_bits, chunk_counters, in, out, sums.data());
            cases++;
            if (out != want || sums != want_sums) {
                failures++;
                printf("FAIL aead chunks %d-bit counter, op %d, 2^%d-byte chunks, %llu chunks, %llu blocks%s%s\n", bits, op,
                       chunk_log2, (unsigned long long)nchunks, (unsigned long long)n, out != want ? " (output)" : "",
                       sums != want_sums ? " (sums)" : "");
            }
        } else if (tag == "input") {
            in = read_words(ls);
        } else if (tag == "output") {
            want = read_words(ls);
        } else if (tag == "sum") {
            std::vector<u32> want_sum = read_words(ls);
            std::vector<u32> out(in.size(), 0);
            std::vector<u32> sums(SUM_SLOTS * 4, 0);
            if (bits == 64) run<64>(op, rounds, n, start, lo, hi, in, out, sums.data());
            else run<24>(op, rounds, n, start, lo, hi, in, out, sums.data());
            u32 sum[4] = {0, 0, 0, 0};
            for (int s = 0; s < SUM_SLOTS; s++) for (int q = 0; q < 4; q++) sum[q] ^= sums[s * 4 + q];
            bool ok = out == want;
            for (int q = 0; q < 4; q++) ok = ok && sum[q] == want_sum[q];
            cases++;
            if (!ok) {
                failures++;
                printf("FAIL aead %d-bit counter, op %d, %llu blocks\n", bits, op, (unsigned long long)n);
            }
        }
    }
    printf("aead hostsim: %d cases, %d failed\n", cases, failures);
    return failures ? 1 : 0;
}
