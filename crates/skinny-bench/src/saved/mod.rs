//! Saved results read back (one or several repeats of one experiment, pooled
//! point by point), drawn again, and set beside the paper's own Tables 3 and
//! 4 from a transcription that marks how surely each cell was read.

mod load;
mod markdown;
mod paper;

#[cfg(test)]
mod tests;

pub use load::{parse, pool, Loaded, Pooled};
pub use markdown::markdown;
pub use paper::{paper_speedups, parse_paper, Cell, Certainty, PaperRow, PAPER_FIELDS};

use crate::chart;
use crate::plan::Plan;
use crate::record::Record;
use std::path::{Path, PathBuf};

/// A saved file that cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SavedError {
    /// The file cannot be read.
    #[error("cannot read '{}': {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not what it should be (a bench JSON, the paper's transcription).
    #[error("'{}': {reason}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        reason: String,
    },
}

fn malformed(path: &Path, reason: String) -> SavedError {
    SavedError::Malformed { path: path.to_path_buf(), reason }
}

/// Saved runs pooled, and the paper's rows beside them.
#[derive(Clone, Debug)]
pub struct SideBySide {
    /// The points, every repeat's runs pooled.
    pub pooled: Vec<Pooled>,
    /// The paper's rows (none when no transcription was given).
    pub paper: Vec<PaperRow>,
    /// How many runs were pooled.
    pub files: usize,
    /// The machines they ran on, each once, in file order.
    pub machines: Vec<String>,
}

impl SideBySide {
    /// Reads the JSON of each run (`files`) and the paper's transcription.
    ///
    /// # Errors
    /// A file that cannot be read or is not what it should be.
    pub fn load(files: &[PathBuf], paper: Option<&Path>) -> Result<Self, SavedError> {
        let read = |path: &Path| {
            std::fs::read_to_string(path).map_err(|source| SavedError::Read { path: path.to_path_buf(), source })
        };
        let mut loaded = Vec::new();
        for f in files {
            loaded.push(parse(&read(f)?).map_err(|reason| malformed(f, reason))?);
        }
        let rows = match paper {
            Some(p) => parse_paper(&read(p)?).map_err(|reason| malformed(p, reason))?,
            None => Vec::new(),
        };
        Ok(Self::of(&loaded, rows))
    }

    /// Runs already read, pooled, beside `paper`.
    pub fn of(loaded: &[Loaded], paper: Vec<PaperRow>) -> Self {
        let mut machines: Vec<String> = Vec::new();
        for l in loaded {
            if !machines.contains(&l.machine) {
                machines.push(l.machine.clone());
            }
        }
        Self { pooled: pool(loaded), paper, files: loaded.len(), machines }
    }

    /// The pooled records.
    pub fn records(&self) -> Vec<Record> {
        self.pooled.iter().map(|p| p.record.clone()).collect()
    }

    /// The charts' caption: each machine on a line of its own, then how many
    /// runs were pooled.
    pub fn caption(&self) -> Vec<String> {
        let mut lines = self.machines.clone();
        if self.files > 1 {
            lines.push(format!("{} runs pooled point by point", self.files));
        }
        lines
    }

    /// The throughput charts of the pooled records.
    pub fn throughput_svg(&self) -> String {
        let records = self.records();
        chart::throughput(&Plan::covering(&records), &records, &self.caption())
    }

    /// The speed-up charts: the paper's E beside the pooled records'.
    pub fn speedup_svg(&self) -> String {
        let series = chart::speedup_series(&self.records(), &paper_speedups(&self.paper));
        chart::speedups(&series, &self.caption())
    }

    /// The Markdown tables (see [`markdown()`]).
    pub fn markdown(&self) -> String {
        let machines: Vec<&str> = self.machines.iter().map(String::as_str).collect();
        markdown(&self.pooled, &self.paper, self.files, &machines)
    }
}
