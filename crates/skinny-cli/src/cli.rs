//! The command line, declared with clap. The names here are a contract other
//! tools and tests depend on.
//!
//! Each command's arguments live with the command (`commands::*`): this file
//! only names the commands and their help, so the arrows run one way, from
//! here down to the commands.

use crate::args::VERSION;
use crate::commands::crypt::CryptArgs;
use crate::commands::hash::args::HashArgs;
use crate::commands::seal::args::{OpenArgs, SealArgs};
use crate::commands::selftest::SelftestArgs;
use clap::{Parser, Subcommand};

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
The sealed format, version 2 (docs/sealed-format.md): a header with a fresh file key
wrapped for each key given (a key file, X25519 recipients, or a passphrase alone) and
authenticated under it, then the input in chunks, each encrypted and authenticated with
the scheme (--aead) under a key derived from the file key, so that any change,
reordering or truncation is found by `skinny open`. No IV is needed.

Examples:
  skinny keygen -o my.key                   # once; keep it secret
  skinny seal --key-file my.key report.pdf -o report.pdf.sealed
  tar c photos/ | skinny seal --key-file my.key --context photos > photos.tar.sealed
  skinny seal -r skinny1... notes.txt -o notes.sealed
  skinny seal -R team.txt -a notes.txt -o notes.txt.sealed   # recipients file, ASCII armor
  skinny seal --passphrase diary.txt -o diary.sealed
  skinny seal --aead m5 --chunk-size 1M --key-file my.key big.iso -o big.iso.sealed";

/// Examples shown under `skinny open --help`.
const OPEN_EXAMPLES: &str = "\
Versions 2 and 1 open; the scheme and chunk size are read from the file's header (a
scheme with a 64-bit tag only when --aead names it). A chunk's plaintext is released only
after its tag verified. To a file (-o), nothing is left behind unless the whole file
verified. To stdout, the chunks that verified before a damaged or missing one have
already been written when `open` fails (exit status 1): treat that output as incomplete,
or open to a file first. To a terminal, printable text is shown and binary refused.

Examples:
  skinny open --key-file my.key report.pdf.sealed -o report.pdf
  skinny open --key-file my.key photos.tar.sealed | tar x   # check the exit status
  skinny open -i me.id notes.sealed
  skinny open --key-file my.key --offset 4096 --length 100 big.iso.sealed | xxd";

/// Examples shown under `skinny keygen --help`.
const KEYGEN_EXAMPLES: &str = "\
A symmetric key file is one typed line, `SKINNY-SEAL-KEY-1 <hex>` (docs/sealed-format.md,
Keys); an identity is `SKINNY-SECRET-KEY-1...` and its recipient the public `skinny1...`, both
Bech32 with a checksum (the hex forms of earlier releases are still read). A file is created
owner-only and never replaced.

Examples:
  skinny keygen -o my.key                       # then: skinny seal --key-file my.key ...
  skinny keygen --x25519 -o me.id > me.pub      # give me.pub to those who seal to you
  skinny keygen -y me.id                        # print the recipient of an identity";

/// Examples shown under `skinny bench --help`.
#[cfg(feature = "bench")]
const BENCH_EXAMPLES: &str = "\
Examples:
  # Every usable backend, 1 KiB to 64 MiB, tables on stdout:
  skinny bench
  # The paper's experiment, with CSV, JSON and the charts:
  skinny bench --paper --csv paper.csv --json paper.json --plot paper.svg
  # A quick CPU-only look at small sizes, CTR only, decryption too:
  skinny bench --backends cpu-serial,cpu --modes ctr --sizes 16..64K --runs 3 --decrypt
  # Every AEAD scheme (seal, open) and hash, one message per call, 16 B to 1 MiB:
  skinny bench --aead all --hash all --json schemes.json --plot schemes.svg";

