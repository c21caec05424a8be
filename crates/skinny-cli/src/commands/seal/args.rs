//! The arguments of `skinny seal` and `skinny open`, and the names and sizes
//! they take, apart from the commands' bodies.

use crate::args::{Delivery, Io, KeyArgs, Named, PlacementArgs};
use clap::Args;
use skinny_exec::{Placement, PlacementKind};
use skinny_seal::Scheme;
use std::path::PathBuf;

/// `--backend` of `seal` and `open`: the execution layer's placements, with
/// what each means here.
const BACKENDS: &[(PlacementKind, &str)] = &[
    (
        PlacementKind::Auto,
        "The GPU for large inputs with chunks of 16K or more when one opens and proves faster than the CPU, else the CPU",
    ),
    (PlacementKind::Cpu, "The bitsliced CPU code on every core (or --threads)"),
    (PlacementKind::Gpu, "An NVIDIA GPU (an error if none can be used)"),
];

/// `--aead` of `seal` and `open`: the library's schemes by their short names
/// (`m1`; `skinny-aead-m1` too), with what each is.
pub const SCHEMES: &[(Scheme, &str)] = &[
    (Scheme::M1, "SKINNY-AEAD M1: SKINNY-128-384, 128-bit nonce and tag (the primary member)"),
    (Scheme::M2, "SKINNY-AEAD M2: SKINNY-128-384, 96-bit nonce, 128-bit tag"),
    (Scheme::M3, "SKINNY-AEAD M3: SKINNY-128-384, 128-bit nonce, 64-bit tag"),
    (Scheme::M4, "SKINNY-AEAD M4: SKINNY-128-384, 96-bit nonce, 64-bit tag"),
    (Scheme::M5, "SKINNY-AEAD M5: SKINNY-128-256, 96-bit nonce, 128-bit tag"),
    (Scheme::M6, "SKINNY-AEAD M6: SKINNY-128-256, 96-bit nonce, 64-bit tag"),
    (Scheme::RomulusN, "Romulus-N (nonce-based, CPU only)"),
    (Scheme::RomulusM, "Romulus-M (misuse-resistant, CPU only)"),
];

/// Parses `--chunk-size`: bytes, or with a binary suffix K/KiB, M/MiB (case
/// ignored); a power of two from 1 KiB to 16 MiB. Returns its log2.
pub fn chunk_size_log2(text: &str) -> Result<u8, String> {
    use skinny_seal::format::{MAX_CHUNK_LOG2, MIN_CHUNK_LOG2};
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
        return Err(format!("the chunk size must be a power of two from 1K ({lo} bytes) to 16M, e.g. 64K or 1M"));
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

    /// `--passphrase`, `--passphrase-fd` and `--context`.
    #[command(flatten)]
    pub secret: SecretArgs,

    /// Seal to this X25519 public key (`skinny1...`: `skinny keygen --x25519`
    /// prints one; a typo is refused by its checksum); repeat for several
    /// recipients. Combines with --key-file and -R.
    #[arg(short = 'r', long = "recipient", value_name = "PUBLIC")]
    pub recipients: Vec<String>,

    /// Seal to every recipient in this file: one a line, blank lines and
    /// lines starting with # ignored; `-` reads stdin (the input must then be
    /// a named file); repeat for several files.
    #[arg(short = 'R', long = "recipients-file", value_name = "PATH")]
    pub recipients_files: Vec<PathBuf>,

    /// Write the sealed file as ASCII armor (PEM-like text: base64 lines of
    /// 64 characters between BEGIN and END lines); `open` recognises it.
    #[arg(short = 'a', long)]
    pub armor: bool,

    /// The payload's AEAD: m1..m6 (SKINNY-AEAD members) or romulus-n,
    /// romulus-m (CPU only). m3, m4 and m6 have 64-bit tags: `open` then needs
    /// the same --aead.
    #[arg(long, alias = "member", default_value = "m1", value_name = "SCHEME", ignore_case = true,
          value_parser = Named::new(SCHEMES))]
    pub aead: Scheme,

    /// Plaintext bytes per chunk: a power of two from 1K to 16M (K and M are
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

    /// `--passphrase`, `--passphrase-fd` and `--context`.
    #[command(flatten)]
    pub secret: SecretArgs,

    /// An X25519 identity file (`skinny keygen --x25519` writes one; every
    /// identity in it is tried); repeat to try several files.
    #[arg(short = 'i', long = "identity", value_name = "PATH")]
    pub identities: Vec<PathBuf>,

    /// Accept a file sealed with this scheme when it has a 64-bit tag (m3, m4,
    /// m6: refused otherwise); any other scheme named must be the file's.
    #[arg(long, alias = "member", value_name = "SCHEME", ignore_case = true,
          value_parser = Named::new(SCHEMES))]
    pub aead: Option<Scheme>,

    /// Open only the plaintext from this byte on (needs --length and a
    /// seekable input file: only the chunks the range covers are read).
    #[arg(long, value_name = "N", requires = "length")]
    pub offset: Option<u64>,

    /// Open only this many plaintext bytes (from --offset, or from the start).
    #[arg(long, value_name = "M")]
    pub length: Option<u64>,

    /// `--threads`, `-b/--backend` and `--gpus`.
    #[command(flatten)]
    pub placement: SealPlacement,

    /// `--force`, `-q/--quiet` and `-v/--verbose`.
    #[command(flatten)]
    pub delivery: Delivery,
}

