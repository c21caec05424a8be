//! The paper's Tables 3 and 4 as transcribed (a CSV that marks how surely
//! each cell was read from the scrambled text).

use skinny_bulk::mode::Mode;

/// How surely a cell of the paper's tables was read from the scrambled text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// The digits stand together in the text and agree with the rest of the row.
    Sure,
    /// Pieced together from fragments; agrees with the rest of the row.
    Likely,
    /// One of several readings; the one most consistent with the row.
    Guess,
    /// Not read: computed from the other cells of the row (E = Tc/Tg, S = 1 - 1/E).
    Derived,
    /// Not read, nothing to compute it from.
    Unread,
}

impl Certainty {
    fn parse(s: &str) -> Result<Self, String> {
        Ok(match s.trim() {
            "sure" => Certainty::Sure,
            "likely" => Certainty::Likely,
            "guess" => Certainty::Guess,
            "derived" => Certainty::Derived,
            "unread" | "" => Certainty::Unread,
            x => return Err(format!("unknown certainty '{x}' (sure, likely, guess, derived, unread)")),
        })
    }

    /// A value with its mark: `0.27` sure, `0.27~` likely, `0.27?` a guess,
    /// `[0.27]` derived, `-` unread.
    pub(crate) fn mark(self, v: Option<f64>, fmt: impl Fn(f64) -> String) -> String {
        match (self, v) {
            (_, None) | (Certainty::Unread, _) => "-".into(),
            (Certainty::Sure, Some(x)) => fmt(x),
            (Certainty::Likely, Some(x)) => format!("{}~", fmt(x)),
            (Certainty::Guess, Some(x)) => format!("{}?", fmt(x)),
            (Certainty::Derived, Some(x)) => format!("[{}]", fmt(x)),
        }
    }
}

/// One cell of the paper's tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The value, if read or derived.
    pub value: Option<f64>,
    /// How surely.
    pub read: Certainty,
    /// The value as transcribed (trailing zeros kept: `0.30`).
    pub raw: String,
}

impl Cell {
    /// The value as transcribed, with its mark.
    pub(crate) fn marked(&self) -> String {
        self.read.mark(self.value, |_| self.raw.clone())
    }
}

/// One row of the paper's Table 3 (ECB) or 4 (CTR).
#[derive(Clone, Debug, PartialEq)]
pub struct PaperRow {
    /// ECB (Table 3) or CTR (Table 4).
    pub mode: Mode,
    /// Plaintext size, bytes (the paper's KB and MB are binary).
    pub bytes: usize,
    /// Serial C on the Xeon, ms.
    pub cpu_ms: Cell,
    /// The GPU, ms.
    pub gpu_ms: Cell,
    /// E = Tcpu / Tgpu.
    pub speedup: Cell,
    /// S = (Tcpu - Tgpu) / Tcpu, %.
    pub efficiency_pct: Cell,
}

/// The columns of the transcription file (`#` lines are comments; a last
/// `note` column may hold anything).
pub const PAPER_FIELDS: [&str; 11] = [
    "table",
    "mode",
    "bytes",
    "cpu_ms",
    "cpu_ms_read",
    "gpu_ms",
    "gpu_ms_read",
    "speedup",
    "speedup_read",
    "efficiency_pct",
    "efficiency_pct_read",
];

/// Reads the transcription of the paper's Tables 3 and 4.
///
/// # Errors
/// A line that does not fit [`PAPER_FIELDS`].
pub fn parse_paper(csv: &str) -> Result<Vec<PaperRow>, String> {
    let mut rows = Vec::new();
    let mut header_seen = false;
    for (n, line) in csv.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.splitn(PAPER_FIELDS.len() + 1, ',').map(str::trim).collect();
        if !header_seen {
            if cells.len() < PAPER_FIELDS.len() || cells[..PAPER_FIELDS.len()] != PAPER_FIELDS {
                return Err(format!("line {}: expected the header {}", n + 1, PAPER_FIELDS.join(",")));
            }
            header_seen = true;
            continue;
        }
        let bad = |what: &str| format!("line {}: {what}", n + 1);
        if cells.len() < PAPER_FIELDS.len() {
            return Err(bad("too few cells"));
        }
        let num = |s: &str| -> Result<Option<f64>, String> {
            if s.is_empty() {
                Ok(None)
            } else {
                s.parse::<f64>().map(Some).map_err(|_| bad(&format!("'{s}' is not a number")))
            }
        };
        let cell = |i: usize| -> Result<Cell, String> {
            let read = Certainty::parse(cells[i + 1]).map_err(|e| bad(&e))?;
            let value = num(cells[i])?;
            if value.is_none() && read != Certainty::Unread {
                return Err(bad(&format!("{} is empty but marked read", PAPER_FIELDS[i])));
            }
            Ok(Cell { value, read, raw: cells[i].to_string() })
        };
        let mode: Mode = cells[1].parse().map_err(|_| bad("unknown mode"))?;
        let bytes: usize = cells[2].parse().map_err(|_| bad("bytes is not a count"))?;
        rows.push(PaperRow {
            mode,
            bytes,
            cpu_ms: cell(3)?,
            gpu_ms: cell(5)?,
            speedup: cell(7)?,
            efficiency_pct: cell(9)?,
        });
    }
    if !header_seen {
        return Err("no header line".into());
    }
    Ok(rows)
}

/// The paper's (mode, bytes, E) for the charts: E as read, else from the two times.
pub fn paper_speedups(rows: &[PaperRow]) -> Vec<(Mode, usize, f64)> {
    rows.iter()
        .filter_map(|r| {
            let e = match (r.speedup.value, r.cpu_ms.value, r.gpu_ms.value) {
                (Some(e), _, _) if r.speedup.read != Certainty::Unread => Some(e),
                (_, Some(c), Some(g)) => Some(c / g),
                _ => None,
            };
            e.map(|e| (r.mode, r.bytes, e))
        })
        .collect()
}
