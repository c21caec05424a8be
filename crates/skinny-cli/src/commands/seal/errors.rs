//! The errors of `skinny seal` and `skinny open` in the command line's words:
//! the format's ([`skinny_seal::SealError`], [`skinny_seal::OpenError`]) and
//! their engine's (GPU, threads: [`skinny_seal::EngineError`], as
//! [`EngineError`]), each one line with the option that changes it.

use crate::error::{count, reason, CliError};
use skinny_exec::{GpuSelection, GpuSelectionError};
use skinny_seal::EngineError as Engine;

/// What differs between the two commands' words.
pub struct Command {
    /// What the verbose line says was done.
    pub verb: &'static str,
    /// Whose chunks a refusal of small chunks speaks of.
    pub chunks_are: &'static str,
}

/// `seal`'s words.
pub const SEAL: Command = Command { verb: "sealed", chunks_are: "--chunk-size is" };
/// `open`'s words.
pub const OPEN: Command = Command { verb: "opened", chunks_are: "this file's chunks are" };

/// What stops `seal` or `open` in these commands' own terms, with its
/// source; turned into a [`CliError`] where it leaves the command.
#[derive(Debug)]
pub enum EngineError {
    /// `--backend gpu` with chunks the GPU cannot take.
    GpuChunks {
        /// The chunk size, as a power of two.
        chunk_log2: u8,
        /// Whose chunks: the option's or the file's.
        chunks_are: &'static str,
    },
    /// `--backend gpu`, and no GPU could be had.
    NoGpu(Engine),
    /// `--gpus` names GPUs this machine does not have.
    Gpus {
        /// The selection asked for.
        asked: GpuSelection,
        /// Why it does not fit.
        source: GpuSelectionError,
    },
    /// The engine's other errors: the threads, a GPU that failed.
    Engine(Engine),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::GpuChunks { chunk_log2, chunks_are } => write!(
                f,
                "--backend gpu needs chunks of 16K or more ({chunks_are} {}); use --backend cpu",
                count(1u64 << chunk_log2, "byte")
            ),
            EngineError::NoGpu(Engine::GpuStart(why)) => write!(f, "--backend gpu: {why}"),
            EngineError::NoGpu(Engine::NoCuda) => {
                f.write_str("--backend gpu: this skinny was built without CUDA support")
            }
            EngineError::NoGpu(e) => write!(f, "--backend gpu: {e}"),
            EngineError::Gpus { asked, source } => write!(f, "--gpus {asked}: {source}"),
            EngineError::Engine(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::GpuChunks { .. } => None,
            EngineError::NoGpu(e) | EngineError::Engine(e) => Some(e),
            EngineError::Gpus { source, .. } => Some(source),
        }
    }
}

impl EngineError {
    /// The library's error in this command's terms (`asked`: the `--gpus`
    /// given, for the message).
    pub fn new(e: Engine, command: &Command, asked: &GpuSelection) -> Self {
        match e {
            Engine::GpuChunkSize { chunk_log2 } => {
                EngineError::GpuChunks { chunk_log2, chunks_are: command.chunks_are }
            }
            e @ (Engine::GpuStart(_) | Engine::NoCuda) => EngineError::NoGpu(e),
            Engine::GpuSelection(source) => EngineError::Gpus { asked: asked.clone(), source },
            e => EngineError::Engine(e),
        }
    }
}

impl From<EngineError> for CliError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::GpuChunks { .. } | EngineError::Gpus { .. } => CliError::Usage(e.to_string()),
            EngineError::NoGpu(_) => CliError::Gpu(e.to_string()),
            EngineError::Engine(e @ Engine::Threads { .. }) => CliError::Io(e.to_string()),
            EngineError::Engine(e) => CliError::Gpu(e.to_string()),
        }
    }
}

/// `--gpus` naming more than one GPU.
fn one_gpu(asked: &GpuSelection) -> CliError {
    CliError::Usage(format!("--gpus {asked}: a sealed file runs on one GPU; name one (e.g. --gpus 0) or use all"))
}

/// `--backend gpu` for a CPU-only scheme.
fn cpu_only(scheme: &str) -> CliError {
    CliError::Usage(format!("--backend gpu: {scheme} runs on the CPU only; use --backend cpu or auto"))
}

/// The v2 sealing error in the command line's words.
pub fn from_seal(e: skinny_seal::SealError, asked: &GpuSelection) -> CliError {
    use skinny_seal::SealError as S;
    match e {
        S::Read(e) => CliError::Io(format!("cannot read input: {}", reason(&e))),
        S::Write(e) => CliError::Output(e),
        S::OneGpu => one_gpu(asked),
        S::CpuOnly(s) => cpu_only(s),
        S::Engine(e) => EngineError::new(e, &SEAL, asked).into(),
        e @ (S::InvalidOptions(_) | S::PassphraseNotAlone | S::TooManyRecipients | S::NoRecipients | S::TooLong) => {
            CliError::Usage(e.to_string())
        }
        e => CliError::Io(e.to_string()),
    }
}

