//! The report of a run.

use super::header::Header;
use std::string::String;

/// What [`seal`](super::seal) or [`open`](super::open) did: the file's
/// facts, and where its chunks were worked on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealedReport {
    /// The file's header.
    pub header: Header,
    /// Chunks written or verified.
    pub chunks: u64,
    /// Plaintext bytes read (seal) or written (open).
    pub plaintext_bytes: u64,
    /// Of `chunks`, those the GPU did (the rest: the CPU).
    pub gpu_chunks: u64,
    /// Why a GPU that may be done without (`GpuStart::or_cpu`, feature `cuda`) did none
    /// of the chunks, when it could not be had.
    pub gpu_failure: Option<String>,
    /// Why a GPU kept only while faster (`GpuStart::while_faster`, feature `cuda`) was
    /// left during the run, with both engines' measured rates.
    pub gpu_left: Option<String>,
}
