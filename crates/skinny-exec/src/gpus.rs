//! Which GPUs a run may use: all (the default), the first N, or a list of
//! ordinals. Parsing and resolution are pure, so they are checked without a
//! GPU; opening a GPU is the device crate's business.

use std::fmt;
use std::str::FromStr;

/// Which GPUs a run spreads its work over (the GPU side of a [`crate::Placement`]).
///
/// Written `all`, `N` (the first N GPUs) or a list of ordinals with at least
/// one comma (`0,2`; one given GPU: `1,`). Ordinals are the driver's
/// (`nvidia-smi`'s, after `CUDA_VISIBLE_DEVICES`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum GpuSelection {
    /// Every GPU the driver sees.
    #[default]
    All,
    /// The first N (at least one).
    First(usize),
    /// These ordinals, in this order, each once.
    List(Vec<usize>),
}

/// A GPU selection that cannot be parsed or does not fit the machine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GpuSelectionError {
    /// Neither `all`, a count, nor a list of ordinals.
    #[error("invalid GPU choice {0:?} (expected all, a count such as 2, or GPU numbers such as 0,2)")]
    Invalid(String),
    /// A count of zero.
    #[error("a GPU count must be at least 1")]
    Zero,
    /// An ordinal listed twice.
    #[error("GPU {0} is listed twice")]
    Duplicate(usize),
    /// More GPUs than the machine has.
    #[error("{asked} GPUs asked for, the driver sees {count}")]
    TooMany {
        /// The count asked for.
        asked: usize,
        /// GPUs the driver sees.
        count: usize,
    },
    /// An ordinal beyond the machine's GPUs.
    #[error("no GPU number {ordinal} (the driver sees {count}: 0 to {})", count.saturating_sub(1))]
    NoSuchGpu {
        /// The ordinal asked for.
        ordinal: usize,
        /// GPUs the driver sees.
        count: usize,
    },
    /// The driver sees no GPU.
    #[error("the NVIDIA driver sees no GPU")]
    NoGpu,
}

impl GpuSelection {
    /// The ordinals this selects on a machine with `count` GPUs.
    ///
    /// # Errors
    /// No GPU at all, more asked for than there are, an ordinal out of range.
    pub fn resolve(&self, count: usize) -> Result<Vec<usize>, GpuSelectionError> {
        if count == 0 {
            return Err(GpuSelectionError::NoGpu);
        }
        match self {
            GpuSelection::All => Ok((0..count).collect()),
            GpuSelection::First(0) => Err(GpuSelectionError::Zero),
            GpuSelection::First(n) if *n > count => Err(GpuSelectionError::TooMany { asked: *n, count }),
            GpuSelection::First(n) => Ok((0..*n).collect()),
            GpuSelection::List(list) => {
                if let Some(&ordinal) = list.iter().find(|&&o| o >= count) {
                    return Err(GpuSelectionError::NoSuchGpu { ordinal, count });
                }
                Ok(list.clone())
            }
        }
    }
}

impl GpuSelection {
    /// The selection in words, for reports: "every GPU", "GPU 0", "the first
    /// 2 GPUs", "GPUs 0,2".
    pub fn describe(&self) -> String {
        match self {
            GpuSelection::All => "every GPU".to_string(),
            GpuSelection::First(1) => "GPU 0".to_string(),
            GpuSelection::First(n) => format!("the first {n} GPUs"),
            GpuSelection::List(l) if l.len() == 1 => format!("GPU {}", l[0]),
            GpuSelection::List(l) => format!("GPUs {}", l.iter().map(usize::to_string).collect::<Vec<_>>().join(",")),
        }
    }
}

impl FromStr for GpuSelection {
    type Err = GpuSelectionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let invalid = || GpuSelectionError::Invalid(s.to_string());
        if t.eq_ignore_ascii_case("all") {
            return Ok(GpuSelection::All);
        }
        let number = |p: &str| -> Result<usize, GpuSelectionError> {
            let p = p.trim();
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(invalid());
            }
            p.parse().map_err(|_| invalid())
        };
        if !t.contains(',') {
            return match number(t)? {
                0 => Err(GpuSelectionError::Zero),
                n => Ok(GpuSelection::First(n)),
            };
        }
        let parts: Vec<&str> = t.split(',').collect();
        // One trailing comma marks a list of one (`1,`); empty items otherwise are errors.
        let items = match parts.split_last() {
            Some((last, rest)) if last.trim().is_empty() && rest.len() == 1 => rest,
            _ => &parts[..],
        };
        let mut list = Vec::with_capacity(items.len());
        for p in items {
            let o = number(p)?;
            if list.contains(&o) {
                return Err(GpuSelectionError::Duplicate(o));
            }
            list.push(o);
        }
        Ok(GpuSelection::List(list))
    }
}

impl fmt::Display for GpuSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuSelection::All => f.write_str("all"),
            GpuSelection::First(n) => write!(f, "{n}"),
            GpuSelection::List(l) if l.len() == 1 => write!(f, "{},", l[0]),
            GpuSelection::List(l) => f.write_str(&l.iter().map(usize::to_string).collect::<Vec<_>>().join(",")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_counts_and_lists() {
        assert_eq!("all".parse(), Ok(GpuSelection::All));
        assert_eq!(" ALL ".parse(), Ok(GpuSelection::All));
        assert_eq!("2".parse(), Ok(GpuSelection::First(2)));
        assert_eq!("0,2".parse(), Ok(GpuSelection::List(vec![0, 2])));
        assert_eq!("3, 1".parse(), Ok(GpuSelection::List(vec![3, 1])));
        assert_eq!("1,".parse(), Ok(GpuSelection::List(vec![1])));
    }

    #[test]
    fn refuses_what_is_not_a_selection() {
        for bad in ["", "none", "-1", "1.5", "0x2", ",", ",1", "1,,2", "1,2,", "+2", "1 2"] {
            assert!(matches!(bad.parse::<GpuSelection>(), Err(GpuSelectionError::Invalid(_))), "{bad:?}");
        }
        assert_eq!("0".parse::<GpuSelection>(), Err(GpuSelectionError::Zero));
        assert_eq!("0,1,0".parse::<GpuSelection>(), Err(GpuSelectionError::Duplicate(0)));
        assert!(matches!("99999999999999999999999".parse::<GpuSelection>(), Err(GpuSelectionError::Invalid(_))));
    }

    #[test]
    fn resolves_against_the_machine() {
        assert_eq!(GpuSelection::All.resolve(4), Ok(vec![0, 1, 2, 3]));
        assert_eq!(GpuSelection::First(2).resolve(4), Ok(vec![0, 1]));
        assert_eq!(GpuSelection::List(vec![2, 0]).resolve(4), Ok(vec![2, 0]));
        assert_eq!(GpuSelection::First(5).resolve(4), Err(GpuSelectionError::TooMany { asked: 5, count: 4 }));
        assert_eq!(GpuSelection::List(vec![4]).resolve(4), Err(GpuSelectionError::NoSuchGpu { ordinal: 4, count: 4 }));
        assert_eq!(GpuSelection::All.resolve(0), Err(GpuSelectionError::NoGpu));
        assert_eq!(GpuSelection::First(0).resolve(1), Err(GpuSelectionError::Zero));
    }

    #[test]
    fn displays_as_parsed() {
        for s in ["all", "2", "0,2", "1,"] {
            assert_eq!(s.parse::<GpuSelection>().unwrap().to_string(), s);
        }
    }
}
