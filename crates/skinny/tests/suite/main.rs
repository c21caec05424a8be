//! `skinny`'s integration tests in one binary: each module was a test binary of its
//! own, and each binary linked the whole dependency graph again. The 64 KiB stack tests
//! stay in `stack` (`.ci/run` builds that binary alone at opt-level 0).

mod bitsliced;
mod fixed_tweakey_part;
mod lanes;
mod lockstep;
mod partial_rounds;
mod per_block_tk1;
mod per_block_tweakeys;
mod reduced_rounds;
mod rustcrypto_modes;
mod single_block;
mod sizes;
mod vectors;
