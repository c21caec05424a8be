//! The report of a run.

use super::header::Header;
use skinny_exec::Placed;

/// What [`seal`](super::seal) or [`open`](super::open) did: the file's
/// facts, and where its chunks were worked on.
#[derive(Clone, Debug, PartialEq)]
pub struct SealedReport {
    /// The file's header.
    pub header: Header,
    /// Chunks written or verified.
    pub chunks: u64,
    /// Plaintext bytes read (seal) or written (open).
    pub plaintext_bytes: u64,
    /// Where the chunks were worked on (units: chunks): how many on the GPU,
    /// which GPU, why the CPU did them all (`auto`'s rule, or a GPU that
    /// could not be had), and whether the GPU was left for being slower.
    pub placed: Placed,
}
