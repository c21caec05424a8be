//! `skinny encrypt` and `skinny decrypt`: a stream through a mode of operation,
//! in fixed-size chunks so memory does not grow with the input.
//!
//! Everything the user gave is checked before any file is opened, and the input
//! before the output is created; the output is committed only on success (see
//! [`crate::files`]).

use crate::args::{CipherName, Delivery, Io, KeyArgs, Named, PlacementArgs, Trimmed};
use crate::error::CliError;
use crate::files::{Sink, Source};
use crate::keys;
use crate::progress;
use clap::builder::RangedU64ValueParser;
use clap::{Args, ValueEnum};
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use skinny_bulk::stream::{self, PipeOptions};
use std::io::Write;

/// Options shared by `encrypt` and `decrypt`. The shared groups carry the
/// sealed files' words; where this command's differ (a tweakey of any
/// variant, the cpu backend's threads, gpu-paper), [`crypt_words`] says them.
#[derive(Debug, Args)]
#[command(mut_args(crypt_words))]
pub struct CryptArgs {
    /// INPUT and `-o/--output`.
    #[command(flatten)]
    pub io: Io,

    /// The SKINNY variant: block size and tweakey size in bits.
    #[arg(short, long, default_value = "skinny-128-256", value_name = "CIPHER", ignore_case = true,
          value_parser = Trimmed::<CipherName>::new())]
    pub cipher: CipherName,

    /// The mode of operation.
    #[arg(short, long, default_value = "ctr", value_name = "MODE", ignore_case = true,
          value_parser = Trimmed::<ModeName>::new())]
    pub mode: ModeName,

    /// `-K/--key` and `--key-file`.
    #[command(flatten)]
    pub key: KeyArgs,

    /// The IV in hex, one block; required for ctr, cbc, cfb, ofb; refused for ecb.
    #[arg(long, value_name = "HEX")]
    pub iv: Option<String>,

    /// ECB and CBC without PKCS#7 padding: the input must then be whole blocks.
    #[arg(long)]
    pub no_pad: bool,

    /// Where the work runs.
    #[arg(short, long, default_value = "auto", value_name = "BACKEND", ignore_case = true,
          value_parser = Named::new(BACKENDS))]
    pub backend: BackendChoice,

    /// `--threads` and `--gpus`.
    #[command(flatten)]
    pub placement: PlacementArgs,

    /// Expert: run only the first R rounds (1 to the cipher's full count: 32 to
    /// 56). Reduced-round SKINNY is INSECURE; it is for cryptanalysis
    /// experiments, never for protecting data.
    #[arg(long, value_name = "R", value_parser = RangedU64ValueParser::<usize>::new().range(1..=56))]
    pub rounds: Option<usize>,

    /// `--force`, `-q/--quiet` and `-v/--verbose`.
    #[command(flatten)]
    pub delivery: Delivery,
}

