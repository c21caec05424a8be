//! Tables as the text other tools read: a CSV matrix, the list of valid
//! transitions with their weights, and the truth table of the transitions in
//! Berkeley PLA, the input of the logic minimizer ESPRESSO that CNF (SAT) and
//! MILP models of S-boxes are derived from.

use std::fmt::{Display, Write};

use super::{Table, TableError};

/// What a table's entries measure, which fixes a transition's weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    /// Entries count solutions out of 2^n (DDT, BCT): a transition is an entry
    /// above 0, of weight `−log2(entry / 2^n)`, minus log2 of its probability.
    Probability,
    /// Entries are signed, the count minus half (LAT, DLCT): a transition is a
    /// nonzero entry, of weight `−log2((entry / 2^(n−1))²)`, minus log2 of its
    /// squared correlation (what linear models add up).
    SquaredCorrelation,
}

/// One valid transition of a two-index table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// The first index (input difference or mask).
    pub input: usize,
    /// The second index (output difference or mask).
    pub output: usize,
    /// The table's entry, exact.
    pub entry: i64,
    /// Its weight (see [`Weight`]): exact when the entry is a power of two.
    pub weight: f64,
}

/// The table of two indices as CSV: one line per first index, its entries
/// over the second index in decimal, separated by commas, each line ending in
/// a newline; no header. `numpy.loadtxt(path, delimiter=",", dtype=int)` and
/// every CSV reader read it back as the matrix. Refused for another rank.
pub fn csv<T: Copy + Display>(table: &Table<T>) -> Result<String, TableError> {
    two_indices(table, "a CSV matrix")?;
    let mut out = String::new();
    for row in table.as_slice().chunks(table.side()) {
        for (i, v) in row.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            // Writing to a String cannot fail.
            let _ = write!(out, "{sep}{v}");
        }
        out.push('\n');
    }
    Ok(out)
}

/// The valid transitions of a two-index table (see [`Weight`] for which
/// entries count), in row-major order. Refused for another rank.
pub fn transitions<T: Copy + Into<i64>>(table: &Table<T>, weight: Weight) -> Result<Vec<Transition>, TableError> {
    two_indices(table, "a list of transitions")?;
    let bits = f64::from(table.bits());
    let side = table.side();
    let mut out = Vec::new();
    for (o, &v) in table.as_slice().iter().enumerate() {
        let entry: i64 = v.into();
        let w = match weight {
            Weight::Probability if entry > 0 => bits - (entry as f64).log2(),
            Weight::SquaredCorrelation if entry != 0 => 2.0 * (bits - 1.0 - (entry.unsigned_abs() as f64).log2()),
            _ => continue,
        };
        // A weight of 0 (probability or |correlation| 1) prints as 0, not -0.
        out.push(Transition { input: o / side, output: o % side, entry, weight: w + 0.0 });
    }
    Ok(out)
}

/// The transitions as CSV: a header line `input,output,entry,weight`, then
/// one line per transition, the indices and the entry in decimal and the
/// weight with four decimals (as the weights of MILP objectives are written,
/// e.g. 2.4150 for 48/256). The exact entry is there to recompute it.
pub fn transitions_csv(transitions: &[Transition]) -> String {
    let mut out = String::from("input,output,entry,weight\n");
    for t in transitions {
        let _ = writeln!(out, "{},{},{},{:.4}", t.input, t.output, t.entry, t.weight);
    }
    out
}

/// The transitions of a two-index table as a Boolean function in Berkeley
/// PLA, the input format of ESPRESSO, which turns it into the CNF clauses
/// and MILP inequalities of S-box models.
///
/// The encoding is sboxanalyzer's (Hadipour, `minimized_diff_constraints` and
/// `minimized_linear_constraints`), written down here: with `n`-bit indices
/// and `k` distinct nonzero weights `w_0 > w_1 > .. > w_(k−1)` (entries
/// sorted by size, smallest first), the function of `2n + k` variables
/// `a0 .. a(n−1) b0 .. b(n−1) p0 .. p(k−1)` (`a0` and `b0` the most
/// significant bits of the input and output index) is 1 exactly on
/// `a || b || e_j` for each transition `a → b` of weight `w_j` (`e_j` sets
/// `p_j` alone) and on `a || b || 0..0` for each transition of weight 0. The
/// weight of a solution is then `Σ_j w_j · p_j`; the header's comments list
/// the `w_j`. Only the ON-set is written (`.type f`: every other point is 0).
/// Refused for a table of another rank.
pub fn pla<T: Copy + Into<i64>>(table: &Table<T>, weight: Weight) -> Result<String, TableError> {
    two_indices(table, "a PLA truth table")?;
    let list = transitions(table, weight)?;
    let bits = table.bits() as usize;
    // The distinct nonzero |entries| below the weight-0 ones, smallest first: p0 is the heaviest.
    let mut levels: Vec<(u64, f64)> =
        list.iter().filter(|t| t.weight > 0.0).map(|t| (t.entry.unsigned_abs(), t.weight)).collect();
    levels.sort_by_key(|&(e, _)| e);
    levels.dedup_by_key(|&mut (e, _)| e);
    let k = levels.len();
    let mut out = String::new();
    let what = match weight {
        Weight::Probability => "probability",
        Weight::SquaredCorrelation => "squared correlation",
    };
    let _ = writeln!(out, "# {} transitions of a {bits}-bit table; weight = -log2 {what}", list.len());
    let _ = writeln!(out, "# a0, b0: most significant bits; weight of a point = sum of w_j p_j");
    for (j, &(e, w)) in levels.iter().enumerate() {
        let _ = writeln!(out, "# p{j}: |entry| {e}, w_{j} = {w:.4}");
    }
    let _ = writeln!(out, ".i {}", 2 * bits + k);
    let _ = writeln!(out, ".o 1");
    let names: Vec<String> = (0..bits)
        .map(|i| format!("a{i}"))
        .chain((0..bits).map(|i| format!("b{i}")))
        .chain((0..k).map(|j| format!("p{j}")))
        .collect();
    let _ = writeln!(out, ".ilb {}", names.join(" "));
    let _ = writeln!(out, ".ob F");
    let _ = writeln!(out, ".type f");
    let _ = writeln!(out, ".p {}", list.len());
    for t in &list {
        let level = levels.iter().position(|&(e, _)| e == t.entry.unsigned_abs()).filter(|_| t.weight > 0.0);
        let p: String = (0..k).map(|j| if Some(j) == level { '1' } else { '0' }).collect();
        let _ = writeln!(out, "{:0bits$b}{:0bits$b}{p} 1", t.input, t.output);
    }
    out.push_str(".e\n");
    Ok(out)
}

fn two_indices<T: Copy>(table: &Table<T>, what: &'static str) -> Result<(), TableError> {
    match table.rank() {
        2 => Ok(()),
        rank => Err(TableError::Rank { what, rank }),
    }
}
