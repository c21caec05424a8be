//! The backends of a run, opened once with their engines; those that cannot
//! run here are set aside with the reason.

use crate::plan::Plan;
use crate::record::Several;
use crate::timing::Timing;
use serde::Serialize;
use skinny::Skinny;
use skinny_bulk::backend::{self, Backend, BackendChoice, BlockEngine};
use std::time::Instant;

/// One backend opened for the bench, with its key engine and setup costs.
pub struct Subject {
    /// The backend's name.
    pub name: &'static str,
    /// The backend.
    pub backend: Box<dyn Backend>,
    /// The engine for the bench key.
    pub engine: Box<dyn BlockEngine>,
    /// Seconds to open the backend (device, context, module).
    pub open_secs: f64,
    /// Seconds to open the engine for the key (round tweakeys, buffers).
    pub engine_secs: f64,
    /// Whether the backend has a kernel-only timer.
    pub has_kernel: bool,
    /// The same backend opened for plain pageable copies, with its engine:
    /// the [`Timing::Pageable`] and [`Timing::Cold`] series (GPU backends, when asked).
    pub pageable: Option<(Box<dyn Backend>, Box<dyn BlockEngine>)>,
    /// The timings asked for (those this subject cannot do are left out).
    pub asked: Vec<Timing>,
    /// Set once a measurement failed, per timing: left out after that.
    pub failed: [bool; 4],
}

impl Subject {
    /// Opens the engine for `cipher` on `backend`, timing it.
    ///
    /// # Errors
    /// The backend's.
    pub fn open(backend: Box<dyn Backend>, open_secs: f64, cipher: &Skinny) -> Result<Self, skinny_bulk::Error> {
        let t = Instant::now();
        let engine = backend.engine(cipher)?;
        let engine_secs = t.elapsed().as_secs_f64();
        let has_kernel = backend.device_bench().is_some();
        Ok(Self {
            name: backend.name(),
            backend,
            engine,
            open_secs,
            engine_secs,
            has_kernel,
            pageable: None,
            asked: vec![Timing::EndToEnd, Timing::Kernel],
            failed: [false; 4],
        })
    }

    /// Adds the backend opened for plain pageable copies (the pageable and cold series).
    ///
    /// # Errors
    /// The backend's.
    pub fn with_pageable(mut self, backend: Box<dyn Backend>, cipher: &Skinny) -> Result<Self, skinny_bulk::Error> {
        let engine = backend.engine(cipher)?;
        self.pageable = Some((backend, engine));
        Ok(self)
    }

    /// Whether this subject has several series (and so labels them by timing).
    pub fn several(&self) -> Several {
        if self.has_kernel || self.pageable.is_some() {
            Several::Yes
        } else {
            Several::No
        }
    }

    /// The series this subject yields: end to end always (the CPU baselines'
    /// only one), the others when asked and possible.
    pub fn timings(&self) -> Vec<Timing> {
        Timing::ALL
            .into_iter()
            .filter(|t| match t {
                Timing::EndToEnd => true,
                Timing::Kernel => self.has_kernel && self.asked.contains(t),
                Timing::Pageable | Timing::Cold => self.pageable.is_some() && self.asked.contains(t),
            })
            .collect()
    }

    /// How it was opened, for the report.
    pub fn setup(&self) -> Setup {
        Setup {
            backend: self.name,
            description: self.backend.describe(),
            constant_time: self.backend.constant_time(),
            open_ms: self.open_secs * 1e3,
            engine_ms: self.engine_secs * 1e3,
        }
    }
}

/// How one backend was opened (also its JSON object in `setup`).
#[derive(Clone, Debug, Serialize)]
pub struct Setup {
    /// Backend name.
    pub backend: &'static str,
    /// The backend's own description.
    pub description: String,
    /// Whether its code is constant time.
    pub constant_time: bool,
    /// Opening the backend (device, context, module compilation), ms.
    pub open_ms: f64,
    /// Opening the engine for the key, ms.
    pub engine_ms: f64,
}

/// A backend asked for that cannot run here, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The backend's name.
    pub backend: String,
    /// Why (no GPU, variant not supported...).
    pub reason: String,
}

/// Opens each asked backend and its engine; those that cannot run here (no GPU,
/// variant not supported) come back as [`Skipped`] instead.
pub fn open_subjects(plan: &Plan, cipher: &Skinny) -> (Vec<Subject>, Vec<Skipped>) {
    let opts = backend::Options::with_threads(plan.threads).gpus(plan.gpus.clone());
    let mut subjects = Vec::new();
    let mut skipped = Vec::new();
    for &choice in &plan.backends {
        let t = Instant::now();
        let opened = backend::open(choice, &opts);
        let open_secs = t.elapsed().as_secs_f64();
        let pageable = choice.needs_gpu() && plan.timings.iter().any(|t| matches!(t, Timing::Pageable | Timing::Cold));
        let outcome = opened.and_then(|b| {
            if !b.supports(plan.variant) {
                return Err(skinny_bulk::Error::Unsupported { backend: choice.name(), variant: plan.variant });
            }
            let mut s = Subject::open(b, open_secs, cipher)?;
            s.asked.clone_from(&plan.timings);
            if pageable {
                s = s.with_pageable(
                    backend::open(choice, &opts.clone().host_copies(backend::HostCopies::Pageable))?,
                    cipher,
                )?;
            }
            Ok(s)
        });
        match outcome {
            Ok(s) => subjects.push(s),
            Err(e) => skipped.push(Skipped { backend: choice.name().to_string(), reason: e.to_string() }),
        }
    }
    debug_assert!(subjects.iter().all(|s| s.name != BackendChoice::Auto.name()));
    (subjects, skipped)
}
