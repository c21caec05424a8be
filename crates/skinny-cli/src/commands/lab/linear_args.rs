//! `skinny lab linear`'s arguments and experiment, and `--cells` (the cell
//! pattern of `skinny lab differential`) read from its text.

use super::args::{common, hex_of, CommonArgs};
use super::error::LabCommandError;
use clap::Args;
use skinny_lab::{CellPattern, Experiment, Linear};

/// `skinny lab linear`.
#[derive(Debug, Args)]
pub struct LinearArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The input linear mask (alpha) in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub in_mask: String,

    /// The output linear mask (beta) in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub out_mask: String,
}

/// The experiment of `skinny lab linear`, checked.
pub(super) fn linear(a: &LinearArgs) -> Result<Experiment, LabCommandError> {
    let c = common(&a.common)?;
    let (v, block) = (c.variant, c.variant.block_bytes());
    let alpha = hex_of("--in-mask", &a.in_mask, block, v, "one block")?;
    let beta = hex_of("--out-mask", &a.out_mask, block, v, "one block")?;
    let exp = Linear::new(c, alpha, beta);
    exp.check().map_err(LabCommandError::Refused)?;
    Ok(exp.into())
}

/// `--cells`: 16 of `0`, `x`, `*` (spaces allowed), or the reason it is not.
pub(super) fn parse_cells(s: &str) -> Result<CellPattern, String> {
    s.trim().parse().map_err(|e: skinny_lab::CellPatternError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::parse_cells;

    #[test]
    fn patterns_and_their_refusals() {
        assert_eq!(parse_cells(" 0000 x000 **** 0000 ").unwrap().to_string(), "0000x000****0000");
        assert_eq!(parse_cells("0000x000").unwrap_err(), "cell pattern: 16 cells of 0, x or *, got 8");
        assert!(parse_cells("0000y000****0000").unwrap_err().contains("'y'"));
    }
}
