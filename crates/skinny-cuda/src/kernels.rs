//! The kernel registry: the CUDA sources (the texts NVRTC compiles, shared
//! headers included), the constants every source shares with the host (passed
//! as `-D` options), and launch geometry for the products' host code. A
//! product's own kernel vocabulary (its entry points, launch bounds, shared
//! memory) lives with the product, which makes its [`KernelSource`] from a
//! text here and its own `-D` values ([`KernelSource::defines`]).

use crate::GpuError;
use cudarc::driver::LaunchConfig;

/// A kernel source as NVRTC compiles it.
#[derive(Clone, Copy, Debug)]
pub struct KernelSource {
    /// Short name (cache file names, messages).
    pub name: &'static str,
    /// The whole CUDA C++ text (shared header included).
    pub text: &'static str,
    /// `-D` options of this source's own (name, value), after the shared
    /// ones ([`MAX_ROUNDS`] and the others): its product's launch bounds,
    /// say. Part of the kernel cache's key.
    pub defines: &'static [(&'static str, u32)],
}

/// The bitsliced constant-time kernels.
pub const BITSLICED: KernelSource = KernelSource {
    name: "bitsliced",
    text: concat!(
        include_str!("../kernels/common.cuh"),
        include_str!("../kernels/bitsliced_round.cuh"),
        include_str!("../kernels/bitsliced.cu")
    ),
    defines: &[],
};

/// The paper's T-table kernel (not constant time).
pub const PAPER: KernelSource = KernelSource {
    name: "paper_ttable",
    text: concat!(include_str!("../kernels/common.cuh"), include_str!("../kernels/paper_ttable.cu")),
    defines: &[],
};

/// The text of the lab's experiment kernels (reduced rounds, a tweakey per
/// query): `skinny-lab` makes their source (with `SKINNY_LAB_MAX_WARPS`, its
/// launch bound), names their entry points and launches them.
pub const LAB_TEXT: &str = concat!(
    include_str!("../kernels/common.cuh"),
    include_str!("../kernels/bitsliced_round.cuh"),
    include_str!("../kernels/tweakey_slices.cuh"),
    include_str!("../kernels/lab_key_counts.cuh"),
    include_str!("../kernels/lab.cu")
);

/// The text of the neural-distinguisher data kernels (`pairs.cu`, after the
/// lab's text, whose generator, tweakey schedule and tables they share):
/// `skinny-lab` makes their source (with `SKINNY_LAB_MAX_WARPS`) and launches
/// them.
pub const PAIRS_TEXT: &str = concat!(
    include_str!("../kernels/common.cuh"),
    include_str!("../kernels/bitsliced_round.cuh"),
    include_str!("../kernels/tweakey_slices.cuh"),
    include_str!("../kernels/lab_key_counts.cuh"),
    include_str!("../kernels/lab.cu"),
    include_str!("../kernels/pairs.cu")
);

/// SKINNY-AEAD's runs of blocks (a counter per block in TK1, the rest shared).
pub const AEAD: KernelSource = KernelSource {
    name: "aead",
    text: concat!(
        include_str!("../kernels/common.cuh"),
        include_str!("../kernels/bitsliced_round.cuh"),
        include_str!("../kernels/aead.cu")
    ),
    defines: &[],
};

/// The text of one many-message module: the whole engine's source, of which
/// the leading `MANY_MODULE` picks the entry points (`many_entry.cu`).
macro_rules! many_text {
    ($module:literal) => {
        concat!(
            "#define MANY_MODULE ",
            $module,
            "\n",
            include_str!("../kernels/common.cuh"),
            include_str!("../kernels/bitsliced_round.cuh"),
            include_str!("../kernels/tweakey_slices.cuh"),
            include_str!("../kernels/many_io.cuh"),
            include_str!("../kernels/many.cu"),
            include_str!("../kernels/many_aead.cu"),
            include_str!("../kernels/many_entry.cu")
        )
    };
}

/// The text of the many-message engine's Romulus-N and -M kernels
/// (`skinny-many`, which makes their source with `SKINNY_MANY_THREADS`, its
/// launch bound): over batches of independent messages, 32 a thread, each
/// with its own tweakey scheduled on the fly (the bitsliced schedule of
/// `tweakey_slices.cuh`, shared with [`LAB_TEXT`]).
pub const MANY_TEXT: &str = many_text!("0");

/// The texts of the same engine's SKINNY-AEAD kernels, one module a member
/// (M1..M6), so that the modules compile side by side and a batch loads only
/// its own.
pub const MANY_AEAD_TEXTS: [&str; 6] =
    [many_text!("1"), many_text!("2"), many_text!("3"), many_text!("4"), many_text!("5"), many_text!("6")];

/// Threads per block of the bitsliced kernels (`SKINNY_BS_THREADS` in the
/// CUDA source, which gets it from here).
pub const BITSLICED_THREADS: u32 = 128;

