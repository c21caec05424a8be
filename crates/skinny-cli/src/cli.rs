//! The command line, declared with clap. The names here are a contract other
//! tools and tests depend on.

use clap::builder::RangedU64ValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use skinny_bulk::backend::{BackendChoice, GpuSelection};
use skinny_bulk::mode::Mode;
use std::path::PathBuf;

// Where the commands found them before `args` existed; `commands/lab.rs`
// imports them from here.
pub use crate::args::{gpus_parser, threads_parser, CipherName, Trimmed, VERSION};

/// SKINNY tweakable block ciphers at the speed of the hardware: all cores of the
/// CPU (constant-time bitsliced code) or an NVIDIA GPU (CUDA).
#[derive(Debug, Parser)]
#[command(name = "skinny", version = VERSION, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Examples shown under `skinny encrypt --help`.
const ENCRYPT_EXAMPLES: &str = "\
Examples:
  # SKINNY-128-256 in CTR mode (the defaults), key and IV in hex:
  skinny encrypt -K $(cat key.hex) --iv $(cat iv.hex) secret.tar -o secret.enc
  # Key from a file (keeps it out of `ps`), CBC with PKCS#7 padding, from a pipe:
  tar c docs | skinny encrypt -m cbc --key-file my.key --iv $(cat iv.hex) > docs.tar.enc
  # Another variant, whole blocks only, on the CPU with 8 threads:
  skinny encrypt -c skinny-64-192 -m ecb --no-pad --key-file k24 -b cpu --threads 8 in -o out";

/// Examples shown under `skinny decrypt --help`.
const DECRYPT_EXAMPLES: &str = "\
Examples:
  # Undo the CTR example of `skinny encrypt --help` (same key, IV and options):
  skinny decrypt -K $(cat key.hex) --iv $(cat iv.hex) secret.enc -o secret.tar
  # CBC from a key file, to stdout:
  skinny decrypt -m cbc --key-file my.key --iv $(cat iv.hex) docs.tar.enc | tar x
  # Force the GPU (fails with one line when none can be used):
  skinny decrypt -b gpu -K $(cat key.hex) --iv $(cat iv.hex) big.enc -o big.bin";

/// Examples shown under `skinny seal --help`.
const SEAL_EXAMPLES: &str = "\
The sealed format (docs/sealed-format.md): a header, then the input in chunks, each
encrypted and authenticated with SKINNY-AEAD under a nonce made of a random per-file
prefix, the chunk's number and a last-chunk flag, so that any change, reordering or
truncation is found by `skinny open`. The key is 16 bytes (32 hex digits); no IV is
needed.

Examples:
  head -c 16 /dev/urandom > my.key          # once; keep it secret
  skinny seal --key-file my.key report.pdf -o report.pdf.sealed
  tar c photos/ | skinny seal --key-file my.key > photos.tar.sealed
  skinny seal --member m5 --chunk-size 1M --key-file my.key big.iso -o big.iso.sealed";

/// Examples shown under `skinny open --help`.
const OPEN_EXAMPLES: &str = "\
The member and chunk size are read from the file's header. A chunk's plaintext is
released only after its tag verified. To a file (-o), nothing is left behind unless the
whole file verified. To stdout, the chunks that verified before a damaged or missing one
have already been written when `open` fails (exit status 1): treat that output as
incomplete, or open to a file first.

Examples:
  skinny open --key-file my.key report.pdf.sealed -o report.pdf
  skinny open --key-file my.key photos.tar.sealed | tar x   # check the exit status";

