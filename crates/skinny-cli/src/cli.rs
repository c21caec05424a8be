//! The command line, declared with clap. The names here are a contract other
//! tools and tests depend on.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// SKINNY tweakable block ciphers at the speed of the hardware: all cores of the
/// CPU (constant-time bitsliced code) or an NVIDIA GPU (CUDA).
#[derive(Debug, Parser)]
#[command(name = "skinny", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Encrypt INPUT (default stdin) to OUTPUT (default stdout).
    Encrypt(CryptArgs),
    /// Decrypt INPUT (default stdin) to OUTPUT (default stdout).
    Decrypt(CryptArgs),
    /// Measure throughput; `--paper` reproduces the paper's experiment.
    Bench(crate::bench::BenchArgs),
    /// Check the specification's vectors and cross-check every usable backend.
    Selftest(SelftestArgs),
    /// Show CPU features, GPUs, NVRTC and which backends are usable.
    Info,
}

/// Options shared by `encrypt` and `decrypt`.
#[derive(Debug, Args)]
pub struct CryptArgs {
    /// Input file; `-` or absent means stdin.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Output file; `-` or absent means stdout. Written to a temporary file beside
    /// it and renamed on success, so a failure never leaves a partial output.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,

    /// skinny-64-64 | skinny-64-128 | skinny-64-192 | skinny-128-128 | skinny-128-256 | skinny-128-384
    #[arg(short, long, default_value = "skinny-128-256", value_name = "CIPHER")]
    pub cipher: String,

    /// ecb | ctr | cbc | cfb | ofb
    #[arg(short, long, default_value = "ctr", value_name = "MODE")]
    pub mode: String,

    /// The whole tweakey (TK1 || TK2 || TK3) in hex: 8 to 48 bytes, by variant.
    // Not `conflicts_with`: giving both is reported by the command in one line.
    #[arg(short = 'K', long, value_name = "HEX")]
    pub key: Option<String>,

    /// A file holding the key as hex (whitespace ignored) or as raw bytes.
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,

    /// The IV in hex, one block; required for ctr, cbc, cfb, ofb; refused for ecb.
    #[arg(long, value_name = "HEX")]
    pub iv: Option<String>,

    /// ECB and CBC without PKCS#7 padding: the input must then be whole blocks.
    #[arg(long)]
    pub no_pad: bool,

    /// auto | cpu | cpu-serial | gpu | gpu-paper (gpu-paper: the paper's T-table
    /// kernel, SKINNY-128-256 only, NOT constant time).
    #[arg(short, long, default_value = "auto", value_name = "BACKEND")]
    pub backend: String,

    /// Worker threads for the cpu backend (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Write binary output to a terminal even so.
    #[arg(long)]
    pub force: bool,

    /// No progress bar and no notices (errors are still shown).
    #[arg(short, long)]
    pub quiet: bool,
}

/// Options of `selftest`.
#[derive(Debug, Args)]
pub struct SelftestArgs {
    /// Random cross-checks per variant, mode and backend.
    #[arg(long, default_value_t = 8)]
    pub rounds: usize,

    /// Largest random input in bytes (the default keeps the run to seconds on a
    /// small machine).
    #[arg(long, default_value_t = 1 << 18)]
    pub max_bytes: usize,
}
