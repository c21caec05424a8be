//! What the ratios were measured on: the CPU, the instruction sets that decide
//! which paths exist, the cores, and the commit the guard was built from.

/// The machine and build a run describes.
#[derive(Clone, Debug)]
pub struct Machine {
    /// `model name` from /proc/cpuinfo ("unknown" where there is none).
    pub cpu_model: String,
    /// `cpu family` and `model` from /proc/cpuinfo, e.g. "25/1" (a VM's model
    /// name may say no more than "AMD EPYC"; these name the generation).
    pub cpu_family_model: String,
    /// (flag, present) for each instruction set a path depends on.
    pub isa: Vec<(&'static str, bool)>,
    /// Logical CPUs this process may use.
    pub cores: usize,
    /// `git rev-parse --short HEAD` at build time, or "unknown".
    pub commit: &'static str,
}

impl Machine {
    pub fn probe() -> Self {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        // The first processor's field `key` (keys are padded with tabs).
        let field = |key: &str| {
            info.lines()
                .filter_map(|l| l.split_once(':'))
                .find(|(k, _)| k.trim() == key)
                .map_or_else(|| "unknown".to_string(), |(_, v)| v.trim().to_string())
        };
        Self {
            cpu_model: field("model name"),
            cpu_family_model: format!("{}/{}", field("cpu family"), field("model")),
            isa: isa(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            commit: env!("SKINNY_GIT_COMMIT"),
        }
    }

    /// One line for the top of the table.
    pub fn summary(&self) -> String {
        let flags: Vec<&str> = self.isa.iter().filter(|(_, on)| *on).map(|(name, _)| *name).collect();
        format!(
            "{} (family/model {}) | {} cores | {} | commit {}",
            self.cpu_model,
            self.cpu_family_model,
            self.cores,
            if flags.is_empty() { "no SIMD flags".to_string() } else { flags.join(" ") },
            self.commit
        )
    }
}

#[cfg(target_arch = "x86_64")]
fn isa() -> Vec<(&'static str, bool)> {
    vec![
        ("ssse3", std::is_x86_feature_detected!("ssse3")),
        ("avx2", std::is_x86_feature_detected!("avx2")),
        ("avx512f", std::is_x86_feature_detected!("avx512f")),
        ("avx512vl", std::is_x86_feature_detected!("avx512vl")),
        ("avx512vbmi", std::is_x86_feature_detected!("avx512vbmi")),
        ("gfni", std::is_x86_feature_detected!("gfni")),
    ]
}

#[cfg(not(target_arch = "x86_64"))]
fn isa() -> Vec<(&'static str, bool)> {
    Vec::new()
}
