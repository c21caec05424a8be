//! The arguments of `skinny hash`, and the names of its algorithms.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `skinny hash`: digests of files, or a check of digests listed in files.
#[derive(Debug, Args)]
pub struct HashArgs {
    /// The hash function.
    #[arg(short, long, value_enum, default_value_t = HashAlgo::RomulusH, ignore_case = true)]
    pub algo: HashAlgo,
    /// Read `<hex>  <name>` lines from the FILEs (default stdin) and check each
    /// named file against its digest.
    #[arg(short, long)]
    pub check: bool,
    /// Files hashed at once (default: all cores); stdin and --check go one
    /// at a time. The output keeps the order the files were given in.
    #[arg(long, value_name = "N", value_parser = crate::args::threads_parser())]
    pub threads: Option<usize>,
    /// The files to hash (or with --check, the lists to read); none or `-`: stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// The hash functions `skinny hash` offers, each a 256-bit digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HashAlgo {
    /// Romulus-H (Romulus v1.3) on SKINNY-128-384+.
    RomulusH,
    /// SKINNY-tk3-Hash (SKINNY-Hash's primary member) on SKINNY-128-384.
    #[value(name = "skinny-tk3-hash")]
    SkinnyTk3Hash,
    /// SKINNY-tk2-Hash on SKINNY-128-256.
    #[value(name = "skinny-tk2-hash")]
    SkinnyTk2Hash,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SKINNY-Hash member, for the two that are one.
    fn member(algo: HashAlgo) -> Option<skinny_hash::Member> {
        match algo {
            HashAlgo::RomulusH => None,
            HashAlgo::SkinnyTk3Hash => Some(skinny_hash::Member::Tk3),
            HashAlgo::SkinnyTk2Hash => Some(skinny_hash::Member::Tk2),
        }
    }

    #[test]
    fn skinny_hash_names_are_the_librarys() {
        for algo in HashAlgo::value_variants() {
            let name = algo.to_possible_value().expect("not hidden").get_name().to_string();
            match member(*algo) {
                Some(member) => {
                    assert_eq!(name, member.name());
                    assert_eq!(name.parse::<skinny_hash::Member>().ok(), Some(member));
                }
                None => assert_eq!(name, "romulus-h"),
            }
        }
    }
}
