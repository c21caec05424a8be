//! The arguments of `skinny seal` and `skinny open`, and the names and sizes
//! they take, apart from the commands' bodies.

use crate::args::{gpus_parser, threads_parser, Trimmed};
use clap::{Args, ValueEnum};
use skinny_bulk::backend::GpuSelection;
use std::path::PathBuf;

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
pub struct SealArgs {
    /// Input file; `-` or absent means stdin.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Output file; `-` or absent means stdout. Written to a temporary file beside
    /// it and renamed on success, so a failure never leaves a partial output.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// The 16-byte key in hex (32 hex digits).
    #[arg(short = 'K', long, value_name = "HEX")]
    pub key: Option<String>,

    /// A file holding the 16-byte key as hex (whitespace ignored) or as raw bytes.
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,

    /// The SKINNY-AEAD member (recorded in the header; `open` reads it there).
    #[arg(long, default_value = "m1", value_name = "MEMBER", ignore_case = true,
          value_parser = Trimmed::<MemberName>::new())]
    pub member: MemberName,

    /// Plaintext bytes per chunk: a power of two from 16 to 16M (K and M are
    /// binary: 64K = 65536). Memory and the bytes lost to one damaged spot grow
    /// with it; each chunk adds one tag (8 or 16 bytes).
    #[arg(long, default_value = "64K", value_name = "SIZE", value_parser = chunk_size_log2)]
    pub chunk_size: u8,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// Where the chunks are sealed or opened: cpu (every core), gpu (an NVIDIA
    /// GPU; an error if none can be used or the chunks are under 16K), or auto
    /// (the GPU for inputs of 512 MiB or more with chunks of 16K or more when
    /// one opens, kept only if it proves faster than the CPU on the first
    /// windows, else the CPU). The same format either way: each engine opens
    /// the other's files.
    #[arg(short, long, value_enum, default_value = "auto", value_name = "BACKEND", ignore_case = true)]
    pub backend: SealBackendName,

    /// GPUs of the gpu and auto backends: all, a count N (the first N), or GPU
    /// numbers such as 0,2. Only the first selected GPU is used (one GPU's link
    /// is far faster than the file path).
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = gpus_parser)]
    pub gpus: GpuSelection,

    /// Write binary output to a terminal even so, and replace an output file
    /// that has other hard links (they keep the old content).
    #[arg(long)]
    pub force: bool,

    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,

    /// Say which engine did the work and, for `auto`, why it used no GPU.
    #[arg(short, long)]
    pub verbose: bool,
}

/// Options of `open`.
#[derive(Debug, Args)]
pub struct OpenArgs {
    /// The sealed file; `-` or absent means stdin.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Output file; `-` or absent means stdout. To a file, nothing is written
    /// unless the whole input verifies (a temporary file renamed on success). To
    /// stdout, the chunks verified before a failure have been written already.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// The 16-byte key in hex (32 hex digits).
    #[arg(short = 'K', long, value_name = "HEX")]
    pub key: Option<String>,

    /// A file holding the 16-byte key as hex (whitespace ignored) or as raw bytes.
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,

    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// Where the chunks are sealed or opened: cpu (every core), gpu (an NVIDIA
    /// GPU; an error if none can be used or the chunks are under 16K), or auto
    /// (the GPU for inputs of 512 MiB or more with chunks of 16K or more when
    /// one opens, kept only if it proves faster than the CPU on the first
    /// windows, else the CPU). The same format either way: each engine opens
    /// the other's files.
    #[arg(short, long, value_enum, default_value = "auto", value_name = "BACKEND", ignore_case = true)]
    pub backend: SealBackendName,

    /// GPUs of the gpu and auto backends: all, a count N (the first N), or GPU
    /// numbers such as 0,2. Only the first selected GPU is used (one GPU's link
    /// is far faster than the file path).
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = gpus_parser)]
    pub gpus: GpuSelection,

    /// Write binary output to a terminal even so, and replace an output file
    /// that has other hard links (they keep the old content).
    #[arg(long)]
    pub force: bool,

    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,

    /// Say which engine did the work and, for `auto`, why it used no GPU.
    #[arg(short, long)]
    pub verbose: bool,
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
