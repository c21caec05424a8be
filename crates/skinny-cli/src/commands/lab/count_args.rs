//! The lab's values on the command line: counts (`1e9`, `2^30`, `1_000`),
//! shards (`I/N`) and cell patterns (`--cells`).

use skinny_lab::{CellPattern, Shard};

/// `--shard I/N`.
#[derive(Clone, Copy, Debug)]
pub struct ShardArg(pub(super) Shard);

pub(super) fn parse_shard(s: &str) -> Result<ShardArg, String> {
    let (i, n) = s.trim().split_once('/').ok_or("expected I/N, such as 0/8")?;
    let i: u64 = i.trim().parse().map_err(|_| "I in I/N must be a whole number")?;
    let n: u64 = n.trim().parse().map_err(|_| "N in I/N must be a whole number")?;
    Shard::new(i, n).map(ShardArg).map_err(|_| format!("shard {i}/{n}: need N >= 1 and 0 <= I < N"))
}

/// A count: decimal, `1e9`-style or `2^30`-style, at least 1.
pub(super) fn parse_count(s: &str) -> Result<u64, String> {
    let s = s.trim().replace('_', "");
    let v = if let Some((b, e)) = s.split_once('^') {
        let b: u64 = b.parse().map_err(|_| format!("bad base in {s}"))?;
        let e: u32 = e.parse().map_err(|_| format!("bad exponent in {s}"))?;
        b.checked_pow(e).ok_or_else(|| format!("{s} is too large"))?
    } else if let Some((m, e)) = s.split_once(['e', 'E']) {
        let m: u64 = m.parse().map_err(|_| format!("bad mantissa in {s}"))?;
        let e: u32 = e.parse().map_err(|_| format!("bad exponent in {s}"))?;
        10u64.checked_pow(e).and_then(|p| p.checked_mul(m)).ok_or_else(|| format!("{s} is too large"))?
    } else {
        s.parse().map_err(|_| format!("{s} is not a whole number"))?
    };
    if v == 0 {
        return Err("must be at least 1".into());
    }
    Ok(v)
}

/// `--cells`: 16 of `0`, `x`, `*` (spaces allowed), or the reason it is not.
pub(super) fn parse_cells(s: &str) -> Result<CellPattern, String> {
    s.trim().parse().map_err(|e: skinny_lab::CellPatternError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_every_spelling() {
        assert_eq!(parse_count("1e9"), Ok(1_000_000_000));
        assert_eq!(parse_count("2^30"), Ok(1 << 30));
        assert_eq!(parse_count(" 1_000 "), Ok(1000));
        assert!(parse_count("0").is_err());
        assert!(parse_count("2^64").is_err());
        assert!(parse_shard("3/3").is_err());
        assert_eq!(parse_shard("1/4").map(|s| s.0), Ok(Shard { index: 1, count: 4 }));
    }

    #[test]
    fn patterns_and_their_refusals() {
        assert_eq!(parse_cells(" 0000 x000 **** 0000 ").unwrap().to_string(), "0000x000****0000");
        assert_eq!(parse_cells("0000x000").unwrap_err(), "cell pattern: 16 cells of 0, x or *, got 8");
        assert!(parse_cells("0000y000****0000").unwrap_err().contains("'y'"));
    }
}
