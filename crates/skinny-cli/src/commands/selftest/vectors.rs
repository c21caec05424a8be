//! The specification's vectors, through the cipher and through the command
//! line's own path.

use super::cross::run_processor;
use super::error::SelftestError;
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode};
use std::io::Write;

/// The specification's vectors: a copy of the cipher crate's
/// `tests/data/skinny-paper.txt` inside this crate, so that the published
/// package builds on its own (that crate's tests check the copies agree).
const SPEC_VECTORS: &str = include_str!("../../../data/skinny-paper.txt");

/// The six vectors, both directions, each through `Skinny` and through the CLI's
/// own path (ECB without padding on the portable backend). Returns the failures.
pub(super) fn check_spec_vectors(out: &mut impl Write) -> Result<usize, SelftestError> {
    let serial = backend::open(BackendChoice::CpuSerial, &Options::default()).map_err(SelftestError::Reference)?;
    let mut checked = 0;
    let mut failed = Vec::new();
    for line in SPEC_VECTORS.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let bad = || SelftestError::MalformedVector { line: line.to_string() };
        let [name, key, pt, ct] = fields.as_slice() else { return Err(bad()) };
        let variant: Variant = name.parse().map_err(|_| bad())?;
        let key = zeroize::Zeroizing::new(hex::decode(key).map_err(|_| bad())?);
        let (pt, ct) = (hex::decode(pt).map_err(|_| bad())?, hex::decode(ct).map_err(|_| bad())?);
        let cipher = Skinny::new(variant, &key).map_err(|_| bad())?;
        let mut block = pt.clone();
        cipher.encrypt_block(&mut block);
        let enc_ok = block == ct;
        cipher.decrypt_block(&mut block);
        let dec_ok = block == pt;
        let ecb_ok =
            run_processor(&cipher, Mode::Ecb, Direction::Encrypt, None, false, serial.as_ref(), &pt, &[pt.len()])
                .is_ok_and(|out| out == ct);
        checked += 1;
        if !(enc_ok && dec_ok && ecb_ok) {
            failed.push(variant);
            writeln!(out, "mismatch: spec vector {variant}: encrypt {enc_ok}, decrypt {dec_ok}, ecb {ecb_ok}")
                .map_err(SelftestError::Output)?;
        }
    }
    if checked != 6 {
        return Err(SelftestError::VectorCount { found: checked });
    }
    writeln!(out, "spec vectors: {}/{checked} ok (encrypt, decrypt, ecb)", checked - failed.len())
        .map_err(SelftestError::Output)?;
    Ok(failed.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_vectors_all_pass() {
        let mut out = Vec::new();
        assert_eq!(check_spec_vectors(&mut out).unwrap(), 0);
        assert!(String::from_utf8(out).unwrap().contains("spec vectors: 6/6 ok"));
    }
}
