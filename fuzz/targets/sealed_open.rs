//! The sealed-file reader: `sealed::open` of arbitrary bytes under the seeds'
//! key must never panic, and must keep the format's promises (see
//! `skinny_fuzz::check_open`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skinny_aead::sealed;
use skinny_fuzz::{check_open, KEY};

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    let result = sealed::open(data, &mut out, &KEY);
    check_open(data, &out, &result);
});
