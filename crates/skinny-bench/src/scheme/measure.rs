//! The scheme series timed: every algorithm, operation and size of a plan,
//! one message per call through the RustCrypto traits, under a fresh random
//! key and nonce, with no associated data.

use super::algorithm::{Algorithm, Floor, Operation, Route};
use super::plan::SchemePlan;
use crate::measure::{random_bytes, time_op, Observer, RunSettings};
use crate::size::size_label;
use crate::stats;
use skinny_aead::aead;
use skinny_aead::aead::inout::InOutBuf;
use skinny_aead::aead::{AeadInOut, Key, KeyInit, Nonce};
use skinny_aead::{Member, SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_hash::{SkinnyTk2Hash, SkinnyTk3Hash};
use skinny_romulus::digest::Digest;
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};
use std::time::Duration;
use zeroize::Zeroize;

/// One measured point: algorithm, operation and message size.
#[derive(Clone, Debug)]
pub struct SchemeRecord {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Seal, open or hash.
    pub operation: Operation,
    /// How the message went through.
    pub route: Route,
    /// Bytes of the message (the plaintext; the tag is not counted).
    pub bytes: usize,
    /// Operations repeated inside one timed run.
    pub reps: usize,
    /// Milliseconds per operation, one per timed run.
    pub times_ms: Vec<f64>,
    /// The first (warm-up) call, ms.
    pub warmup_ms: Option<f64>,
    /// The block-cipher calls and rounds one message needs at least.
    pub floor: Floor,
}

impl SchemeRecord {
    /// Timed runs.
    pub fn runs(&self) -> usize {
        self.times_ms.len()
    }
    /// Mean ms.
    pub fn mean_ms(&self) -> f64 {
        stats::mean(&self.times_ms)
    }
    /// Median ms.
    pub fn median_ms(&self) -> f64 {
        stats::median(&self.times_ms)
    }
    /// Minimum ms.
    pub fn min_ms(&self) -> f64 {
        self.times_ms.iter().copied().fold(f64::INFINITY, f64::min)
    }
    /// Maximum ms.
    pub fn max_ms(&self) -> f64 {
        self.times_ms.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }
    /// Sample standard deviation of the runs, ms.
    pub fn sd_ms(&self) -> f64 {
        stats::sample_sd(&self.times_ms)
    }
    /// Binary megabytes per second at the median: bytes / 2^20 / seconds.
    pub fn mib_s(&self) -> f64 {
        self.bytes as f64 / f64::from(1u32 << 20) / (self.median_ms() / 1e3)
    }
    /// Nanoseconds per message byte at the median.
    pub fn ns_per_byte(&self) -> f64 {
        self.median_ms() * 1e6 / self.bytes as f64
    }
    /// Nanoseconds per cipher round of the floor at the median: how close
    /// the code comes to its cipher's cost.
    pub fn ns_per_round(&self) -> f64 {
        self.median_ms() * 1e6 / self.floor.total_rounds() as f64
    }
}

/// Times every point of `plan`, in the order algorithm, operation, size,
/// telling `obs` as it goes. A point that fails (never expected: a tag that
/// does not verify) is reported through `obs.notice` and left out.
pub fn measure_schemes(plan: &SchemePlan, obs: &mut dyn Observer) -> Vec<SchemeRecord> {
    let set = RunSettings {
        runs: plan.runs,
        min_run: Duration::from_secs_f64(plan.min_run_secs),
        budget: plan.max_time_per_size.map(Duration::from_secs_f64),
    };
    let mut records = Vec::new();
    for &algorithm in &plan.algorithms {
        for &operation in algorithm.operations() {
            for &bytes in &plan.sizes {
                let at = format!("{algorithm} {} {}", operation.name(), size_label(bytes));
                obs.start(&at);
                match time_point(algorithm, operation, plan.route, bytes, set) {
                    Ok((reps, times_ms, warmup_ms)) => records.push(SchemeRecord {
                        algorithm,
                        operation,
                        route: plan.route,
                        bytes,
                        reps,
                        times_ms,
                        warmup_ms: Some(warmup_ms),
                        floor: algorithm.floor(bytes),
                    }),
                    Err(e) => obs.notice(&format!("{at} failed: {e}; left out")),
                }
                obs.done();
            }
        }
    }
    records
}