/// Examples shown under `skinny bench --help`.
const BENCH_EXAMPLES: &str = "\
Examples:
  # Every usable backend, 1 KiB to 64 MiB, tables on stdout:
  skinny bench
  # The paper's experiment, with CSV, JSON and the charts:
  skinny bench --paper --csv paper.csv --json paper.json --plot paper.svg
  # A quick CPU-only look at small sizes, CTR only, decryption too:
  skinny bench --backends cpu-serial,cpu --modes ctr --sizes 16..64K --runs 3 --decrypt";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Encrypt INPUT (default stdin) to OUTPUT (default stdout).
    #[command(after_help = ENCRYPT_EXAMPLES)]
    Encrypt(CryptArgs),
    /// Decrypt INPUT (default stdin) to OUTPUT (default stdout).
    #[command(after_help = DECRYPT_EXAMPLES)]
    Decrypt(CryptArgs),
    /// Encrypt and authenticate INPUT (default stdin) into a sealed file (the
    /// recommended way to encrypt files).
    #[command(after_help = SEAL_EXAMPLES)]
    Seal(SealArgs),
    /// Verify and decrypt a sealed file INPUT (default stdin) to OUTPUT (default stdout).
    #[command(after_help = OPEN_EXAMPLES)]
    Open(OpenArgs),
    /// Measure throughput; `--paper` reproduces the paper's experiment.
    #[command(after_help = BENCH_EXAMPLES)]
    Bench(crate::bench::BenchArgs),
    /// Check the specification's vectors and cross-check every usable backend.
    Selftest(SelftestArgs),
    /// Show CPU features, GPUs, NVRTC and which backends are usable.
    Info,
    /// Differential and boomerang experiments on reduced-round SKINNY (CPU or GPUs).
    Lab(crate::commands::lab::LabArgs),
    /// Print a shell completion script to stdout.
    #[command(
        after_help = "Example (bash):\n  skinny completions bash > ~/.local/share/bash-completion/completions/skinny"
    )]
    Completions {
        /// The shell to complete for.
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
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

    /// The SKINNY variant: block size and tweakey size in bits.
    #[arg(short, long, default_value = "skinny-128-256", value_name = "CIPHER", ignore_case = true,
          value_parser = Trimmed::<CipherName>::new())]
    pub cipher: CipherName,

    /// The mode of operation.
    #[arg(short, long, default_value = "ctr", value_name = "MODE", ignore_case = true,
          value_parser = Trimmed::<ModeName>::new())]
    pub mode: ModeName,

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

    /// Where the work runs.
    #[arg(short, long, default_value = "auto", value_name = "BACKEND", ignore_case = true,
          value_parser = Trimmed::<BackendName>::new())]
    pub backend: BackendName,

    /// Worker threads for the cpu backend, 1 to 1024 (default: all cores).
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// GPUs of the gpu, gpu-paper and auto backends: all, a count N (the first
    /// N), or GPU numbers such as 0,2 (one GPU: 1,).
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = gpus_parser)]
    pub gpus: GpuSelection,

    /// Expert: run only the first R rounds (1 to the cipher's full count: 32 to
    /// 56). Reduced-round SKINNY is INSECURE; it is for cryptanalysis
    /// experiments, never for protecting data.
    #[arg(long, value_name = "R", value_parser = RangedU64ValueParser::<usize>::new().range(1..=56))]
    pub rounds: Option<usize>,

    /// Write binary output to a terminal even so, and replace an output file
    /// that has other hard links (they keep the old content).
    #[arg(long)]
    pub force: bool,

    /// No progress bar and no notices (errors are still shown).
    #[arg(short, long)]
    pub quiet: bool,

    /// Say which engine did the work and, for `auto`, why it used no GPU.
    #[arg(short, long)]
    pub verbose: bool,
}

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

/// The most random cross-checks `selftest --rounds` accepts: enough for a soak
/// test, few enough that a typo does not run for days.
pub const MAX_ROUNDS: u64 = 1000;

/// The largest `selftest --max-bytes`: each check holds a few buffers of this
/// size at once, so this keeps a run within a few GiB of memory.
pub const MAX_SELFTEST_BYTES: u64 = 256 << 20;

/// Options of `selftest`.
#[derive(Debug, Args)]
pub struct SelftestArgs {
    /// Random cross-checks per variant, mode and backend, 0 to 1000.
    #[arg(long, default_value_t = 8, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_ROUNDS))]
    pub rounds: usize,

    /// Largest random input in bytes, 0 to 268435456 (256 MiB); the default keeps
    /// the run to seconds on a small machine.
    #[arg(long, default_value_t = 1 << 18, value_name = "BYTES",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_SELFTEST_BYTES))]
    pub max_bytes: usize,
}

/// `-m/--mode`: the names are [`Mode::name`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeName {
    /// Electronic codebook (PKCS#7 padding unless --no-pad); no IV.
    Ecb,
    /// Counter mode; parallel both ways.
    Ctr,
    /// Cipher block chaining (PKCS#7 padding unless --no-pad).
    Cbc,
    /// Full-block cipher feedback.
    Cfb,
    /// Output feedback; serial both ways.
    Ofb,
}

impl From<ModeName> for Mode {
    fn from(m: ModeName) -> Self {
        match m {
            ModeName::Ecb => Mode::Ecb,
            ModeName::Ctr => Mode::Ctr,
            ModeName::Cbc => Mode::Cbc,
            ModeName::Cfb => Mode::Cfb,
            ModeName::Ofb => Mode::Ofb,
        }
    }
}

/// `-b/--backend`: the names are [`BackendChoice::name`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendName {
    /// The GPU when one is usable and the input is large, else cpu.
    Auto,
    /// Portable code on one thread.
    CpuSerial,
    /// Constant-time bitsliced code on all cores.
    Cpu,
    /// The paper's T-table CUDA kernel: SKINNY-128-256 only, NOT constant time.
    GpuPaper,
    /// The fast CUDA kernels.
    Gpu,
}

