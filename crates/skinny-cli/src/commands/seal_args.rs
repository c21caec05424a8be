//! The arguments of `skinny seal` and `skinny open`, and the names and sizes
//! they take, apart from the commands' bodies.

use crate::args::{Delivery, Io, KeyArgs, PlaceOn, PlacementArgs, Trimmed};
use clap::{Args, ValueEnum};
use skinny_exec::Placement;

/// `--backend` of `seal` and `open`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SealBackendName {
    /// The GPU for large inputs with chunks of 16K or more when one opens and
    /// proves faster than the CPU, else the CPU.
    Auto,
    /// The bitsliced CPU code on every core (or --threads).
    Cpu,
    /// An NVIDIA GPU (an error if none can be used).
    Gpu,
}

/// `--member`: the SKINNY-AEAD member of `seal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MemberName {
    /// SKINNY-128-384, 128-bit nonce and tag (the primary member).
    M1,
    /// SKINNY-128-384, 96-bit nonce, 128-bit tag.
    M2,
    /// SKINNY-128-384, 128-bit nonce, 64-bit tag.
    M3,
    /// SKINNY-128-384, 96-bit nonce, 64-bit tag.
    M4,
    /// SKINNY-128-256, 96-bit nonce, 128-bit tag.
    M5,
    /// SKINNY-128-256, 96-bit nonce, 64-bit tag.
    M6,
}

impl From<MemberName> for skinny_aead::sealed::Member {
    fn from(m: MemberName) -> Self {
        use skinny_aead::sealed::Member;
        match m {
            MemberName::M1 => Member::M1,
            MemberName::M2 => Member::M2,
            MemberName::M3 => Member::M3,
            MemberName::M4 => Member::M4,
            MemberName::M5 => Member::M5,
            MemberName::M6 => Member::M6,
        }
    }
}

/// Parses `--chunk-size`: bytes, or with a binary suffix K/KiB, M/MiB (case
/// ignored); a power of two from 16 bytes to 16 MiB. Returns its log2.
pub fn chunk_size_log2(text: &str) -> Result<u8, String> {
    use skinny_aead::sealed::{MAX_CHUNK_LOG2, MIN_CHUNK_LOG2};
    let t = text.trim().to_ascii_lowercase();
    let (digits, unit) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => (&t[..i], t[i..].trim()),
        None => (t.as_str(), ""),
    };
    let scale: u64 = match unit {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        _ => return Err("give bytes, or a number with K or M (binary: 64K = 65536)".into()),
    };
    let n = digits
        .parse::<u64>()
        .ok()
        .and_then(|d| d.checked_mul(scale))
        .ok_or_else(|| "give bytes, or a number with K or M (binary: 64K = 65536)".to_string())?;
    let lo = 1u64 << MIN_CHUNK_LOG2;
    let hi = 1u64 << MAX_CHUNK_LOG2;
    if !n.is_power_of_two() || n < lo || n > hi {
        return Err(format!("the chunk size must be a power of two from {lo} bytes to 16M, e.g. 64K or 1M"));
    }
    Ok(n.trailing_zeros() as u8)
}

/// Options of `seal`.
#[derive(Debug, Args)]
#[command(mut_args(seal_words))]
pub struct SealArgs {
    /// INPUT and `-o/--output`.
    #[command(flatten)]
    pub io: Io,

    /// `-K/--key` and `--key-file`.
    #[command(flatten)]
    pub key: KeyArgs,

    /// The SKINNY-AEAD member (recorded in the header; `open` reads it there).
    #[arg(long, default_value = "m1", value_name = "MEMBER", ignore_case = true,
          value_parser = Trimmed::<MemberName>::new())]
    pub member: MemberName,

    /// Plaintext bytes per chunk: a power of two from 16 to 16M (K and M are
    /// binary: 64K = 65536). Memory and the bytes lost to one damaged spot grow
    /// with it; each chunk adds one tag (8 or 16 bytes).
    #[arg(long, default_value = "64K", value_name = "SIZE", value_parser = chunk_size_log2)]
    pub chunk_size: u8,

    /// `--threads`, `-b/--backend` and `--gpus`.
    #[command(flatten)]
    pub placement: SealPlacement,

    /// `--force`, `-q/--quiet` and `-v/--verbose`.
    #[command(flatten)]
    pub delivery: Delivery,
}

