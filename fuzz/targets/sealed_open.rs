//! The sealed-file reader: `skinny_seal::open` of arbitrary bytes under the
//! seeds' key (a version-1 file's raw key) must never panic, and must keep
//! the format's promises (see `skinny_fuzz::check_open`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skinny_fuzz::{check_open, open};

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    let result = open(data, &mut out);
    check_open(data, &out, &result);
});