impl From<BackendName> for BackendChoice {
    fn from(b: BackendName) -> Self {
        match b {
            BackendName::Auto => BackendChoice::Auto,
            BackendName::CpuSerial => BackendChoice::CpuSerial,
            BackendName::Cpu => BackendChoice::Cpu,
            BackendName::GpuPaper => BackendChoice::GpuPaper,
            BackendName::Gpu => BackendChoice::Gpu,
        }
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
    use super::*;
    use clap::CommandFactory;
    use skinny::Variant;

    /// The name clap accepts for `v`.
    fn name<E: ValueEnum>(v: &E) -> String {
        v.to_possible_value().expect("not hidden").get_name().to_string()
    }

    #[test]
    fn command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn names_are_the_libraries_names_and_cover_them_all() {
        let ciphers: Vec<Variant> = CipherName::value_variants().iter().map(|&c| c.into()).collect();
        assert_eq!(ciphers, Variant::ALL);
        for c in CipherName::value_variants() {
            assert_eq!(name(c), Variant::from(*c).name());
        }
        let modes: Vec<Mode> = ModeName::value_variants().iter().map(|&m| m.into()).collect();
        assert_eq!(modes, Mode::ALL);
        for m in ModeName::value_variants() {
            assert_eq!(name(m), Mode::from(*m).name());
        }
        let backends: Vec<BackendChoice> = BackendName::value_variants().iter().map(|&b| b.into()).collect();
        assert_eq!(backends, BackendChoice::ALL);
        for b in BackendName::value_variants() {
            assert_eq!(name(b), BackendChoice::from(*b).name());
        }
    }

    #[test]
    fn names_are_read_as_before() {
        let parse = |args: &[&str]| Cli::try_parse_from([&["skinny", "encrypt"], args].concat());
        let Command::Encrypt(a) = parse(&["-c", " SKINNY_64_128 ", "-m", "CBC", "-b", "Cpu-Serial"]).unwrap().command
        else {
            panic!("not encrypt")
        };
        assert_eq!((a.cipher, a.mode, a.backend), (CipherName::Skinny64_128, ModeName::Cbc, BackendName::CpuSerial));
        let Command::Encrypt(a) = parse(&[]).unwrap().command else { panic!("not encrypt") };
        assert_eq!((a.cipher, a.mode, a.backend), (CipherName::Skinny128_256, ModeName::Ctr, BackendName::Auto));
        assert!(parse(&["-c", "skinny-128-512"]).is_err());
    }

    #[test]
    fn numbers_are_range_checked_by_clap() {
        let ok = |args: &[&str]| Cli::try_parse_from([&["skinny"], args].concat()).is_ok();
        assert!(ok(&["encrypt", "--threads", "1"]) && ok(&["encrypt", "--threads", "1024"]));
        assert!(!ok(&["encrypt", "--threads", "0"]) && !ok(&["decrypt", "--threads", "1025"]));
        assert!(ok(&["selftest", "--rounds", "1000", "--max-bytes", "268435456"]));
        assert!(ok(&["selftest", "--rounds", "0", "--max-bytes", "0"]));
        assert!(!ok(&["selftest", "--rounds", "1001"]) && !ok(&["selftest", "--max-bytes", "268435457"]));
        assert!(ok(&["bench", "--runs", "1", "--max-time-per-size", "0", "--min-run-ms", "0"]));
        assert!(ok(&["bench", "--runs", "1000", "--max-time-per-size", "86400", "--min-run-ms", "10000"]));
        assert!(!ok(&["bench", "--runs", "0"]) && !ok(&["bench", "--runs", "1001"]));
        assert!(!ok(&["bench", "--max-time-per-size", "86400.5"]) && !ok(&["bench", "--min-run-ms", "-1"]));
        assert!(!ok(&["bench", "--threads", "0"]) && !ok(&["bench", "--threads", "1025"]));
        for cmd in ["encrypt", "decrypt", "bench", "lab"] {
            for good in ["all", "2", "0,2", "1,"] {
                let mut args = vec![cmd, "--gpus", good];
                if cmd == "lab" {
                    args = vec!["lab", "differential", "--rounds", "1", "--dp", "01", "--dc", "01", "--queries", "1"];
                    args.extend(["--gpus", good]);
                }
                assert!(ok(&args), "{args:?}");
            }
        }
        for bad in ["0", "none", "1,1", "", "-2"] {
            assert!(!ok(&["encrypt", "--gpus", bad]), "{bad:?}");
        }
    }
}
