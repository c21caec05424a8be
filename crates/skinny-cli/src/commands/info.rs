//! `skinny info`: what this machine offers, and which backends can use it.

use crate::error::CliError;
use skinny_bulk::backend::{self, BackendChoice, Options};
use std::io::{self, Write};

/// What stops `info`: only writing stdout can fail, since what cannot be
/// found is reported as such. Turned into a [`CliError`] where it leaves the
/// command.
#[derive(Debug, thiserror::Error)]
pub enum InfoError {
    /// Writing stdout failed (a closed pipe, a full disk).
    #[error("cannot write output")]
    Output(#[source] io::Error),
}

impl From<InfoError> for CliError {
    fn from(e: InfoError) -> Self {
        match e {
            // The top level words a broken pipe and a full disk its own way.
            InfoError::Output(e) => CliError::Output(e),
        }
    }
}

/// Prints what this machine offers.
///
/// # Errors
/// Writing stdout failed (a closed pipe, a full disk).
pub fn run() -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    Ok(report(&mut out).and_then(|()| out.flush()).map_err(InfoError::Output)?)
}

fn report(out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "skinny {}", crate::args::VERSION)?;
    writeln!(out, "cpu: {}", cpu_model().unwrap_or_else(|| "unknown model".into()))?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    writeln!(out, "logical cores: {cores}")?;
    writeln!(out, "cpu features: {}", cpu_features())?;
    writeln!(out, "bitsliced paths: {}", bitsliced_paths())?;
    writeln!(out, "single-block paths: {}", single_paths())?;
    let cuda = if cfg!(feature = "cuda") {
        "built in (the CUDA driver is loaded at run time)"
    } else {
        "not built in (this binary was built without the `cuda` feature)"
    };
    writeln!(out, "gpu support: {cuda}")?;
    let gpus = backend::describe_gpus();
    let gpu_usable = gpus.as_ref().is_ok_and(|g| !g.is_empty());
    match gpus {
        Ok(gpus) if gpus.is_empty() => writeln!(out, "gpus: none")?,
        Ok(gpus) => {
            writeln!(out, "gpus: {} (the gpu backends and auto use all unless --gpus says otherwise)", gpus.len())?;
            for (i, g) in gpus.iter().enumerate() {
                // The library's lines start "GPU i: ".
                let g = g.strip_prefix(&format!("GPU {i}: ")).unwrap_or(g);
                writeln!(out, "gpu {i}: {g}")?;
            }
        }
        Err(reason) => writeln!(out, "gpus: none usable ({reason})")?,
    }
    writeln!(out, "backends:")?;
    // The CPU backend (a thread pool) opened once: its own line, and auto's
    // when auto has no GPU.
    let cpu = backend::open(BackendChoice::Cpu, &Options::default());
    let cpu_described = cpu.as_ref().map_or_else(|e| e.to_string(), |c| c.describe());
    let mut cpu = Some(cpu);
    for choice in BackendChoice::ALL {
        let opened = match cpu.take_if(|_| choice == BackendChoice::Cpu) {
            Some(cpu) => cpu,
            None => backend::open(choice, &Options::default()),
        };
        match opened {
            // Without a usable GPU, auto is the CPU backend: say so rather
            // than describe GPUs that are not there.
            Ok(b) if choice == BackendChoice::Auto && !gpu_usable => {
                let cpu = &cpu_described;
                writeln!(
                    out,
                    "  {:<10} usable: {cpu} (no usable GPU here, so the CPU does all the work); {}",
                    choice.name(),
                    timing(b.constant_time())
                )?;
            }
            Ok(b) => {
                writeln!(out, "  {:<10} usable: {}; {}", choice.name(), b.describe(), timing(b.constant_time()))?;
            }
            Err(e) => {
                let timing = if choice == BackendChoice::GpuPaper {
                    " (the paper's T-table kernel, NOT constant time)"
                } else {
                    ""
                };
                writeln!(out, "  {:<10} not usable: {e}{timing}", choice.name())?;
            }
        }
    }
    Ok(())
}

fn timing(constant: bool) -> &'static str {
    if constant {
        "constant time"
    } else {
        "NOT constant time (secret-dependent table lookups; keep it off shared machines)"
    }
}

/// Each bitsliced path, whether this CPU runs it, and the one in use.
fn bitsliced_paths() -> String {
    use skinny::hazmat::bitsliced::Path;
    let each: Vec<String> = Path::ALL
        .into_iter()
        .map(|p| format!("{} {}", p.name(), if p.is_available() { "yes" } else { "no (not on this CPU)" }))
        .collect();
    format!("{}; in use: {}", each.join(", "), Path::best().name())
}

/// Each single-block path and whether this CPU runs it.
fn single_paths() -> String {
    use skinny::hazmat::single::Path;
    let each: Vec<String> = Path::ALL
        .into_iter()
        .map(|p| format!("{} {}", p.name(), if p.is_available() { "yes" } else { "no" }))
        .collect();
    each.join(", ")
}

/// The CPU's model name from /proc/cpuinfo (Linux), if there is one.
fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| matches!(k.trim(), "model name" | "Model" | "cpu model" | "Hardware"))
        .map(|(_, v)| v.trim().to_string())
}

/// The CPU features that matter for bitsliced and vector code, detected at run time.
#[cfg(target_arch = "x86_64")]
fn cpu_features() -> String {
    let mut found = Vec::new();
    macro_rules! detect {
        ($($f:tt),*) => {$(
            if std::arch::is_x86_feature_detected!($f) {
                found.push($f);
            }
        )*};
    }
    detect!(
        "sse2", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl",
        "gfni", "vaes"
    );
    if found.is_empty() {
        "none detected".into()
    } else {
        found.join(" ")
    }
}

/// The CPU features that matter for vector code, detected at run time.
#[cfg(target_arch = "aarch64")]
fn cpu_features() -> String {
    let mut found = Vec::new();
    macro_rules! detect {
        ($($f:tt),*) => {$(
            if std::arch::is_aarch64_feature_detected!($f) {
                found.push($f);
            }
        )*};
    }
    detect!("neon", "aes", "sve", "sve2");
    if found.is_empty() {
        "none detected".into()
    } else {
        found.join(" ")
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn cpu_features() -> String {
    "not detected on this architecture".into()
}
