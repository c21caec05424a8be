//! `skinny lab`'s arguments, and the experiment and hardware they ask for as
//! the library's types (checked: every refusal is one usage line naming the
//! option).

use super::count_args::{parse_count, parse_shard, ShardArg};
use super::error::LabCommandError;
use crate::args::{gpus_parser, threads_parser, CipherName, Named, PlacementArgs, Trimmed};
use clap::{Args, Subcommand};
use skinny::Variant;
use skinny_bulk::backend::GpuSelection;
use skinny_exec::PlacementKind;
use skinny_lab::{
    Boomerang, CellPattern, Common, Differential, DifferentialLinear, Experiment, Linear, Placement, Shard, TweakeyAt,
    MAX_SHOW,
};
use std::path::PathBuf;

/// Examples shown under `skinny lab --help`.
const LAB_EXAMPLES: &str = "\
Examples:
  # 2^24 queries of a 1-round SKINNY-64-64 differential (p = 2^-2), a key every 4096:
  skinny lab differential --cipher skinny-64-64 --rounds 1 --dp 1000000000000000 \\
      --dc 8000800000008000 --queries 16777216
  # Shard 3 of 8 of a boomerang as JSON, then the merge of all eight:
  skinny lab boomerang --cipher skinny-128-256 --rounds 6 --dp ... --dc ... --queries 1e9 \\
      --shard 3/8 --json > part3.json
  skinny lab merge part*.json
  # A differential-linear correlation over rounds 5..10 of SKINNY-64-64,
  # a fresh tweakey every query:
  skinny lab differential-linear --cipher skinny-64-64 --start-round 5 --rounds 6 \\
      --dp ... --mask ... --queries 2^30 --key-every 1
  # A linear correlation of one fixed key (one key group) over 2^32 plaintexts:
  skinny lab linear --cipher skinny-128-256 --rounds 6 --in-mask ... --out-mask ... \\
      --queries 2^32 --key-every 2^32
  # A truncated differential: cell 4 non-zero, cells 8-11 free, the rest zero:
  skinny lab differential --cipher skinny-64-64 --rounds 2 --dp ... \\
      --cells 0000x000****0000 --queries 2^24";

/// `skinny lab ...`.
#[derive(Debug, Args)]
#[command(after_help = LAB_EXAMPLES)]
pub struct LabArgs {
    /// Which experiment.
    #[command(subcommand)]
    pub command: LabCommand,
}

/// The lab's subcommands.
#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Count pairs with (E_K(P) ^ E_{K^dk}(P ^ dp)) & mask == dc & mask.
    Differential(DifferentialArgs),
    /// Count returning related-tweakey boomerang quartets.
    Boomerang(BoomerangArgs),
    /// Count pairs with parity(mask & (E_K(P) ^ E_{K^dk}(P ^ dp))) = 0: the
    /// correlation 2 hits / queries - 1.
    DifferentialLinear(DifferentialLinearArgs),
    /// Count plaintexts with parity(in_mask & P) = parity(out_mask & E_K(P)):
    /// the correlation 2 hits / queries - 1.
    Linear(LinearArgs),
    /// Combine the JSON reports of shards of one experiment.
    Merge(MergeArgs),
}

