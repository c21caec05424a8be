//! The lab's kernels as the device crate compiles them: their source (the
//! text of `lab.cu`, in `skinny-cuda`, with this crate's launch bound), their
//! entry points by experiment, block width and tweakey count (checked against
//! the source by a test), and the constants this host code shares with them.

use skinny::CellWidth;
use skinny_cuda::kernels::{KernelSource, LAB_TEXT, TWEAKEY_SLICE_LANES};

/// Lanes of a lab kernel's shared-memory region (`SKINNY_LAB_THREADS`, the
/// device crate's tweakey slices): each warp keeps its threads' 32 tweakeys
/// each in a region of its own (1 KiB a thread for SKINNY-128-256), word `w`
/// of lane `l` at `w * 32 + l`.
pub const LAB_THREADS: u32 = TWEAKEY_SLICE_LANES;

/// The most warps a lab block holds (`SKINNY_LAB_MAX_WARPS`, the kernels'
/// launch bound): at 255 registers a thread an SM holds eight warps.
pub const LAB_MAX_WARPS: u32 = 8;

/// The lab's kernels (reduced rounds, a tweakey per query).
pub(crate) const LAB: KernelSource =
    KernelSource { name: "lab", text: LAB_TEXT, defines: &[("SKINNY_LAB_MAX_WARPS", LAB_MAX_WARPS)] };

/// The lab's experiments, as the kernels tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum LabExperiment {
    /// Right pairs of a differential.
    Differential,
    /// Returning quartets of a related-tweakey boomerang.
    Boomerang,
    /// Pairs whose output difference has even parity under a linear mask.
    DifferentialLinear,
    /// Known plaintexts whose input and output parities under two masks agree.
    Linear,
}

/// The lab kernel for `experiment` on blocks of `width` cells with `tk_count`
/// (1 to 3) tweakey arrays. A test checks every name against the source.
pub(crate) fn lab_entry_point(width: CellWidth, tk_count: usize, experiment: LabExperiment) -> Option<&'static str> {
    const NAMES: [[[&str; 3]; 4]; 2] = [
        [
            ["lab128_tk1_differential", "lab128_tk2_differential", "lab128_tk3_differential"],
            ["lab128_tk1_boomerang", "lab128_tk2_boomerang", "lab128_tk3_boomerang"],
            ["lab128_tk1_differential_linear", "lab128_tk2_differential_linear", "lab128_tk3_differential_linear"],
            ["lab128_tk1_linear", "lab128_tk2_linear", "lab128_tk3_linear"],
        ],
        [
            ["lab64_tk1_differential", "lab64_tk2_differential", "lab64_tk3_differential"],
            ["lab64_tk1_boomerang", "lab64_tk2_boomerang", "lab64_tk3_boomerang"],
            ["lab64_tk1_differential_linear", "lab64_tk2_differential_linear", "lab64_tk3_differential_linear"],
            ["lab64_tk1_linear", "lab64_tk2_linear", "lab64_tk3_linear"],
        ],
    ];
    let w = match width {
        CellWidth::Byte => 0,
        CellWidth::Nibble => 1,
    };
    let e = match experiment {
        LabExperiment::Differential => 0,
        LabExperiment::Boomerang => 1,
        LabExperiment::DifferentialLinear => 2,
        LabExperiment::Linear => 3,
    };
    NAMES[w][e].get(tk_count.checked_sub(1)?).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name the source declares with `LAB_ENTRY(NAME, ...)`.
    fn declared(text: &str) -> Vec<String> {
        let mut names: Vec<String> = text
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("LAB_ENTRY("))
            .filter_map(|rest| rest.split(',').next().filter(|n| !n.contains(' ')))
            .map(String::from)
            .collect();
        names.sort();
        names
    }

    #[test]
    fn every_lab_entry_point_is_in_the_lab_source_and_every_kernel_is_named() {
        let experiments = [
            LabExperiment::Differential,
            LabExperiment::Boomerang,
            LabExperiment::DifferentialLinear,
            LabExperiment::Linear,
        ];
        let mut registered: Vec<String> = [CellWidth::Byte, CellWidth::Nibble]
            .into_iter()
            .flat_map(|w| {
                experiments
                    .into_iter()
                    .flat_map(move |e| (1..=3).map(move |z| lab_entry_point(w, z, e).expect("1..=3")))
            })
            .map(String::from)
            .collect();
        registered.sort();
        assert_eq!(declared(LAB.text), registered);
        assert_eq!(lab_entry_point(CellWidth::Byte, 4, LabExperiment::Boomerang), None);
        assert_eq!(lab_entry_point(CellWidth::Byte, 0, LabExperiment::Boomerang), None);
    }

    #[test]
    fn the_launch_bound_reaches_the_source() {
        assert!(LAB.text.contains("SKINNY_LAB_MAX_WARPS") && LAB.text.contains("SKINNY_LAB_THREADS"));
        assert_eq!(LAB.defines, [("SKINNY_LAB_MAX_WARPS", 8)]);
    }
}
