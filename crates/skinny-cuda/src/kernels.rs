//! The kernel registry: the CUDA sources (the texts NVRTC compiles, shared
//! headers included), the constants every source shares with the host (passed
//! as `-D` options), and launch geometry for the products' host code. A
//! product's own kernel vocabulary (its entry points, launch bounds, shared
//! memory) lives with the product, which makes its [`KernelSource`] from a
//! text here and its own `-D` values ([`KernelSource::defines`]).

use crate::GpuError;
use cudarc::driver::LaunchConfig;
use skinny::CellWidth;

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

/// Which kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelKind {
    /// The paper's fused T-table round, one thread per block: SKINNY-128 only, NOT constant time.
    Paper,
    /// Bitsliced across 32 blocks per thread: every variant, constant time.
    Bitsliced,
}

impl KernelKind {
    /// Whether the kernels run in constant time.
    pub fn constant_time(self) -> bool {
        matches!(self, KernelKind::Bitsliced)
    }

    /// Whether the kernels implement `variant`.
    pub fn supports(self, variant: skinny::Variant) -> bool {
        match self {
            KernelKind::Paper => variant.cell_width() == CellWidth::Byte,
            KernelKind::Bitsliced => true,
        }
    }
}

/// A parallel operation over many blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// ECB encryption.
    EcbEncrypt,
    /// ECB decryption.
    EcbDecrypt,
    /// CTR (either direction).
    Ctr,
    /// CBC decryption.
    CbcDecrypt,
    /// Full-block CFB decryption.
    CfbDecrypt,
}

impl Op {
    /// All five.
    pub const ALL: [Op; 5] = [Op::EcbEncrypt, Op::EcbDecrypt, Op::Ctr, Op::CbcDecrypt, Op::CfbDecrypt];

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Bytes a warp of the bitsliced kernels handles: 32 lanes x 32 blocks, of the
/// larger block; pieces are multiples of it.
pub(crate) const WARP_BYTES: usize = 1024 * 16;

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

/// The entry points of the bitsliced kernels for 128-bit blocks, by [`Op::index`].
const BS128_ENTRIES: [&str; 5] = ["bs128_ecb_enc", "bs128_ecb_dec", "bs128_ctr", "bs128_cbc_dec", "bs128_cfb_dec"];
/// The same for 64-bit blocks.
const BS64_ENTRIES: [&str; 5] = ["bs64_ecb_enc", "bs64_ecb_dec", "bs64_ctr", "bs64_cbc_dec", "bs64_cfb_dec"];
/// The paper's kernels: ECB and CTR only.
const PAPER_ENTRIES: [Option<&str>; 5] = [Some("paper_ecb_enc"), Some("paper_ecb_dec"), Some("paper_ctr"), None, None];
/// The device-side random fill used by the benchmarks, in `common.cuh`.
pub(crate) const FILL_ENTRY: &str = "skinny_fill_random";

/// The entry point that runs `op` for blocks of `width` cells with `kind`'s
/// kernels, if there is one. A test checks every name against the sources.
pub fn entry_point(kind: KernelKind, width: CellWidth, op: Op) -> Option<&'static str> {
    match (kind, width) {
        (KernelKind::Paper, CellWidth::Byte) => PAPER_ENTRIES[op.index()],
        (KernelKind::Paper, CellWidth::Nibble) => None,
        (KernelKind::Bitsliced, CellWidth::Byte) => Some(BS128_ENTRIES[op.index()]),
        (KernelKind::Bitsliced, CellWidth::Nibble) => Some(BS64_ENTRIES[op.index()]),
    }
}

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

    /// Every `NAME(` that the source declares with `macro(NAME,` or as an
    /// `extern "C" __global__` function.
    fn declared(text: &str) -> Vec<String> {
        let mut names = Vec::new();
        for line in text.lines() {
            let line = line.trim_start();
            for mac in ["BS_ENTRY(", "PAPER_ENTRY(", "LAB_ENTRY("] {
                if let Some(rest) = line.strip_prefix(mac) {
                    if let Some(name) = rest.split(',').next().filter(|n| !n.contains(' ')) {
                        names.push(name.to_string());
                    }
                }
            }
            if let Some(rest) = line.strip_prefix("extern \"C\" __global__ void ") {
                // The entry macros' own definitions start with a qualifier.
                if let Some(name) = rest.split('(').next().filter(|n| !n.starts_with("__")) {
                    names.push(name.trim().to_string());
                }
            }
        }
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn every_entry_point_is_in_its_source_and_every_kernel_is_registered() {
        for (kind, source) in [(KernelKind::Bitsliced, &BITSLICED), (KernelKind::Paper, &PAPER)] {
            let found = declared(source.text);
            let mut registered: Vec<String> = [CellWidth::Byte, CellWidth::Nibble]
                .into_iter()
                .flat_map(|w| Op::ALL.into_iter().filter_map(move |op| entry_point(kind, w, op)))
                .map(String::from)
                .collect();
            registered.push(FILL_ENTRY.to_string());
            registered.sort();
            registered.dedup();
            assert_eq!(found, registered, "{} kernels: source and registry differ", source.name);
        }
    }

    #[test]
    fn shared_constants_match_the_cipher_and_reach_the_sources() {
        let most = skinny::Variant::ALL.iter().map(|v| v.rounds()).max().unwrap();
        assert_eq!(MAX_ROUNDS, most);
        for text in [BITSLICED.text, PAPER.text, LAB_TEXT, AEAD.text, MANY_TEXT] {
            assert!(text.contains("SKINNY_MAX_ROUNDS"), "every source uses the shared round count");
        }
        assert!(BITSLICED.text.contains("SKINNY_BS_THREADS"));
        assert!(PAPER.text.contains("SKINNY_PAPER_THREADS"));
        assert!(LAB_TEXT.contains("SKINNY_LAB_THREADS") && MANY_TEXT.contains("SKINNY_LAB_THREADS"));
        assert!(MANY_AEAD_TEXTS.iter().all(|t| t.contains("SKINNY_MANY_THREADS") && t.contains("SKINNY_LAB_THREADS")));
        assert!(nvrtc_defines().iter().all(|d| d.starts_with("-DSKINNY_")));
        let own = KernelSource { name: "t", text: "", defines: &[("A", 1), ("B_C", 20)] };
        assert_eq!(own.define_options().collect::<Vec<_>>(), ["-DA=1", "-DB_C=20"]);
    }
}