/// Options of every experiment.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// The SKINNY variant.
    #[arg(short, long, default_value = "skinny-128-256", value_name = "CIPHER", ignore_case = true,
          value_parser = Trimmed::<CipherName>::new())]
    pub cipher: CipherName,

    /// Rounds, 1 to the cipher's full count.
    #[arg(long, value_name = "R")]
    pub rounds: usize,

    /// The first round run (1 = the cipher's first): rounds START ..
    /// START + R - 1 run, with their round constants and tweakey states.
    #[arg(long, value_name = "START", default_value = "1")]
    pub start_round: usize,

    /// Where the random keys and the tweakey differences are given: at the
    /// master tweakey, or at the start round's tweakey state.
    #[arg(long, value_enum, default_value = "master", value_name = "AT")]
    pub tk_at: TweakeyAtName,

    /// Queries in the whole run (all shards together); `1e9` and `2^30` work too.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub queries: u64,

    /// A fresh random key every K queries (K = 1: a new tweakey for every
    /// query). On the GPU every K runs at nearly the same speed; on the CPU
    /// small K cost more (each query's tweakey schedule is computed).
    #[arg(long, value_name = "K", default_value = "4096", value_parser = parse_count)]
    pub key_every: u64,

    /// The random generator's seed: same seed, same queries, same counts.
    #[arg(long, value_name = "S", default_value = "0")]
    pub seed: u64,

    /// Run only shard I of N (0-based): a contiguous range of the key groups.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<ShardArg>,

    /// Show (and put in the JSON) the first N right pairs or quartets, at
    /// most 1024.
    #[arg(long, value_name = "N", default_value = "0")]
    pub show: usize,

    /// Count every key's hits too: the histogram of hits per key, the share
    /// of keys without a hit and a dispersion test against one key-averaged
    /// probability. --queries must be a multiple of --key-every.
    #[arg(long)]
    pub per_key: bool,

    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Worker threads of the cpu backend, 1 to 1024 (default: all cores).
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// Where the queries run: the bitsliced CPU code, an NVIDIA GPU, or auto
    /// (the GPU when one opens and the shard has at least 2^26 queries). Every
    /// backend counts the same queries: same counts, same right pairs.
    #[arg(short, long, default_value = "auto", value_name = "BACKEND", value_parser = Named::new(BACKENDS))]
    pub backend: PlacementKind,

    /// GPUs of the gpu and auto backends: all, a count N (the first N), or GPU
    /// numbers such as 0,2 (one GPU: 1,). The queries are split into one range
    /// per GPU: same counts, same right pairs, whatever the number of GPUs.
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = gpus_parser)]
    pub gpus: GpuSelection,

    #[command(flatten)]
    pub checkpoint: super::checkpoint::CheckpointArgs,
}

/// `--backend` of the lab: the library's placements ([`PlacementKind`],
/// which names them), each with the lab's help.
const BACKENDS: &[(PlacementKind, &str)] = &[
    (PlacementKind::Auto, "The GPU for big shards when one opens, else the CPU"),
    (PlacementKind::Cpu, "The bitsliced CPU code on every core"),
    (PlacementKind::Gpu, "An NVIDIA GPU (an error if none can be used)"),
];

/// `--tk-at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TweakeyAtName {
    /// The master tweakey (differences advanced to the start round).
    Master,
    /// The start round's tweakey state.
    Start,
}

/// `skinny lab differential`.
#[derive(Debug, Args)]
pub struct DifferentialArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The plaintext difference in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub dp: String,

    /// The ciphertext difference in hex, one block (optional with --cells:
    /// without it only the pattern and --dc-mask's bits, against zero, count).
    #[arg(long, value_name = "HEX", required_unless_present = "cells")]
    pub dc: Option<String>,

    /// The tweakey difference in hex (the whole tweakey; default zero).
    #[arg(long, value_name = "HEX")]
    pub dk: Option<String>,

    /// Which ciphertext bits must match, in hex (default all with --dc, none
    /// without).
    #[arg(long, value_name = "HEX")]
    pub dc_mask: Option<String>,

    /// A truncated difference the ciphertext difference must also meet: 16
    /// cells (cell 0 first) of 0 (zero), x (non-zero) or * (free), such as
    /// 0000x000****0000 (spaces allowed).
    #[arg(long, value_name = "PATTERN", value_parser = super::count_args::parse_cells)]
    pub cells: Option<CellPattern>,
}

/// `skinny lab boomerang`.
#[derive(Debug, Args)]
pub struct BoomerangArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The plaintext difference in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub dp: String,

    /// The ciphertext difference in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub dc: String,

    /// The upper trail's tweakey difference (K2 = K1 ^ dk1; default zero).
    #[arg(long, value_name = "HEX")]
    pub dk1: Option<String>,

    /// The lower trail's tweakey difference (K3 = K1 ^ dk2, K4 = K2 ^ dk2; default zero).
    #[arg(long, value_name = "HEX")]
    pub dk2: Option<String>,
}

/// `skinny lab differential-linear`.
#[derive(Debug, Args)]
pub struct DifferentialLinearArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The plaintext difference in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub dp: String,

    /// The output linear mask in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub mask: String,

    /// The tweakey difference in hex (the whole tweakey; default zero).
    #[arg(long, value_name = "HEX")]
    pub dk: Option<String>,
}

/// `skinny lab merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// JSON reports written by `--json` (or by an earlier merge).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,

    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// A hex value of exactly `len` bytes, or a one-line usage error naming the option.
pub(super) fn hex_of(
    option: &'static str,
    s: &str,
    len: usize,
    variant: Variant,
    what: &'static str,
) -> Result<Vec<u8>, LabCommandError> {
    let t = s.trim();
    let t = t.strip_prefix("0x").unwrap_or(t);
    let v = hex::decode(t).map_err(|_| LabCommandError::NotHex { option })?;
    if v.len() != len {
        return Err(LabCommandError::HexLength { option, len, what, variant, got: v.len() });
    }
    Ok(v)
}