/// Options of `open`.
#[derive(Debug, Args)]
#[command(mut_args(open_words))]
pub struct OpenArgs {
    /// INPUT (the sealed file) and `-o/--output`.
    #[command(flatten)]
    pub io: Io,

    /// `-K/--key` and `--key-file`.
    #[command(flatten)]
    pub key: KeyArgs,

    /// `--threads`, `-b/--backend` and `--gpus`.
    #[command(flatten)]
    pub placement: SealPlacement,

    /// `--force`, `-q/--quiet` and `-v/--verbose`.
    #[command(flatten)]
    pub delivery: Delivery,
}

/// Where `seal` and `open` run: the shared `--threads` and `--gpus`, with
/// these commands' `--backend` between them.
#[derive(Debug, Args)]
pub struct SealPlacement {
    /// `--threads` and `--gpus`.
    #[command(flatten)]
    pub machine: PlacementArgs,

    /// Where the chunks are sealed or opened: cpu (every core), gpu (an NVIDIA
    /// GPU; an error if none can be used or the chunks are under 16K), or auto
    /// (the GPU for inputs of 512 MiB or more with chunks of 16K or more when
    /// one opens, kept only if it proves faster than the CPU on the first
    /// windows, else the CPU). The same format either way: each engine opens
    /// the other's files.
    #[arg(short, long, value_enum, default_value = "auto", value_name = "BACKEND", ignore_case = true)]
    pub backend: SealBackendName,
}

impl SealPlacement {
    /// The execution layer's placement asked for, with `threads` (absent:
    /// all cores) in place of `--threads` (which the caller may have capped).
    pub fn placement(&self, threads: Option<usize>) -> Placement {
        let machine = PlacementArgs { threads, gpus: self.machine.gpus.clone() };
        machine.placement(match self.backend {
            SealBackendName::Auto => PlaceOn::Auto,
            SealBackendName::Cpu => PlaceOn::Cpu,
            SealBackendName::Gpu => PlaceOn::Gpu,
        })
    }
}

/// The options of `seal` and `open` in the order their help lists them
/// (`--backend` beside the machine it places work on).
const HELP_ORDER: [&str; 12] = [
    "input",
    "output",
    "key",
    "key_file",
    "member",
    "chunk_size",
    "threads",
    "backend",
    "gpus",
    "force",
    "quiet",
    "verbose",
];

/// The help order, and this command's words where the shared groups' differ.
fn seal_words(arg: clap::Arg) -> clap::Arg {
    let arg = ordered(arg);
    match arg.get_id().as_str() {
        "gpus" => arg.help(GPUS_HELP),
        _ => arg,
    }
}

/// As [`seal_words`], for `open`: its input is a sealed file, and its output
/// is released only as it verifies.
fn open_words(arg: clap::Arg) -> clap::Arg {
    let arg = ordered(arg);
    let help = match arg.get_id().as_str() {
        "input" => "The sealed file; `-` or absent means stdin",
        "output" => {
            "Output file; `-` or absent means stdout. To a file, nothing is written unless the whole input verifies \
             (the output has no name, or a hidden temporary one, until it is whole). To stdout, the chunks verified before a failure have been \
             written already"
        }
        "gpus" => GPUS_HELP,
        _ => return arg,
    };
    arg.help(help)
}

/// `--gpus` of `seal` and `open`: one GPU serves a run.
const GPUS_HELP: &str = "GPUs of the gpu and auto backends: all, a count N (the first N), or GPU numbers such as 0,2. \
                         Only the first selected GPU is used (one GPU's link is far faster than the file path)";

/// `arg` at its place in [`HELP_ORDER`].
fn ordered(arg: clap::Arg) -> clap::Arg {
    match HELP_ORDER.iter().position(|id| arg.get_id() == *id) {
        Some(place) => arg.display_order(place),
        None => arg,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn chunk_sizes_are_powers_of_two_from_16_bytes_to_16_mib() {
        assert_eq!(super::chunk_size_log2("64K"), Ok(16));
        assert_eq!(super::chunk_size_log2(" 1m "), Ok(20));
        assert_eq!(super::chunk_size_log2("16"), Ok(4));
        assert_eq!(super::chunk_size_log2("16M"), Ok(24));
        assert_eq!(super::chunk_size_log2("1024KiB"), Ok(20));
        for bad in ["8", "3K", "32M", "0", "", "x", "64Q", "99999999999999999999M"] {
            assert!(super::chunk_size_log2(bad).is_err(), "{bad}");
        }
    }
}
