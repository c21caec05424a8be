//! The arguments of `skinny hash`, and the names of its algorithms.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `skinny hash`: digests of files, or a check of digests listed in files.
#[derive(Debug, Args)]
pub struct HashArgs {
    /// The hash function [default: romulus-h]. With --check it is the one
    /// for untagged lines, and tagged lines must name it; without -a, each
    /// tagged line's tag picks its function.
    #[arg(short, long, value_enum, ignore_case = true)]
    pub algo: Option<HashAlgo>,
    /// Read digest lines from the FILEs (default stdin) and check each named
    /// file against its digest.
    #[arg(short, long)]
    pub check: bool,
    /// Write BSD-style lines that name the function: `Romulus-H (<name>) = <hex>`.
    #[arg(long, conflicts_with = "check")]
    pub tag: bool,
    /// End each output line with NUL, not newline, and write names as they
    /// are (no escaping).
    #[arg(short, long, conflicts_with = "check")]
    pub zero: bool,
    /// With --check: pass over listed files that do not exist, in silence
    /// (a list must still verify one file).
    #[arg(long, requires = "check")]
    pub ignore_missing: bool,
    /// With --check: print no `OK` lines, only failures.
    #[arg(long, requires = "check", overrides_with_all = ["status", "warn"])]
    pub quiet: bool,
    /// With --check: print nothing on stdout; the exit status tells.
    #[arg(long, requires = "check", overrides_with_all = ["quiet", "warn"])]
    pub status: bool,
    /// With --check: exit 1 if any line is improperly formatted.
    #[arg(long, requires = "check")]
    pub strict: bool,
    /// With --check: name each improperly formatted line on stderr.
    #[arg(short, long, requires = "check", overrides_with_all = ["quiet", "status"])]
    pub warn: bool,
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

impl HashAlgo {
    /// The function when `-a` is not given.
    pub const DEFAULT: HashAlgo = HashAlgo::RomulusH;

    /// Every function, in the order of `--help`.
    pub const ALL: [HashAlgo; 3] = [HashAlgo::RomulusH, HashAlgo::SkinnyTk3Hash, HashAlgo::SkinnyTk2Hash];

    /// The tag of `--tag` lines: the function's name as its specification
    /// writes it (`skinny_hash::Member`'s display name for the two members).
    pub const fn tag(self) -> &'static str {
        match self {
            HashAlgo::RomulusH => "Romulus-H",
            HashAlgo::SkinnyTk3Hash => "SKINNY-tk3-Hash",
            HashAlgo::SkinnyTk2Hash => "SKINNY-tk2-Hash",
        }
    }
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
        assert_eq!(HashAlgo::ALL.len(), HashAlgo::value_variants().len());
        for algo in HashAlgo::value_variants() {
            let name = algo.to_possible_value().expect("not hidden").get_name().to_string();
            match member(*algo) {
                Some(member) => {
                    assert_eq!(name, member.name());
                    assert_eq!(name.parse::<skinny_hash::Member>().ok(), Some(member));
                    assert_eq!(algo.tag(), member.to_string());
                }
                None => assert_eq!((name.as_str(), algo.tag()), ("romulus-h", "Romulus-H")),
            }
            // The tag is the value name in another case.
            assert!(algo.tag().eq_ignore_ascii_case(&name));
        }
    }
}
