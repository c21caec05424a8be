//! What the numbers were measured on: CPU, cores, the instruction sets our CPU
//! paths choose by and the paths they chose, GPUs and driver, the build of the
//! tool and its commit, and when. Figures from one machine class never stand for
//! another (an AVX2 laptop is not a 16-core AVX-512 server), so every output
//! names its machine.

use serde::Serialize;
use skinny::hazmat::{bitsliced, single};
use skinny::CellWidth;
use std::time::{SystemTime, UNIX_EPOCH};

/// The instruction-set extensions the CPU paths are chosen by, as
/// `is_x86_feature_detected!` names them: the bitsliced paths need `avx2` or
/// `avx512f`; the one-block paths `ssse3`, or `avx512f`, `avx512vl` and
/// `gfni`, and for the whole-S-box lookups also `avx512bw` and `avx512vbmi`.
pub const PATH_ISA: [&str; 7] = ["ssse3", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "gfni"];

/// The CSV's last column: the machine in one cell, since a CSV has no header
/// facts and rows from two machines must not be mistaken for one.
pub const MACHINE_COLUMN: &str = "machine";

/// The build of the program that runs the bench, as it names itself: the
/// library cannot know the commit its caller was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Build {
    /// The program's version.
    pub version: &'static str,
    /// The git commit it was built from, or "unknown".
    pub commit: &'static str,
}

/// The machine and build, for the header of every output.
#[derive(Clone, Debug)]
pub struct SystemInfo {
    /// CPU model name (from /proc/cpuinfo), or "unknown".
    pub cpu: String,
    /// Logical CPUs this process may use.
    pub cores: usize,
    /// The extensions of [`PATH_ISA`] this CPU has (and the OS enables).
    pub isa: Vec<&'static str>,
    /// The CPU code this machine runs.
    pub paths: CpuPaths,
    /// One line per GPU (name, memory, driver...), or one line saying why none.
    pub gpus: Vec<String>,
    /// Whether `gpus` lists devices (false: it holds the reason there are none).
    pub gpu_found: bool,
    /// The program's version.
    pub version: &'static str,
    /// Git commit of the build, or "unknown".
    pub commit: &'static str,
    /// UTC time the run started, ISO 8601.
    pub started: String,
}

impl SystemInfo {
    /// Looks everything up.
    pub fn gather(build: Build) -> Self {
        let (gpus, gpu_found) = match skinny_bulk::backend::describe_gpus() {
            Ok(v) if !v.is_empty() => (v, true),
            Ok(_) => (vec!["none found".into()], false),
            Err(why) => (vec![format!("none usable: {why}")], false),
        };
        Self {
            cpu: cpu_model().unwrap_or_else(|| "unknown".into()),
            cores: cores(),
            isa: path_isa(),
            paths: CpuPaths::here(),
            gpus,
            gpu_found,
            version: build.version,
            commit: build.commit,
            started: utc_now(),
        }
    }

    /// The machine in one line, as the charts' caption names it.
    pub fn machine_line(&self) -> String {
        let gpus = if self.gpu_found { self.gpus.join("; ") } else { "no GPU".into() };
        machine_line(self.version, self.commit, &self.cpu, self.cores, &isa_words(&self.isa), &gpus)
    }

    /// The header's CPU line: model, cores, instruction sets, paths.
    pub fn cpu_line(&self) -> String {
        cpu_line(&self.cpu, self.cores, &self.isa, self.paths)
    }

    /// The CSV's [`MACHINE_COLUMN`] cell: `MODEL; N logical CPUs; ISA`.
    pub fn machine_cell(&self) -> String {
        format!("{}; {} logical CPUs; {}", self.cpu, self.cores, isa_words(&self.isa))
    }
}

/// The code a CPU runs, by name ([`bitsliced::Path::name`],
/// [`single::Path::name`]): what the bench measured, where the ISA alone would
/// leave it to be inferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CpuPaths {
    /// The bitsliced path (the `cpu` backend, the AEAD and many-message engines).
    pub bitsliced: &'static str,
    /// The one-block path for 8-bit cells (Romulus, the hashes, serial modes).
    pub single_block_8bit_cells: &'static str,
    /// The one-block path for 4-bit cells (SKINNY-64).
    pub single_block_4bit_cells: &'static str,
}

impl CpuPaths {
    /// The fastest paths this CPU has, as the library picks them.
    pub fn here() -> Self {
        Self {
            bitsliced: bitsliced::Path::best().name(),
            single_block_8bit_cells: single::Path::best_for(CellWidth::Byte).name(),
            single_block_4bit_cells: single::Path::best_for(CellWidth::Nibble).name(),
        }
    }
}

/// `skinny VERSION (COMMIT), CPU, N CPUs, ISA; GPUS`: one machine and build.
pub fn machine_line(version: &str, commit: &str, cpu: &str, cores: usize, isa: &str, gpus: &str) -> String {
    format!("skinny {version} ({commit}), {cpu}, {cores} CPUs, {isa}; {gpus}")
}