/// Examples shown under `skinny hash --help`.
const HASH_EXAMPLES: &str = "\
The output is GNU sha256sum's: one `<64 hex digits>  <name>` line per file (`-` for stdin), or
with --tag `Romulus-H (<name>) = <hex>` (the tags: Romulus-H, SKINNY-tk3-Hash, SKINNY-tk2-Hash).
A name with a backslash, newline or CR is escaped (`\\\\`, `\\n`, `\\r`) on a line that starts
with a backslash, as sha256sum does. --check reads all of these (and sha256sum's own lines);
a tag picks its line's function unless -a is given. Exit status: 0 all good; 1 a digest
differed, a file or list could not be read, a list had no digest line (or with --strict a
malformed one); 2 a usage error. Reference: docs/hash.md.

Examples:
  skinny hash report.pdf photos.tar > sums.txt     # Romulus-H (the default)
  skinny hash --check sums.txt                     # `<name>: OK` or `<name>: FAILED`
  skinny hash --tag -a skinny-tk3-hash * > SUMS    # lines that say which function
  skinny hash -c --quiet --ignore-missing SUMS     # only failures, missing files skipped
  tar c docs | skinny hash -a skinny-tk3-hash      # SKINNY-tk3-Hash of stdin";

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
    /// Make a key for `seal` and `open`: a symmetric key file (the default) or an
    /// X25519 identity (--x25519), whose recipient it prints.
    #[command(after_help = KEYGEN_EXAMPLES)]
    Keygen(crate::commands::keygen::KeygenArgs),
    /// Print or check 256-bit digests (Romulus-H, SKINNY-Hash), like sha256sum.
    #[command(after_help = HASH_EXAMPLES)]
    Hash(HashArgs),
    /// Measure throughput; `--paper` reproduces the paper's experiment.
    #[cfg(feature = "bench")]
    #[command(after_help = BENCH_EXAMPLES)]
    // Boxed: the bench's options are by far the largest variant.
    Bench(Box<crate::bench::BenchArgs>),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::CipherName;
    use crate::commands::crypt::{ModeName, BACKENDS};
    use clap::{CommandFactory, ValueEnum};
    use skinny::Variant;
    use skinny_bulk::backend::BackendChoice;
    use skinny_bulk::mode::Mode;

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
        let backends: Vec<BackendChoice> = BACKENDS.iter().map(|&(b, _)| b).collect();
        assert_eq!(backends, BackendChoice::ALL);
    }

    #[test]
    fn names_are_read_as_before() {
        let parse = |args: &[&str]| Cli::try_parse_from([&["skinny", "encrypt"], args].concat());
        let Command::Encrypt(a) = parse(&["-c", " SKINNY_64_128 ", "-m", "CBC", "-b", "Cpu-Serial"]).unwrap().command
        else {
            panic!("not encrypt")
        };
        assert_eq!((a.cipher, a.mode, a.backend), (CipherName::Skinny64_128, ModeName::Cbc, BackendChoice::CpuSerial));
        let Command::Encrypt(a) = parse(&[]).unwrap().command else { panic!("not encrypt") };
        assert_eq!((a.cipher, a.mode, a.backend), (CipherName::Skinny128_256, ModeName::Ctr, BackendChoice::Auto));
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
        if cfg!(feature = "bench") {
            assert!(ok(&["bench", "--runs", "1", "--max-time-per-size", "0", "--min-run-ms", "0"]));
            assert!(ok(&["bench", "--runs", "1000", "--max-time-per-size", "86400", "--min-run-ms", "10000"]));
            assert!(!ok(&["bench", "--runs", "0"]) && !ok(&["bench", "--runs", "1001"]));
            assert!(!ok(&["bench", "--max-time-per-size", "86400.5"]) && !ok(&["bench", "--min-run-ms", "-1"]));
            assert!(!ok(&["bench", "--threads", "0"]) && !ok(&["bench", "--threads", "1025"]));
        }
        let with_gpus = ["encrypt", "decrypt", "bench", "lab"];
        for cmd in with_gpus.into_iter().filter(|c| cfg!(feature = "bench") || *c != "bench") {
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
