//! What the numbers were measured on: CPU, cores, GPUs and driver, the build
//! of the tool and its commit, and when.

use std::time::{SystemTime, UNIX_EPOCH};

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
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
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
        machine_line(self.version, self.commit, &self.cpu, self.cores, &gpus)
    }
}

/// `skinny VERSION (COMMIT), CPU, N CPUs; GPUS`: one machine and build.
pub fn machine_line(version: &str, commit: &str, cpu: &str, cores: usize, gpus: &str) -> String {
    format!("skinny {version} ({commit}), {cpu}, {cores} CPUs; {gpus}")
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
        info.gpu_found = false;
        assert_eq!(info.machine_line(), "skinny 0.1.0 (abc), C, 2 CPUs; no GPU");
        info.gpu_found = true;
        info.gpus = vec!["G0".into(), "G1".into()];
        assert_eq!(info.machine_line(), "skinny 0.1.0 (abc), C, 2 CPUs; G0; G1");
    }
}
