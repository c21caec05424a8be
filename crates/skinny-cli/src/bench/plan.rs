//! What a bench run measures: the arguments turned into a checked plan (variant,
//! modes, directions, sizes, backends, runs), before anything is timed or written.

use super::measure::Timing;
use skinny::Variant;
use skinny_bulk::backend::BackendChoice;
use skinny_bulk::mode::{Direction, Mode};

/// The paper's smallest and largest sizes: 16 B doubling to 64 MiB (23 sizes).
pub const PAPER_MIN: usize = 16;
/// See [`PAPER_MIN`].
pub const PAPER_MAX: usize = 64 << 20;
/// The paper's runs per size.
pub const PAPER_RUNS: usize = 10;

/// A checked benchmark plan.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The cipher.
    pub variant: Variant,
    /// ECB and/or CTR.
    pub modes: Vec<Mode>,
    /// Encrypt, and decrypt with `--decrypt`.
    pub directions: Vec<Direction>,
    /// Sizes in bytes, ascending.
    pub sizes: Vec<usize>,
    /// Backends in the order asked.
    pub backends: Vec<BackendChoice>,
    /// Timed runs per size (after warm-up).
    pub runs: usize,
    /// The timings of the GPU backends (CPU backends have end to end only).
    pub timings: Vec<Timing>,
    /// Stop a measurement after this many seconds of timed runs (at least
    /// [`MIN_RUNS_UNDER_BUDGET`] runs): keeps slow backends at huge sizes bounded.
    pub max_time_per_size: Option<f64>,
    /// Each timed run lasts at least this long: tiny operations are repeated
    /// inside one run and the time divided.
    pub min_run_secs: f64,
    /// Worker threads for `cpu`.
    pub threads: Option<usize>,
    /// GPUs of the GPU backends and `auto`.
    pub gpus: skinny_bulk::backend::GpuSelection,
}

/// Runs kept even when `--max-time-per-size` is exceeded, so a median exists.
pub const MIN_RUNS_UNDER_BUDGET: usize = 3;

/// Parses a size: a number with an optional binary suffix (B, K/KiB, M/MiB, G/GiB;
/// KB/MB/GB are read as binary too, as the paper's "64 MB" is 2^26 bytes).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, suffix) = t.split_at(split);
    let n: usize = num.parse().map_err(|_| format!("bad size '{s}' (expected e.g. 16, 4K, 64MiB)"))?;
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("bad size suffix in '{s}' (use B, K, M or G; binary multiples)")),
    };
    n.checked_mul(1usize << shift).ok_or_else(|| format!("size '{s}' is too large"))
}

/// Parses `--sizes`: `MIN..MAX` (doubling from MIN while <= MAX), one size, or a
/// comma list. Every size must be a positive whole number of blocks.
pub fn parse_sizes(s: &str, block: usize) -> Result<Vec<usize>, String> {
    let mut sizes = if let Some((lo, hi)) = s.split_once("..") {
        let (lo, hi) = (parse_size(lo)?, parse_size(hi)?);
        if lo == 0 || lo > hi {
            return Err(format!("bad size range '{s}' (expected MIN..MAX with 0 < MIN <= MAX)"));
        }
        let mut v = Vec::new();
        let mut n = lo;
        while n <= hi {
            v.push(n);
            match n.checked_mul(2) {
                Some(m) => n = m,
                None => break,
            }
        }
        v
    } else {
        s.split(',').map(parse_size).collect::<Result<Vec<_>, _>>()?
    };
    sizes.sort_unstable();
    sizes.dedup();
    if let Some(bad) = sizes.iter().find(|&&n| n == 0 || n % block != 0) {
        return Err(format!("size {bad} is not a positive whole number of {block}-byte blocks"));
    }
    const LIMIT: usize = 4 << 30;
    if sizes.iter().any(|&n| n > LIMIT) {
        return Err("sizes above 4 GiB are not supported".into());
    }
    Ok(sizes)
}

/// Human size, binary units as the paper's axis: `16 B`, `4 KiB`, `64 MiB`.
pub fn size_label(n: usize) -> String {
    const UNITS: [(usize, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (u, name) in UNITS {
        if n >= u && n.is_multiple_of(u) {
            return format!("{} {name}", n / u);
        }
    }
    format!("{n} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_range_has_23_sizes() {
        let v = parse_sizes("16..64M", 16).unwrap();
        assert_eq!(v.len(), 23);
        assert_eq!((v[0], v[22]), (PAPER_MIN, PAPER_MAX));
    }

    #[test]
    fn sizes_parse_and_refuse() {
        assert_eq!(parse_sizes("4k", 16).unwrap(), vec![4096]);
        assert_eq!(parse_sizes("1KiB,16,16", 16).unwrap(), vec![16, 1024]);
        assert_eq!(parse_sizes("8..40", 8).unwrap(), vec![8, 16, 32]);
        assert!(parse_sizes("8", 16).is_err());
        assert!(parse_sizes("0..16", 16).is_err());
        assert!(parse_sizes("64..16", 16).is_err());
        assert!(parse_sizes("12x", 16).is_err());
        assert!(parse_sizes("", 16).is_err());
    }

    #[test]
    fn labels() {
        assert_eq!(size_label(16), "16 B");
        assert_eq!(size_label(1024), "1 KiB");
        assert_eq!(size_label(64 << 20), "64 MiB");
        assert_eq!(size_label(1536), "1536 B");
    }
}