/// This command's help for the shared groups' options whose words differ
/// from the groups' own; applied in place, so every listing keeps its order.
fn crypt_words(arg: clap::Arg) -> clap::Arg {
    let help = match arg.get_id().as_str() {
        "key" => "The whole tweakey (TK1 || TK2 || TK3) in hex: 8 to 48 bytes, by variant",
        "key_file" => "A file holding the key as hex (whitespace ignored) or as raw bytes",
        "threads" => {
            "Worker threads for the cpu backend, 1 to 1024 (default: all cores); more than 4 per core are lowered to \
             4 per core, with a notice"
        }
        "gpus" => {
            "GPUs of the gpu, gpu-paper and auto backends: all, a count N (the first N), or GPU numbers such as \
             0,2 (one GPU: 1,)"
        }
        "quiet" => "No progress bar and no notices (errors are still shown)",
        _ => return arg,
    };
    arg.help(help)
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

/// `-b/--backend`: the library's backends ([`BackendChoice`], which names
/// them), each with this command's help.
pub const BACKENDS: &[(BackendChoice, &str)] = &[
    (BackendChoice::Auto, "The GPU when one is usable and the input is large, else cpu"),
    (BackendChoice::CpuSerial, "Portable code on one thread"),
    (BackendChoice::Cpu, "Constant-time bitsliced code on all cores"),
    (BackendChoice::GpuPaper, "The paper's T-table CUDA kernel: SKINNY-128-256 only, NOT constant time"),
    (BackendChoice::Gpu, "The fast CUDA kernels"),
];

/// What stops `encrypt` or `decrypt` in this command's own terms, with its
/// source; the keys, the files and the bulk layer report through their own
/// errors. Turned into a [`CliError`] (usage, exit 2; or I/O, exit 1) where it
/// leaves the command.
#[derive(Debug, thiserror::Error)]
pub enum CryptError {
    /// `--no-pad` with a mode that never pads.
    #[error("--no-pad applies only to ecb and cbc ({0} never pads)")]
    NoPadWithoutPadding(Mode),
    /// The cipher refused the key or the round count.
    #[error("{0}")]
    Setup(#[source] skinny::SetupError),
    /// The backend asked for could not be opened.
    #[error("cannot use backend {choice}: {source}")]
    Backend {
        /// The backend asked for.
        choice: BackendChoice,
        /// Why it could not be opened.
        #[source]
        source: skinny_bulk::Error,
    },
}

impl From<CryptError> for CliError {
    fn from(e: CryptError) -> Self {
        match e {
            CryptError::NoPadWithoutPadding(_) | CryptError::Setup(_) => CliError::Usage(e.to_string()),
            CryptError::Backend { .. } => CliError::Io(e.to_string()),
        }
    }
}

/// Everything `encrypt`/`decrypt` needs, checked.
struct Plan {
    variant: Variant,
    mode: Mode,
    dir: Direction,
    pad: bool,
    backend: BackendChoice,
    iv: Option<Vec<u8>>,
}

/// Runs encrypt or decrypt: check the arguments, open the input, the backend
/// and the output, then move the message through the library's overlapped
/// pipe and commit.
///
/// # Errors
/// One line for the user: bad arguments, unreadable input, unwritable output,
/// bad padding, a backend failure.
pub fn run(a: &mut CryptArgs, dir: Direction) -> Result<(), CliError> {
    let (variant, mode, backend_choice) = parse_names(a)?;
    let key = keys::load_key(variant, a.key.key.as_deref(), a.key.key_file.as_deref());
    // Our copy of `--key` is no longer needed (the process's argv is beyond reach:
    // `--key-file` keeps the key out of `ps` as well).
    if let Some(hex) = a.key.key.as_mut() {
        zeroize::Zeroize::zeroize(hex);
    }
    let key = key?;
    let a = &*a;
    let plan = check_options(a, variant, mode, dir, backend_choice)?;
    let rounds = a.rounds.unwrap_or(plan.variant.rounds());
    let cipher = Skinny::with_rounds(plan.variant, &key, rounds).map_err(CryptError::Setup)?;
    drop(key);
    if rounds < plan.variant.rounds() && !a.delivery.quiet {
        // Not an error, but never something to do by accident.
        let _ = writeln!(
            std::io::stderr(),
            "skinny: warning: {rounds} of {}'s {} rounds: reduced-round SKINNY is insecure (for experiments only)",
            plan.variant,
            plan.variant.rounds()
        );
    }

    let source = Source::open(a.io.input.as_deref())?;
    check_length_up_front(&plan, source.len())?;
    if plan.backend.needs_gpu() || plan.backend == backend::BackendChoice::Auto {
        backend::check_gpus(&a.placement.gpus)?;
    }
    let (threads, notice) = crate::args::capped_threads(a.placement.threads);
    if let (Some(notice), false) = (notice, a.delivery.quiet) {
        let _ = writeln!(std::io::stderr(), "skinny: {notice}");
    }
    let backend = backend::open(plan.backend, &Options::with_threads(threads).gpus(a.placement.gpus.clone()))
        .map_err(|source| CryptError::Backend { choice: plan.backend, source })?;
    if !backend.supports(plan.variant) {
        return Err(skinny_bulk::Error::Unsupported { backend: backend.name(), variant: plan.variant }.into());
    }
    let mut builder = Processor::builder(&cipher, plan.mode, plan.dir).backend(backend.as_ref());
    if let Some(iv) = plan.iv.as_deref() {
        builder = builder.iv(iv);
    }
    if plan.mode.is_block_mode() {
        builder = builder.padding(if plan.pad { Padding::Pkcs7 } else { Padding::None });
    }
    if let Some(total) = source.len() {
        builder = builder.total_bytes(total);
    }
    let processor = builder.build()?;
    // The output is created last, once everything else is known to be usable.
    let sink = Sink::open(a.io.output.as_deref(), &source, a.key.key_file.as_deref(), a.delivery.force)?;

    let to_stdout = a.io.to_stdout();
    let bar = progress::bar(source.len(), a.delivery.quiet, to_stdout);
    let result = stream::pipe(processor, source, sink, &PipeOptions::default(), Some(&mut |n| bar.inc(n)));
    bar.finish_and_clear();
    let report = result?;
    if a.delivery.verbose {
        let engine = report.engine.unwrap_or_else(|| "on the CPU, block after block (a serial mode)".into());
        // Notices only: a failing stderr (2>/dev/full) must not panic as
        // eprintln! would, nor fail a run whose output is fine.
        let mut err = std::io::stderr();
        let bytes = crate::error::count(report.bytes, "byte");
        let _ = writeln!(err, "skinny: {bytes} through {mode} {dir}: {engine}");
        if let Some(why) = backend.fallback() {
            let _ = writeln!(err, "skinny: no usable GPU ({why}); using the CPU");
        }
    }
    Ok(report.writer.commit()?)
}

/// The cipher, mode and backend, as the library types. clap already refused
/// unknown names (exit 2), so this cannot fail; the `Result` stays so callers
/// need not change.
fn parse_names(a: &CryptArgs) -> Result<(Variant, Mode, BackendChoice), CliError> {
    Ok((a.cipher.into(), a.mode.into(), a.backend))
}

/// Checks that the IV and padding options go with the mode.
fn check_options(
    a: &CryptArgs,
    variant: Variant,
    mode: Mode,
    dir: Direction,
    backend: BackendChoice,
) -> Result<Plan, CliError> {
    if a.no_pad && !mode.is_block_mode() {
        return Err(CryptError::NoPadWithoutPadding(mode).into());
    }
    let iv = keys::load_iv(variant, mode, a.iv.as_deref())?;
    Ok(Plan { variant, mode, dir, pad: mode.is_block_mode() && !a.no_pad, backend, iv })
}

/// When the input length is known, refuses what must be whole blocks and is not,
/// before any output is created or written.
fn check_length_up_front(plan: &Plan, len: Option<u64>) -> Result<(), CliError> {
    let block = plan.variant.block_bytes();
    let needs_whole_blocks = plan.mode.is_block_mode() && (!plan.pad || plan.dir == Direction::Decrypt);
    match len {
        Some(n) if needs_whole_blocks && n % block as u64 != 0 => {
            Err(skinny_bulk::Error::NotWholeBlocks { block, len: n }.into())
        }
        Some(0) if plan.pad && plan.dir == Direction::Decrypt => Err(skinny_bulk::Error::BadPadding.into()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crypt_errors_keep_their_words_and_exit_codes() {
        let e = CliError::from(CryptError::NoPadWithoutPadding(Mode::Ctr));
        assert_eq!(
            (e.to_string().as_str(), e.exit_code()),
            ("--no-pad applies only to ecb and cbc (ctr never pads)", 2)
        );
        let source = skinny_bulk::Error::ZeroThreads;
        let why = source.to_string();
        let e = CryptError::Backend { choice: BackendChoice::Gpu, source };
        assert!(std::error::Error::source(&e).is_some());
        let e = CliError::from(e);
        assert_eq!((e.to_string(), e.exit_code()), (format!("cannot use backend gpu: {why}"), 1));
    }
}
