// The lab's kernels (lab.cu and what it includes) as host C++, and the
// reader of their `__constant__` tables from a vector file's `sym NAME COUNT
// HEX...` lines: shared by the lab's simulator (lab.cpp) and the neural-pairs
// kernels' (pairs.cpp), whose kernels come after lab.cu.
#pragma once
#include <sstream>
#include <string>

#include "shim.h"
#define LAB_ENTRY(...)

#include "../kernels/common.cuh"
#include "../kernels/bitsliced_round.cuh"
#include "../kernels/tweakey_slices.cuh"
#include "../kernels/lab_key_counts.cuh"
#include "../kernels/lab.cu"

static u32* symbol(const std::string& s) {
    if (s == "lab_load_cell") return lab_load_cell;
    if (s == "lab_rc") return lab_rc;
    if (s == "lab_dp") return lab_dp;
    if (s == "lab_dc") return lab_dc;
    if (s == "lab_target") return lab_target;
    if (s == "lab_mask") return lab_mask;
    if (s == "lab_in_mask") return lab_in_mask;
    if (s == "lab_cell_zero") return lab_cell_zero;
    if (s == "lab_cell_nonzero") return lab_cell_nonzero;
    if (s == "lab_delta_init") return lab_delta_init;
    if (s == "lab_delta_fin") return lab_delta_fin;
    return nullptr;
}

// Fills the table a `sym` line names (the line after its tag); false, having
// said which, for a name the lab does not have.
static bool read_symbol(std::istringstream& ls) {
    std::string sym;
    size_t cnt;
    ls >> sym >> cnt;
    u32* dst = symbol(sym);
    if (!dst) {
        printf("unknown symbol %s\n", sym.c_str());
        return false;
    }
    for (size_t i = 0; i < cnt; i++) {
        std::string h;
        ls >> h;
        dst[i] = (u32)std::stoul(h, nullptr, 16);
    }
    return true;
}