/// Threads per block of the paper's kernels (`SKINNY_PAPER_THREADS`).
pub const PAPER_THREADS: u32 = 512;

/// Lanes of a region of bitsliced tweakeys in shared memory
/// (`tweakey_slices.cuh`, whose `SKINNY_LAB_THREADS` this is: the lab's
/// kernels and the many-message engine's share it): each warp keeps its
/// threads' 32 tweakeys each in a region of its own (1 KiB a thread for
/// SKINNY-128-256), word `w` of lane `l` at `w * 32 + l`.
pub const TWEAKEY_SLICE_LANES: u32 = 32;

/// The most rounds of any variant (SKINNY-128-384): the size of the kernels'
/// round-constant arrays (`SKINNY_MAX_ROUNDS`).
pub const MAX_ROUNDS: usize = 56;

/// The `-D` options that give every CUDA source the constants its shared
/// headers take from this crate: one source of truth, here.
pub(crate) fn nvrtc_defines() -> Vec<String> {
    vec![
        format!("-DSKINNY_MAX_ROUNDS={MAX_ROUNDS}"),
        format!("-DSKINNY_BS_THREADS={BITSLICED_THREADS}"),
        format!("-DSKINNY_PAPER_THREADS={PAPER_THREADS}"),
        format!("-DSKINNY_LAB_THREADS={TWEAKEY_SLICE_LANES}"),
    ]
}

impl KernelSource {
    /// Its own `-D` options ([`KernelSource::defines`]), as NVRTC takes them.
    pub(crate) fn define_options(&self) -> impl Iterator<Item = String> + '_ {
        self.defines.iter().map(|(name, value)| format!("-D{name}={value}"))
    }
}

/// The device-side random fill of `common.cuh` (every source has it): for
/// the products' benchmarks, which fill device buffers without copying.
pub const FILL_ENTRY: &str = "skinny_fill_random";

/// A launch of one thread per item (`items` of them), 256 threads a block:
/// the small kernels that fill tables (counters, masks) before the main one.
/// For the products' host code as much as this crate's.
///
/// # Errors
/// [`GpuError::LaunchTooLarge`] past the grid's reach.
pub fn one_thread_per_item(items: u64) -> Result<LaunchConfig, GpuError> {
    let threads = 256u32;
    let grid = u32::try_from(items.div_ceil(u64::from(threads))).map_err(|_| GpuError::LaunchTooLarge)?;
    Ok(LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 })
}

/// A launch of `nwarps` warps of a bitsliced kernel (32 blocks a thread), in
/// blocks of [`BITSLICED_THREADS`] threads.
///
/// # Errors
/// [`GpuError::LaunchTooLarge`] past the grid's reach.
pub fn bitsliced_warps(nwarps: u64) -> Result<LaunchConfig, GpuError> {
    let warps_per_block = u64::from(BITSLICED_THREADS / 32);
    let grid = u32::try_from(nwarps.div_ceil(warps_per_block)).map_err(|_| GpuError::LaunchTooLarge)?;
    Ok(LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (BITSLICED_THREADS, 1, 1), shared_mem_bytes: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_has_the_fill() {
        for text in [BITSLICED.text, PAPER.text, LAB_TEXT, PAIRS_TEXT, AEAD.text, MANY_TEXT] {
            assert!(text.contains(&format!("void {FILL_ENTRY}(")), "the fill is in common.cuh");
        }
    }

    #[test]
    fn shared_constants_match_the_cipher_and_reach_the_sources() {
        let most = skinny::Variant::ALL.iter().map(|v| v.rounds()).max().unwrap();
        assert_eq!(MAX_ROUNDS, most);
        for text in [BITSLICED.text, PAPER.text, LAB_TEXT, PAIRS_TEXT, AEAD.text, MANY_TEXT] {
            assert!(text.contains("SKINNY_MAX_ROUNDS"), "every source uses the shared round count");
        }
        assert!(BITSLICED.text.contains("SKINNY_BS_THREADS"));
        assert!(PAPER.text.contains("SKINNY_PAPER_THREADS"));
        assert!(PAIRS_TEXT.starts_with(LAB_TEXT) && PAIRS_TEXT.contains("PAIRS_ENTRY"));
        assert!(LAB_TEXT.contains("SKINNY_LAB_THREADS") && MANY_TEXT.contains("SKINNY_LAB_THREADS"));
        assert!(MANY_AEAD_TEXTS.iter().all(|t| t.contains("SKINNY_MANY_THREADS") && t.contains("SKINNY_LAB_THREADS")));
        assert!(nvrtc_defines().iter().all(|d| d.starts_with("-DSKINNY_")));
        let own = KernelSource { name: "t", text: "", defines: &[("A", 1), ("B_C", 20)] };
        assert_eq!(own.define_options().collect::<Vec<_>>(), ["-DA=1", "-DB_C=20"]);
    }
}
