//! Sizes as people write them (`16`, `4K`, `64MiB`, `16..64M`) and as the
//! paper's axis shows them (`16 B`, `4 KiB`, `64 MiB`).

/// A size or a list of sizes that cannot be measured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SizeError {
    /// Not a number with an optional suffix.
    #[error("bad size '{0}' (expected e.g. 16, 4K, 64MiB)")]
    Malformed(String),
    /// A suffix other than B, K, M or G.
    #[error("bad size suffix in '{0}' (use B, K, M or G; binary multiples)")]
    Suffix(String),
    /// More bytes than a `usize` holds.
    #[error("size '{0}' is too large")]
    Overflow(String),
    /// `MIN..MAX` with MIN zero or above MAX.
    #[error("bad size range '{0}' (expected MIN..MAX with 0 < MIN <= MAX)")]
    Range(String),
    /// Zero, or not a whole number of blocks.
    #[error("size {size} is not a positive whole number of {block}-byte blocks")]
    NotWholeBlocks {
        /// The size, bytes.
        size: usize,
        /// The cipher's block, bytes.
        block: usize,
    },
    /// Above [`MAX_SIZE`].
    #[error("sizes above 4 GiB are not supported")]
    TooLarge,
}

/// The largest size measured: 4 GiB.
pub const MAX_SIZE: usize = 4 << 30;

/// Parses a size: a number with an optional binary suffix (B, K/KiB, M/MiB, G/GiB;
/// KB/MB/GB are read as binary too, as the paper's "64 MB" is 2^26 bytes).
///
/// # Errors
/// Not a number, an unknown suffix, or too large for a `usize`.
pub fn parse_size(s: &str) -> Result<usize, SizeError> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, suffix) = t.split_at(split);
    let n: usize = num.parse().map_err(|_| SizeError::Malformed(s.to_string()))?;
    let shift = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(SizeError::Suffix(s.to_string())),
    };
    n.checked_mul(1usize << shift).ok_or_else(|| SizeError::Overflow(s.to_string()))
}

/// Parses a list of sizes: `MIN..MAX` (doubling from MIN while <= MAX), one
/// size, or a comma list; sorted, each once. Every size must be a positive
/// whole number of `block`-byte blocks, at most [`MAX_SIZE`].
///
/// # Errors
/// See [`SizeError`].
pub fn parse_sizes(s: &str, block: usize) -> Result<Vec<usize>, SizeError> {
    let mut sizes = if let Some((lo, hi)) = s.split_once("..") {
        let (lo, hi) = (parse_size(lo)?, parse_size(hi)?);
        if lo == 0 || lo > hi {
            return Err(SizeError::Range(s.to_string()));
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
    if let Some(&bad) = sizes.iter().find(|&&n| n == 0 || n % block != 0) {
        return Err(SizeError::NotWholeBlocks { size: bad, block });
    }
    if sizes.iter().any(|&n| n > MAX_SIZE) {
        return Err(SizeError::TooLarge);
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
        assert_eq!((v[0], v[22]), (16, 64 << 20));
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
        assert_eq!(parse_sizes("8G", 16), Err(SizeError::TooLarge));
        assert_eq!(
            parse_sizes("8", 16).unwrap_err().to_string(),
            "size 8 is not a positive whole number of 16-byte blocks"
        );
    }

    #[test]
    fn labels() {
        assert_eq!(size_label(16), "16 B");
        assert_eq!(size_label(1024), "1 KiB");
        assert_eq!(size_label(64 << 20), "64 MiB");
        assert_eq!(size_label(1536), "1536 B");
    }
}
