//! The raw modes' kernels (`bitsliced.cu`, `paper_ttable.cu` in
//! `skinny-cuda`): which kernels ([`KernelKind`]), the operations they run
//! ([`Op`]), their entry points by kind, block width and operation (checked
//! against the sources by a test), and the work a warp takes.

use skinny::CellWidth;

/// Which kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelKind {
    /// The paper's fused T-table round, one thread per block: SKINNY-128 only, NOT constant time.
    Paper,
    /// Bitsliced across 32 blocks per thread: every variant, constant time.
    Bitsliced,
}

impl KernelKind {
    /// The kernels' name in the device layer's errors.
    pub const fn label(self) -> &'static str {
        match self {
            KernelKind::Paper => "Paper",
            KernelKind::Bitsliced => "Bitsliced",
        }
    }

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

    /// The operation's name in the device layer's errors.
    pub const fn label(self) -> &'static str {
        match self {
            Op::EcbEncrypt => "EcbEncrypt",
            Op::EcbDecrypt => "EcbDecrypt",
            Op::Ctr => "Ctr",
            Op::CbcDecrypt => "CbcDecrypt",
            Op::CfbDecrypt => "CfbDecrypt",
        }
    }
}

/// Bytes a warp of the bitsliced kernels handles: 32 lanes x 32 blocks, of the
/// larger block; pieces are multiples of it.
pub(crate) const WARP_BYTES: usize = 1024 * 16;

/// The entry points of the bitsliced kernels for 128-bit blocks, by [`Op::index`].
const BS128_ENTRIES: [&str; 5] = ["bs128_ecb_enc", "bs128_ecb_dec", "bs128_ctr", "bs128_cbc_dec", "bs128_cfb_dec"];
/// The same for 64-bit blocks.
const BS64_ENTRIES: [&str; 5] = ["bs64_ecb_enc", "bs64_ecb_dec", "bs64_ctr", "bs64_cbc_dec", "bs64_cfb_dec"];
/// The paper's kernels: ECB and CTR only.
const PAPER_ENTRIES: [Option<&str>; 5] = [Some("paper_ecb_enc"), Some("paper_ecb_dec"), Some("paper_ctr"), None, None];

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

#[cfg(test)]
mod tests {
    use super::*;
    use skinny_cuda::kernels::{BITSLICED, FILL_ENTRY, PAPER};

    /// Every `NAME(` that the source declares with `macro(NAME,` or as an
    /// `extern "C" __global__` function.
    fn declared(text: &str) -> Vec<String> {
        let mut names = Vec::new();
        for line in text.lines() {
            let line = line.trim_start();
            for mac in ["BS_ENTRY(", "PAPER_ENTRY("] {
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
    fn labels_are_the_names_errors_always_gave() {
        for op in Op::ALL {
            assert_eq!(op.label(), format!("{op:?}"));
        }
        for kind in [KernelKind::Paper, KernelKind::Bitsliced] {
            assert_eq!(kind.label(), format!("{kind:?}"));
        }
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
}
