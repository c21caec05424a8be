//! Lab reports and merge: up to three report texts (see
//! `skinny_fuzz::lab`), read as `skinny lab merge` reads them and merged by
//! `Findings::merge`; nothing may panic, and a merged report must read back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skinny_fuzz::lab::read_and_merge(data));
