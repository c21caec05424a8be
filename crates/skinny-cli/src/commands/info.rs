//! `skinny info`: what this machine offers, and which backends can use it.

use crate::error::CliError;
use skinny_bulk::backend::{self, BackendChoice, Options};

/// Prints what this machine offers.
///
/// # Errors
/// None in practice: what cannot be found is reported as such.
pub fn run() -> Result<(), CliError> {
    println!("skinny {}", env!("CARGO_PKG_VERSION"));
    println!("cpu: {}", cpu_model().unwrap_or_else(|| "unknown model".into()));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("logical cores: {cores}");
    println!("cpu features: {}", cpu_features());
    match backend::describe_gpus() {
        Ok(gpus) if gpus.is_empty() => println!("gpus: none"),
        Ok(gpus) => {
            for (i, g) in gpus.iter().enumerate() {
                println!("gpu {i}: {g}");
            }
        }
        Err(reason) => println!("gpus: none usable ({reason})"),
    }
    println!("backends:");
    for choice in BackendChoice::ALL {
        let mut notice = None;
        match backend::open_with(choice, &Options::default(), &mut |m| notice = Some(m.to_string())) {
            Ok(b) => {
                let timing = if b.constant_time() {
                    "constant time"
                } else {
                    "NOT constant time (secret-dependent table lookups; keep it off shared machines)"
                };
                let note = notice.map(|n| format!("; {n}")).unwrap_or_default();
                println!("  {:<10} usable: {}; {timing}{note}", choice.name(), b.describe());
            }
            Err(e) => {
                let timing = if choice == BackendChoice::GpuPaper {
                    " (the paper's T-table kernel, NOT constant time)"
                } else {
                    ""
                };
                println!("  {:<10} not usable: {e}{timing}", choice.name());
            }
        }
    }
    Ok(())
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
