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
