//! `skinny encrypt` and `skinny decrypt`: a stream through a mode of operation,
//! in fixed-size chunks so memory does not grow with the input.
//!
//! Everything the user gave is checked before any file is opened, and the input
//! before the output is created; the output is committed only on success (see
//! [`crate::files`]).

use crate::cli::CryptArgs;
use crate::error::CliError;
use crate::files::{Sink, Source};
use crate::keys;
use crate::progress;
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Processor};

/// Bytes read per step on the CPU backends: large enough that every core gets
/// many of the backend's 64 KiB pieces per call, small enough to stay in the
/// last-level cache's neighbourhood and keep memory use low (input and output
/// buffers together are about twice this).
const CHUNK_BYTES_CPU: usize = 4 << 20;

/// Bytes read per step when a GPU may do the work: kernels need large launches
/// to hide the transfers and launch cost, so hand them 64 MiB at a time.
const CHUNK_BYTES_GPU: usize = 64 << 20;

/// `auto` sends calls smaller than this to the CPU even with a GPU: a chunk this
/// small never needed the GPU, so its absence is not worth a notice.
const AUTO_GPU_MIN_BYTES: u64 = skinny_bulk::backend::auto::GPU_MIN_BYTES as u64;

/// Everything `encrypt`/`decrypt` needs, checked.
struct Plan {
    variant: Variant,
    mode: Mode,
    dir: Direction,
    pad: bool,
    backend: BackendChoice,
    iv: Option<Vec<u8>>,
}

/// Runs encrypt or decrypt.
///
/// # Errors
/// One line for the user: bad arguments, unreadable input, unwritable output,
/// bad padding, a backend failure.
pub fn run(a: &mut CryptArgs, dir: Direction) -> Result<(), CliError> {
    let (variant, mode, backend_choice) = parse_names(a)?;
    let key = keys::load_key(variant, a.key.as_deref(), a.key_file.as_deref());
    // Our copy of `--key` is no longer needed (the process's argv is beyond reach:
    // `--key-file` keeps the key out of `ps` as well).
    if let Some(hex) = a.key.as_mut() {
        zeroize::Zeroize::zeroize(hex);
    }
    let key = key?;
    let a = &*a;
    let plan = check_options(a, variant, mode, dir, backend_choice)?;
    let cipher = Skinny::new(plan.variant, &key).map_err(|e| CliError::Usage(e.to_string()))?;
    drop(key);

    let mut source = Source::open(a.input.as_deref())?;
    check_length_up_front(&plan, source.len())?;

    let mut fallback_notice = None;
    let backend = backend::open_with(plan.backend, &Options { threads: a.threads }, &mut |m| {
        fallback_notice = Some(m.to_string());
    })
    .map_err(|e| CliError::Io(format!("cannot use backend {}: {e}", plan.backend)))?;
    if !backend.supports(plan.variant) {
        return Err(skinny_bulk::Error::Unsupported { backend: backend.name(), variant: plan.variant }.into());
    }
    // The output is created last, once everything else is known to be usable.
    let mut sink = Sink::open(a.output.as_deref(), &source, a.force)?;
    let on_gpu = plan.mode.is_parallel(dir)
        && (matches!(plan.backend, BackendChoice::Gpu | BackendChoice::GpuPaper)
            || (plan.backend == BackendChoice::Auto && fallback_notice.is_none()));
    let chunk = if on_gpu { CHUNK_BYTES_GPU } else { CHUNK_BYTES_CPU };

    // `auto` without a GPU says so once, and only when the GPU would have done
    // the work: a parallel mode and a chunk large enough for `auto` to send it
    // there. Small inputs never needed a GPU and stay silent.
    let mut pending_notice = fallback_notice.filter(|_| plan.mode.is_parallel(dir) && !a.quiet);

    let mut processor = Processor::new(&cipher, plan.mode, plan.dir, plan.iv.as_deref(), plan.pad, backend.as_ref())?;
    let bar = progress::bar(source.len(), a.quiet);
    let result = (|| {
        let mut input = vec![0u8; chunk];
        let mut output = Vec::with_capacity(chunk + 2 * plan.variant.block_bytes());
        loop {
            let n = source.read_full(&mut input)?;
            if n == 0 {
                break;
            }
            if n as u64 >= AUTO_GPU_MIN_BYTES {
                if let Some(m) = pending_notice.take() {
                    bar.suspend(|| eprintln!("skinny: {m}"));
                }
            }
            processor.update(&input[..n], &mut output)?;
            sink.write_all(&output)?;
            output.clear();
            bar.inc(n as u64);
            if n < input.len() {
                break;
            }
        }
        processor.finish(&mut output)?;
        sink.write_all(&output)?;
        sink.commit()
    })();
    bar.finish_and_clear();
    result
}

/// The cipher, mode and backend, as the library types. clap already refused
/// unknown names (exit 2), so this cannot fail; the `Result` stays so callers
/// need not change.
fn parse_names(a: &CryptArgs) -> Result<(Variant, Mode, BackendChoice), CliError> {
    Ok((a.cipher.into(), a.mode.into(), a.backend.into()))
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
        return Err(CliError::Usage(format!("--no-pad applies only to ecb and cbc ({mode} never pads)")));
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
