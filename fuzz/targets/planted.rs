//! A planted bug behind a 4-byte magic compare: found in seconds only if the
//! comparison tracing and coverage feedback work.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() >= 6 && &data[..4] == b"SKN!" && data[4] == b'o' && data[5] == b'k' {
        panic!("planted bug reached");
    }
});