/// (repeats per run, ms per operation by run, warm-up ms), or why it failed.
type Timed = Result<(usize, Vec<f64>, f64), String>;

/// One point on its route.
fn time_point(algorithm: Algorithm, operation: Operation, route: Route, bytes: usize, set: RunSettings) -> Timed {
    match route {
        Route::Single => single(algorithm, operation, bytes, set),
        // A scheme plan is always single; batches are module `many`'s.
        Route::Many => Err("the many-message route is measured by the many-message series".into()),
    }
}

/// One message per call.
fn single(algorithm: Algorithm, operation: Operation, bytes: usize, set: RunSettings) -> Timed {
    match algorithm {
        Algorithm::SkinnyAead(m) => match m {
            Member::M1 => aead::<SkinnyAeadM1>(operation, bytes, set),
            Member::M2 => aead::<SkinnyAeadM2>(operation, bytes, set),
            Member::M3 => aead::<SkinnyAeadM3>(operation, bytes, set),
            Member::M4 => aead::<SkinnyAeadM4>(operation, bytes, set),
            Member::M5 => aead::<SkinnyAeadM5>(operation, bytes, set),
            Member::M6 => aead::<SkinnyAeadM6>(operation, bytes, set),
        },
        Algorithm::RomulusN => aead::<RomulusN>(operation, bytes, set),
        Algorithm::RomulusM => aead::<RomulusM>(operation, bytes, set),
        Algorithm::RomulusT => aead::<RomulusT>(operation, bytes, set),
        Algorithm::RomulusH => hash::<RomulusH>(bytes, set),
        Algorithm::SkinnyHash(skinny_hash::Member::Tk3) => hash::<SkinnyTk3Hash>(bytes, set),
        Algorithm::SkinnyHash(skinny_hash::Member::Tk2) => hash::<SkinnyTk2Hash>(bytes, set),
    }
}

/// Seal: the message encrypted in place, again and again (each call seals
/// what the last one left: the same work on random-looking data). Open: one
/// sealed message opened from its buffer into another, so every call checks
/// a tag that verifies.
fn aead<A: KeyInit + AeadInOut>(operation: Operation, bytes: usize, set: RunSettings) -> Timed {
    let mut key = Key::<A>::default();
    let n = key.len();
    key.copy_from_slice(&random_bytes(n));
    let cipher = A::new(&key);
    key.as_mut_slice().zeroize();
    let mut nonce = Nonce::<A>::default();
    let n = nonce.len();
    nonce.copy_from_slice(&random_bytes(n));
    let mut buf = random_bytes(bytes);
    let sealed = |e: aead::Error| format!("sealing failed ({e})");
    let times = match operation {
        Operation::Open => {
            let tag = cipher.encrypt_inout_detached(&nonce, &[], (&mut buf[..]).into()).map_err(sealed)?;
            let mut out = vec![0u8; bytes];
            time_op(
                || {
                    let io = InOutBuf::new(&buf, &mut out).map_err(|_| aead::Error)?;
                    cipher.decrypt_inout_detached(&nonce, &[], io, &tag)
                },
                set,
            )
            .map_err(|_| "the tag did not verify".to_string())?
        }
        _ => time_op(|| cipher.encrypt_inout_detached(&nonce, &[], (&mut buf[..]).into()).map(drop), set)
            .map_err(sealed)?,
    };
    Ok((times.reps, times.times_ms, times.warmup_ms))
}

/// The digest of one message per call.
fn hash<D: Digest>(bytes: usize, set: RunSettings) -> Timed {
    let data = random_bytes(bytes);
    let times = time_op(
        || {
            std::hint::black_box(D::digest(&data));
            Ok::<(), std::convert::Infallible>(())
        },
        set,
    )
    .unwrap_or_else(|e| match e {});
    Ok((times.reps, times.times_ms, times.warmup_ms))
}