/// `CPU: MODEL, N logical CPUs; ISA: ... (not ...); paths: ...`.
pub fn cpu_line(cpu: &str, cores: usize, isa: &[&str], paths: CpuPaths) -> String {
    let missing: Vec<&str> = PATH_ISA.into_iter().filter(|f| !isa.contains(f)).collect();
    let not = if missing.is_empty() { String::new() } else { format!(" (not {})", missing.join(" ")) };
    format!(
        "CPU: {cpu}, {cores} logical CPUs; ISA: {}{not}; paths: bitsliced {}, one block {} (8-bit cells) / {} (4-bit cells)",
        isa_words(isa),
        paths.bitsliced,
        paths.single_block_8bit_cells,
        paths.single_block_4bit_cells
    )
}

/// This machine's [`cpu_line`], for outputs without a build or GPU to name.
pub fn cpu_line_here() -> String {
    cpu_line(&cpu_model().unwrap_or_else(|| "unknown".into()), cores(), &path_isa(), CpuPaths::here())
}

/// The extensions as words, or what stands for none.
fn isa_words(isa: &[&str]) -> String {
    if isa.is_empty() {
        "none of ssse3, avx2, avx512*, gfni".into()
    } else {
        isa.join(" ")
    }
}

/// Logical CPUs this process may use.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Which of [`PATH_ISA`] this CPU has, in that order.
#[cfg(target_arch = "x86_64")]
fn path_isa() -> Vec<&'static str> {
    let has = [
        std::arch::is_x86_feature_detected!("ssse3"),
        std::arch::is_x86_feature_detected!("avx2"),
        std::arch::is_x86_feature_detected!("avx512f"),
        std::arch::is_x86_feature_detected!("avx512bw"),
        std::arch::is_x86_feature_detected!("avx512vl"),
        std::arch::is_x86_feature_detected!("avx512vbmi"),
        std::arch::is_x86_feature_detected!("gfni"),
    ];
    PATH_ISA.into_iter().zip(has).filter_map(|(f, h)| h.then_some(f)).collect()
}

/// Elsewhere only the portable paths run.
#[cfg(not(target_arch = "x86_64"))]
fn path_isa() -> Vec<&'static str> {
    Vec::new()
}

/// The first `model name` in /proc/cpuinfo (Linux); None elsewhere.
fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == "model name").then(|| v.trim().to_string())
        })
        .filter(|s| !s.is_empty())
}

/// Now, UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    iso8601(secs)
}

/// Seconds since the epoch as ISO 8601 UTC (days to civil date: Hinnant's method).
fn iso8601(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_798_761_599), "2026-12-31T23:59:59Z");
    }

    #[test]
    fn machine_lines() {
        let build = Build { version: "0.1.0", commit: "abc" };
        let mut info = SystemInfo::gather(build);
        info.cpu = "C".into();
        info.cores = 2;
        info.isa = vec!["ssse3", "avx2"];
        info.gpu_found = false;
        assert_eq!(info.machine_line(), "skinny 0.1.0 (abc), C, 2 CPUs, ssse3 avx2; no GPU");
        info.gpu_found = true;
        info.gpus = vec!["G0".into(), "G1".into()];
        assert_eq!(info.machine_line(), "skinny 0.1.0 (abc), C, 2 CPUs, ssse3 avx2; G0; G1");
        assert_eq!(info.machine_cell(), "C; 2 logical CPUs; ssse3 avx2");
        info.isa.clear();
        assert_eq!(info.machine_cell(), "C; 2 logical CPUs; none of ssse3, avx2, avx512*, gfni");
    }

    #[test]
    fn the_cpu_line_names_what_is_there_what_is_not_and_the_paths() {
        let paths =
            CpuPaths { bitsliced: "avx2", single_block_8bit_cells: "ssse3-split", single_block_4bit_cells: "ssse3" };
        assert_eq!(
            cpu_line("AMD EPYC", 2, &["ssse3", "avx2"], paths),
            "CPU: AMD EPYC, 2 logical CPUs; ISA: ssse3 avx2 (not avx512f avx512bw avx512vl avx512vbmi gfni); \
             paths: bitsliced avx2, one block ssse3-split (8-bit cells) / ssse3 (4-bit cells)"
        );
        assert!(
            cpu_line("X", 16, &PATH_ISA, paths).contains("ISA: ssse3 avx2 avx512f avx512bw avx512vl avx512vbmi gfni; ")
        );
    }

    /// What this machine reports agrees with the library's own choice of path:
    /// a bitsliced path needs its extension, and the ISA list follows
    /// [`PATH_ISA`]'s order.
    #[test]
    fn this_machine_is_described_consistently() {
        let info = SystemInfo::gather(Build { version: "0", commit: "t" });
        let order: Vec<usize> = info.isa.iter().map(|f| PATH_ISA.iter().position(|p| p == f).unwrap()).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{:?}", info.isa);
        match info.paths.bitsliced {
            "avx512" => assert!(info.isa.contains(&"avx512f")),
            "avx2" => assert!(info.isa.contains(&"avx2") && !info.isa.contains(&"avx512f")),
            p => assert_eq!(p, "portable-u64"),
        }
        if info.paths.single_block_8bit_cells == "avx512-vbmi" {
            assert!(info.isa.contains(&"avx512vbmi") && info.isa.contains(&"gfni"));
        }
        assert!(info.cpu_line().starts_with(&format!("CPU: {}, {} logical CPUs; ISA: ", info.cpu, info.cores)));
    }
}