/// The passphrase and context options `seal` and `open` share.
#[derive(Debug, Args)]
pub struct SecretArgs {
    /// Use a passphrase, typed twice without echo on the terminal when
    /// sealing (Argon2id; it must be the file's only key).
    #[arg(long, conflicts_with = "passphrase_fd")]
    pub passphrase: bool,

    /// Read the passphrase from this open file descriptor (its first line;
    /// 3 or more, e.g. `3< file`), for scripts.
    #[arg(long, value_name = "N")]
    pub passphrase_fd: Option<i32>,

    /// Context bound to the file (any text, e.g. its purpose or name): `open`
    /// must give the same. Stops a file being swapped for another under the
    /// same key.
    #[arg(long, value_name = "TEXT")]
    pub context: Option<String>,
}

impl SecretArgs {
    /// Whether a passphrase was asked for.
    pub fn wants_passphrase(&self) -> bool {
        self.passphrase || self.passphrase_fd.is_some()
    }
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
    #[arg(short, long, default_value = "auto", value_name = "BACKEND", ignore_case = true,
          value_parser = Named::new(BACKENDS))]
    pub backend: PlacementKind,
}

impl SealPlacement {
    /// The execution layer's placement asked for, with `threads` (absent:
    /// all cores) in place of `--threads` (which the caller may have capped).
    pub fn placement(&self, threads: Option<usize>) -> Placement {
        let machine = PlacementArgs { threads, gpus: self.machine.gpus.clone() };
        machine.placement(self.backend)
    }
}

/// The options of `seal` and `open` in the order their help lists them
/// (`--backend` beside the machine it places work on).
const HELP_ORDER: [&str; 21] = [
    "input",
    "output",
    "key",
    "key_file",
    "passphrase",
    "passphrase_fd",
    "recipients",
    "recipients_files",
    "identities",
    "context",
    "aead",
    "offset",
    "length",
    "chunk_size",
    "armor",
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
        "key_file" => arg.help(KEY_FILE_HELP),
        "key" => arg.help(KEY_HELP),
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
        "key_file" => KEY_FILE_HELP,
        "key" => KEY_HELP,
        _ => return arg,
    };
    arg.help(help)
}

/// `--key-file` of `seal` and `open`.
const KEY_FILE_HELP: &str = "A key file: `skinny keygen`'s, or a 16-byte key as hex or raw bytes (version 1's); \
                             `-` reads it from stdin (the input must then be a named file)";

/// `-K/--key` of `seal` and `open`: the sizes `--key-file` takes.
const KEY_HELP: &str = "The key in hex: 32 bytes (64 hex digits, the size `skinny keygen` makes) \
                        or version 1's 16 bytes (32 hex digits)";

/// `--gpus` of `seal` and `open`: one GPU serves a run.
const GPUS_HELP: &str = "The GPU of the gpu and auto backends: all (any one), 1, or one GPU number such as 2. \
                         A file runs on one GPU (one GPU's link is far faster than the file path): naming more is refused";

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
        assert_eq!(super::chunk_size_log2("1024"), Ok(10));
        assert_eq!(super::chunk_size_log2("16M"), Ok(24));
        assert_eq!(super::chunk_size_log2("1024KiB"), Ok(20));
        for bad in ["8", "16", "512", "3K", "32M", "0", "", "x", "64Q", "99999999999999999999M"] {
            assert!(super::chunk_size_log2(bad).is_err(), "{bad}");
        }
    }

    /// `--aead` lists the short names with their help, as before, and takes
    /// every name the library reads (`skinny-aead-m1` too), in any case.
    #[test]
    fn aead_takes_the_librarys_names_and_lists_the_short_ones() {
        use super::{Named, SCHEMES};
        use clap::builder::TypedValueParser;
        use skinny_seal::Scheme;
        let listed: Vec<_> = Named::new(SCHEMES).possible_values().unwrap().map(|v| v.get_name().to_string()).collect();
        assert_eq!(listed, ["m1", "m2", "m3", "m4", "m5", "m6", "romulus-n", "romulus-m"]);
        assert_eq!(SCHEMES.len(), Scheme::ALL.len());
        let cmd = clap::Command::new("t")
            .arg(clap::Arg::new("a").long("aead").ignore_case(true).value_parser(Named::new(SCHEMES)));
        let get =
            |v: &str| cmd.clone().try_get_matches_from(["t", "--aead", v]).map(|m| m.get_one::<Scheme>("a").copied());
        for name in Scheme::accepted_names() {
            assert_eq!(get(name).unwrap(), name.parse().ok(), "{name}");
        }
        assert_eq!(get("SKINNY-AEAD-M3").unwrap(), Some(Scheme::M3));
        assert_eq!(get(" m6 ").unwrap(), Some(Scheme::M6));
        let e = get("romulus-t").unwrap_err().to_string();
        assert!(e.contains("[possible values: m1, m2, m3, m4, m5, m6, romulus-n, romulus-m]"), "{e}");
    }
}
