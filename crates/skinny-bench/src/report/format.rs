//! Numbers for tables: a few significant digits, no exponent.

/// Milliseconds with four significant digits, no exponent (`-` for none).
pub fn fmt_ms(ms: f64) -> String {
    if !ms.is_finite() || ms <= 0.0 {
        return "-".into();
    }
    let decimals = (3 - ms.log10().floor() as i32).clamp(0, 9) as usize;
    format!("{ms:.decimals$}")
}

/// Gb/s with four significant digits.
pub fn fmt_gbps(g: f64) -> String {
    fmt_ms(g)
}

/// A text table: `head`, a rule of dashes, then `rows`; each column as wide
/// as its widest cell, the first left-aligned, the others right-aligned,
/// two blanks between columns, no trailing blanks.
pub fn columns(head: &[String], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> =
        (0..head.len()).map(|c| rows.iter().map(|r| r[c].len()).chain([head[c].len()]).max().unwrap_or(0)).collect();
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| if i == 0 { format!("{c:<w$}") } else { format!("{c:>w$}") })
            .collect();
        format!("{}\n", parts.join("  ").trim_end())
    };
    let mut out = line(head);
    out.push_str(&line(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>()));
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

/// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }

    #[test]
    fn number_formats() {
        assert_eq!(fmt_ms(1234.5678), "1235");
        assert_eq!(fmt_ms(1.23456), "1.235");
        assert_eq!(fmt_ms(0.000123456), "0.0001235");
        assert_eq!(fmt_ms(0.0), "-");
    }
}