/// The v2 (or v1) opening error in the command line's words (`version`: the
/// file's format version when known: a version-1 file's chunk that does not
/// verify may be a wrong key, which version 2 rules out at its header).
pub fn from_open(e: skinny_seal::OpenError, asked: &GpuSelection, version: Option<u8>) -> CliError {
    use skinny_seal::OpenError as O;
    match e {
        O::Authentication { chunk } if version == Some(1) => {
            CliError::Io(format!("authentication failed: wrong key or damaged/tampered file (chunk {})", chunk + 1))
        }
        O::Read(e) => CliError::Io(format!("cannot read input: {}", reason(&e))),
        O::Write(e) => CliError::Output(e),
        O::OneGpu => one_gpu(asked),
        O::CpuOnly(s) => cpu_only(s),
        O::Engine(e) => EngineError::new(e, &OPEN, asked).into(),
        e @ O::ShortTagScheme(scheme) => CliError::Io(format!("{e} (--aead {})", scheme.short_name())),
        O::OtherScheme { expected, found } => CliError::Io(format!(
            "--aead {}: this file uses {} (--aead {}); nothing was written",
            expected.short_name(),
            found.short_name(),
            found.short_name()
        )),
        e @ O::ContextRequired => CliError::Io(format!("{e} (--context TEXT)")),
        e @ O::ContextNotBound => CliError::Io(format!("{e}; drop --context")),
        e @ O::V1NeedsRawKey => CliError::Io(format!("{e} (--key-file with the 16-byte key, or -K)")),
        e @ O::OutOfRange { .. } => CliError::Usage(format!("--offset/--length: {e}")),
        O::Stanza(e @ skinny_seal::StanzaError::PassphraseCost { .. }) => {
            CliError::Io(format!("{e}: set {}=N (MiB x passes) to open it", super::keys::MAX_WORK_ENV))
        }
        e => CliError::Io(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinny_exec::{Placement, Threads};
    use skinny_seal::{Job, SealOptions, SymmetricKey};

    /// Seals `data` as `job` places it.
    fn seal_on(
        job: &Job,
        data: &[u8],
        options: &SealOptions,
    ) -> Result<skinny_seal::SealReport, skinny_seal::SealError> {
        let key = SymmetricKey::from_bytes(&[1; 16]).unwrap();
        skinny_seal::seal_on(job, data, Vec::new(), &[&key], options)
    }

    #[test]
    fn gpu_refuses_small_chunks_in_one_line() {
        let gpu = Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All });
        let options = SealOptions { chunk_log2: 13, ..SealOptions::default() };
        let e = from_seal(seal_on(&gpu, &[0u8; 10], &options).unwrap_err(), &GpuSelection::All);
        let msg = e.to_string();
        assert_eq!(e.exit_code(), 2);
        assert!(msg.contains("16K") && msg.contains("--backend cpu") && !msg.contains('\n'), "{msg}");
        assert!(msg.contains("(--chunk-size is 8192 bytes)"), "{msg}");
    }

    #[test]
    fn errors_keep_their_words_and_exit_codes() {
        let cases = [
            (Engine::NoCuda, "--backend gpu: this skinny was built without CUDA support", 1),
            (Engine::GpuStart("no device".into()), "--backend gpu: no device", 1),
            (Engine::GpuSelection(GpuSelectionError::Zero), "--gpus 2: ", 2),
            (Engine::GpuChunkSize { chunk_log2: 12 }, "--backend gpu needs chunks of 16K or more", 2),
        ];
        for (e, starts, code) in cases {
            let e = CliError::from(EngineError::new(e, &SEAL, &GpuSelection::First(2)));
            assert!(e.to_string().starts_with(starts) && e.exit_code() == code, "{e}");
        }
    }

    #[test]
    fn auto_without_a_gpu_falls_back_to_the_cpu() {
        let present = {
            #[cfg(feature = "cuda")]
            {
                skinny_aead::gpu::GpuDevice::count().is_ok_and(|n| n > 0)
            }
            #[cfg(not(feature = "cuda"))]
            {
                false
            }
        };
        if present {
            return; // the fallback is for machines without one
        }
        // Told the input is large: the GPU is started with the run, fails,
        // and the run goes on on the CPU (auto) or fails (gpu).
        let (data, options) = (vec![7u8; 300_000], SealOptions::default());
        let auto = Job::new(Placement::default()).input_len(Some(8 << 30));
        let report = seal_on(&auto, &data, &options).unwrap();
        assert_eq!((report.chunks, report.placed.accelerator_units), (5, 0));
        let why = report.placed.why_cpu.map(|w| w.to_string()).unwrap_or_default();
        assert!(why.starts_with("no usable GPU"), "{why}");
        let gpu = Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All });
        let e = from_seal(seal_on(&gpu, &data, &options).unwrap_err(), &GpuSelection::All);
        let line = e.to_string();
        assert!(matches!(e, CliError::Gpu(_)) && line.starts_with("--backend gpu: ") && !line.contains('\n'), "{e}");
    }
}