/// The common parameters.
pub(super) fn common(a: &CommonArgs) -> Result<Common, LabCommandError> {
    if a.show > MAX_SHOW {
        return Err(LabCommandError::Show { most: MAX_SHOW, got: a.show });
    }
    let mut c = Common::new(Variant::from(a.cipher), a.rounds, a.queries);
    c.start_round = a.start_round;
    c.tk_at = match a.tk_at {
        TweakeyAtName::Master => TweakeyAt::Master,
        TweakeyAtName::Start => TweakeyAt::Start,
    };
    c.key_every = a.key_every;
    c.seed = a.seed;
    c.shard = a.shard.map_or(Shard::WHOLE, |s| s.0);
    c.show = a.show;
    c.per_key = a.per_key;
    Ok(c)
}

/// `option`'s value, one block of `c`'s variant.
fn block_of(c: &Common, option: &'static str, v: &str) -> Result<Vec<u8>, LabCommandError> {
    hex_of(option, v, c.variant.block_bytes(), c.variant, "one block")
}

/// The experiment of `skinny lab differential`, checked.
pub(super) fn differential(a: &DifferentialArgs) -> Result<Experiment, LabCommandError> {
    let c = common(&a.common)?;
    let dp = block_of(&c, "--dp", &a.dp)?;
    let variant = c.variant;
    // Without --dc (only with --cells), the bits compared default to none.
    let mut exp = match &a.dc {
        Some(dc) => Differential::new(c.clone(), dp, block_of(&c, "--dc", dc)?),
        None => Differential::truncated(c, dp, a.cells.unwrap_or(CellPattern::FREE)),
    };
    exp.cells = a.cells;
    if let Some(dk) = &a.dk {
        exp.dk = hex_of("--dk", dk, variant.tweakey_bytes(), variant, "the whole tweakey")?;
    }
    if let Some(m) = &a.dc_mask {
        exp.dc_mask = hex_of("--dc-mask", m, variant.block_bytes(), variant, "one block")?;
    }
    exp.check().map_err(LabCommandError::Refused)?;
    Ok(exp.into())
}

/// The experiment of `skinny lab boomerang`, checked.
pub(super) fn boomerang(a: &BoomerangArgs) -> Result<Experiment, LabCommandError> {
    let c = common(&a.common)?;
    let dp = block_of(&c, "--dp", &a.dp)?;
    let dc = block_of(&c, "--dc", &a.dc)?;
    let variant = c.variant;
    let mut exp = Boomerang::new(c, dp, dc);
    if let Some(dk) = &a.dk1 {
        exp.dk1 = hex_of("--dk1", dk, variant.tweakey_bytes(), variant, "the whole tweakey")?;
    }
    if let Some(dk) = &a.dk2 {
        exp.dk2 = hex_of("--dk2", dk, variant.tweakey_bytes(), variant, "the whole tweakey")?;
    }
    exp.check().map_err(LabCommandError::Refused)?;
    Ok(exp.into())
}

/// The experiment of `skinny lab differential-linear`, checked.
pub(super) fn differential_linear(a: &DifferentialLinearArgs) -> Result<Experiment, LabCommandError> {
    let c = common(&a.common)?;
    let dp = block_of(&c, "--dp", &a.dp)?;
    let variant = c.variant;
    let mask = block_of(&c, "--mask", &a.mask)?;
    let mut exp = DifferentialLinear::new(c, dp, mask);
    if let Some(dk) = &a.dk {
        exp.dk = hex_of("--dk", dk, variant.tweakey_bytes(), variant, "the whole tweakey")?;
    }
    exp.check().map_err(LabCommandError::Refused)?;
    Ok(exp.into())
}

/// The placement `--backend`, `--threads` and `--gpus` ask for.
pub(super) fn placement(a: &CommonArgs) -> Placement {
    // At most 4 threads a core, as for the other commands (--threads 1024 on
    // two cores made a run 36-39x slower); the notice is printed by `count`.
    let (threads, _) = crate::args::capped_threads(a.threads);
    PlacementArgs { threads, gpus: a.gpus.clone() }.placement(a.backend)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backend_help_tells_the_rule_of_auto() {
        // `--backend`'s help says "at least 2^26 queries": the library's rule;
        // `--show`'s "at most 1024" is the library's bound.
        assert_eq!(skinny_lab::AUTO_GPU_QUERIES, 1 << 26);
        assert_eq!(MAX_SHOW, 1024);
    }
}
