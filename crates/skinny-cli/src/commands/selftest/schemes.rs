//! The schemes' known answers: Romulus-N/-M/-T, SKINNY-AEAD M1-M6 and the
//! three hash functions, from a selection of the official KAT files kept in
//! this crate (`data/kat-selection.txt`; a unit test checks it against the
//! files the library crates test with, where the workspace is at hand).
//!
//! Every AEAD case is sealed and opened through its single-message type
//! (Romulus on every single-block path this CPU has), a tampered tag must
//! fail, and the cases of the schemes the many-message engine serves go
//! through it as one batch on every bitsliced path this CPU has, with and
//! without lockstep groups, and on the GPU where one is usable.

use super::error::SelftestError;
use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_hash::digest::Digest;
use skinny_many::{cpu, Batch, Scheme};
use skinny_romulus::hazmat::{force_single_block_path, Path as SinglePath};
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};
use std::io::Write;

const SELECTION: &str = include_str!("../../../data/kat-selection.txt");

/// The AEAD scheme of a case, read once from its `Scheme` line: one of the
/// products' shared set (the library's names), or Romulus-T.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AeadScheme {
    Shared(Scheme),
    RomulusT,
}

impl AeadScheme {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "romulus-t" => Some(AeadScheme::RomulusT),
            _ => name.parse().ok().map(AeadScheme::Shared),
        }
    }

    fn name(self) -> &'static str {
        match self {
            AeadScheme::Shared(s) => s.name(),
            AeadScheme::RomulusT => "romulus-t",
        }
    }

    fn is_romulus(self) -> bool {
        matches!(self, AeadScheme::RomulusT | AeadScheme::Shared(Scheme::RomulusN | Scheme::RomulusM))
    }
}

/// An AEAD case: `ct` is the ciphertext followed by the tag.
pub(super) struct AeadCase {
    pub(super) scheme: AeadScheme,
    pub(super) key: zeroize::Zeroizing<Vec<u8>>,
    pub(super) nonce: Vec<u8>,
    pub(super) pt: Vec<u8>,
    pub(super) ad: Vec<u8>,
    pub(super) ct: Vec<u8>,
}

/// A hash case.
pub(super) struct HashCase {
    pub(super) scheme: String,
    pub(super) msg: Vec<u8>,
    pub(super) md: Vec<u8>,
}

/// The paragraphs of `text` (a case each, its lines), comments left out: the
/// one split of the selection, for the run and for the test that holds it
/// to the official files.
fn paragraphs(text: &str) -> Vec<Vec<&str>> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    lines.split(|l| l.trim().is_empty()).filter(|p| !p.is_empty()).map(<[&str]>::to_vec).collect()
}

/// The selection, parsed once: every paragraph a case, `Scheme` first.
pub(super) fn cases() -> Result<(Vec<AeadCase>, Vec<HashCase>), SelftestError> {
    cases_in(SELECTION)
}

fn cases_in(text: &str) -> Result<(Vec<AeadCase>, Vec<HashCase>), SelftestError> {
    let (mut aead, mut hash) = (Vec::new(), Vec::new());
    for paragraph in paragraphs(text) {
        let bad = || SelftestError::MalformedVector { line: paragraph.join(" / ") };
        let field = |name: &str| -> Result<&str, SelftestError> {
            paragraph
                .iter()
                .find_map(|l| l.split_once('=').filter(|(k, _)| k.trim() == name).map(|(_, v)| v.trim()))
                .ok_or_else(bad)
        };
        let hex = |name: &str| hex::decode(field(name)?).map_err(|_| bad());
        let scheme = field("Scheme")?;
        if paragraph.iter().any(|l| l.starts_with("MD")) {
            hash.push(HashCase { scheme: scheme.to_string(), msg: hex("Msg")?, md: hex("MD")? });
        } else {
            let scheme = AeadScheme::parse(scheme).ok_or_else(bad)?;
            let key = zeroize::Zeroizing::new(hex("Key")?);
            aead.push(AeadCase { scheme, key, nonce: hex("Nonce")?, pt: hex("PT")?, ad: hex("AD")?, ct: hex("CT")? });
        }
    }
    Ok((aead, hash))
}

/// Seals `c` with `A` and checks the answer, that it opens, and that a
/// flipped tag bit does not.
fn single<A: KeyInit + AeadInOut>(c: &AeadCase) -> bool {
    let Ok(cipher) = A::new_from_slice(&c.key) else { return false };
    let Ok(nonce) = c.nonce.as_slice().try_into() else { return false };
    let mut body = c.pt.clone();
    let Ok(tag) = cipher.encrypt_inout_detached(nonce, &c.ad, InOutBuf::from(&mut body[..])) else { return false };
    let mut sealed = body.clone();
    sealed.extend_from_slice(&tag);
    if sealed != c.ct {
        return false;
    }
    let opened = cipher.decrypt_inout_detached(nonce, &c.ad, InOutBuf::from(&mut body[..]), &tag).is_ok();
    let mut forged = tag.clone();
    forged[0] ^= 1;
    let mut again = sealed[..c.pt.len()].to_vec();
    let refused = cipher.decrypt_inout_detached(nonce, &c.ad, InOutBuf::from(&mut again[..]), &forged).is_err();
    opened && body == c.pt && refused
}

fn single_any(c: &AeadCase) -> bool {
    use skinny_aead::Member;
    match c.scheme {
        AeadScheme::Shared(Scheme::RomulusN) => single::<RomulusN>(c),
        AeadScheme::Shared(Scheme::RomulusM) => single::<RomulusM>(c),
        AeadScheme::RomulusT => single::<RomulusT>(c),
        AeadScheme::Shared(Scheme::SkinnyAead(m)) => match m {
            Member::M1 => single::<SkinnyAeadM1>(c),
            Member::M2 => single::<SkinnyAeadM2>(c),
            Member::M3 => single::<SkinnyAeadM3>(c),
            Member::M4 => single::<SkinnyAeadM4>(c),
            Member::M5 => single::<SkinnyAeadM5>(c),
            Member::M6 => single::<SkinnyAeadM6>(c),
        },
    }
}

fn hash_any(c: &HashCase) -> Option<bool> {
    let md = match c.scheme.as_str() {
        "romulus-h" => RomulusH::digest(&c.msg).to_vec(),
        "skinny-tk2-hash" => skinny_hash::SkinnyTk2Hash::digest(&c.msg).to_vec(),
        "skinny-tk3-hash" => skinny_hash::SkinnyTk3Hash::digest(&c.msg).to_vec(),
        _ => return None,
    };
    Some(md == c.md)
}

/// Counts of one line of the report.
#[derive(Default)]
struct Line {
    ok: usize,
    failed: Vec<String>,
}

impl Line {
    fn record(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if ok {
            self.ok += 1;
        } else {
            self.failed.push(what());
        }
    }

    /// Writes `label: ok/total` and a line per failure; returns the failures.
    fn report(self, out: &mut impl Write, label: &str) -> Result<usize, SelftestError> {
        let total = self.ok + self.failed.len();
        writeln!(out, "{label}: {}/{total} ok", self.ok).map_err(SelftestError::Output)?;
        for f in &self.failed {
            writeln!(out, "mismatch: {label}: {f}").map_err(SelftestError::Output)?;
        }
        Ok(self.failed.len())
    }
}

/// The schemes' known answers through every path this machine has; returns
/// the failures (each also a `mismatch:` line of the report).
pub(super) fn check_schemes(out: &mut impl Write) -> Result<usize, SelftestError> {
    let (aead, hash) = cases()?;
    let mut failures = 0;
    // Single-message types; Romulus on each single-block path, then back on
    // the library's own choice.
    let mut line = Line::default();
    for c in &aead {
        let ok = single_any(c);
        line.record(ok, || format!("{} case of {} bytes, {} AD", c.scheme.name(), c.pt.len(), c.ad.len()));
    }
    failures += line.report(out, "aead known answers (Romulus-N/-M/-T, SKINNY-AEAD M1-M6, single messages)")?;
    for path in SinglePath::ALL.into_iter().filter(|p| p.is_available()) {
        if force_single_block_path(Some(path)).is_err() {
            continue;
        }
        let mut line = Line::default();
        for c in aead.iter().filter(|c| c.scheme.is_romulus()) {
            line.record(single_any(c), || format!("{} case of {} bytes", c.scheme.name(), c.pt.len()));
        }
        failures += line.report(out, &format!("romulus known answers, single-block path {}", path.name()))?;
    }
    // Back to the library's own choice whatever happened above.
    let _ = force_single_block_path(None);
    let mut line = Line::default();
    for c in &hash {
        line.record(hash_any(c) == Some(true), || format!("{} of {} bytes", c.scheme, c.msg.len()));
    }
    failures += line.report(out, "hash known answers (Romulus-H, SKINNY-tk2-Hash, SKINNY-tk3-Hash)")?;
    failures += check_many(out, &aead)?;
    Ok(failures)
}

/// The cases of every scheme the many-message engine serves, one batch a
/// scheme, sealed and opened on each bitsliced path and on the GPU.
fn check_many(out: &mut impl Write, aead: &[AeadCase]) -> Result<usize, SelftestError> {
    let batches: Vec<(Scheme, Vec<&AeadCase>)> = Scheme::ALL
        .into_iter()
        .map(|s| (s, aead.iter().filter(|c| c.scheme == AeadScheme::Shared(s)).collect::<Vec<_>>()))
        .filter(|(_, cs)| !cs.is_empty())
        .collect();
    let mut failures = 0;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().ok();
    for path in skinny::hazmat::bitsliced::Path::ALL.into_iter().filter(|p| p.is_available()) {
        let Some(pool) = pool.as_ref() else { break };
        for lockstep in [true, false] {
            let tuning = cpu::Tuning { lockstep, path };
            let mut line = Line::default();
            for (scheme, cases) in &batches {
                let (sealing, opening) = batch_pair(*scheme, cases);
                let (Ok(sealing), Ok(opening)) = (sealing, opening) else {
                    line.record(false, || format!("{scheme}: the batch would not build"));
                    continue;
                };
                let sealed = cpu::seal_tuned(pool, &sealing, tuning);
                let opened = cpu::open_tuned(pool, &opening, tuning);
                record_batch(&mut line, *scheme, cases, &sealed, &opened);
            }
            let groups = if lockstep { "with lockstep groups" } else { "lanes only" };
            failures += line.report(out, &format!("many-message engine, {} path, {groups}", path.name()))?;
        }
    }
    #[cfg(feature = "cuda")]
    {
        failures += check_many_gpu(out, &batches)?;
    }
    Ok(failures)
}

/// The GPU engine on GPU 0, where one is usable (a `skip:` line otherwise).
#[cfg(feature = "cuda")]
fn check_many_gpu(out: &mut impl Write, batches: &[(Scheme, Vec<&AeadCase>)]) -> Result<usize, SelftestError> {
    let gpu = match skinny_many::gpu::GpuMany::new(0) {
        Ok(g) => g,
        Err(e) => {
            writeln!(out, "skip: many-message engine on the GPU: {e}").map_err(SelftestError::Output)?;
            return Ok(0);
        }
    };
    let mut line = Line::default();
    for (scheme, cases) in batches {
        let (Ok(sealing), Ok(opening)) = batch_pair(*scheme, cases) else {
            line.record(false, || format!("{scheme}: the batch would not build"));
            continue;
        };
        match (gpu.seal(&sealing), gpu.open(&opening)) {
            (Ok(sealed), Ok(opened)) => record_batch(&mut line, *scheme, cases, &sealed, &opened),
            (Err(e), _) | (_, Err(e)) => line.record(false, || format!("{scheme}: {e}")),
        }
    }
    line.report(out, "many-message engine on the GPU")
}

/// The batch that seals `cases` and the one that opens their answers.
fn batch_pair(
    scheme: Scheme,
    cases: &[&AeadCase],
) -> (Result<Batch, skinny_many::BatchError>, Result<Batch, skinny_many::BatchError>) {
    let build = |sealing: bool| {
        let mut b = Batch::new(scheme);
        for c in cases {
            b.push(&c.key, &c.nonce, &c.ad, if sealing { &c.pt } else { &c.ct })?;
        }
        Ok(b)
    };
    (build(true), build(false))
}

fn record_batch(
    line: &mut Line,
    scheme: Scheme,
    cases: &[&AeadCase],
    sealed: &skinny_many::Output,
    opened: &skinny_many::Output,
) {
    for (i, c) in cases.iter().enumerate() {
        let ok = sealed.message(i).is_ok_and(|m| m == c.ct.as_slice())
            && opened.message(i).is_ok_and(|m| m == c.pt.as_slice());
        line.record(ok, || format!("{scheme} case of {} bytes, {} AD", c.pt.len(), c.ad.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_known_answer_passes_on_every_path_here() {
        let mut out = Vec::new();
        let failures = check_schemes(&mut out).unwrap();
        let report = String::from_utf8(out).unwrap();
        assert_eq!(failures, 0, "{report}");
        assert!(
            report.contains("aead known answers (Romulus-N/-M/-T, SKINNY-AEAD M1-M6, single messages): 324/324 ok"),
            "{report}"
        );
        assert!(
            report.contains("hash known answers (Romulus-H, SKINNY-tk2-Hash, SKINNY-tk3-Hash): 36/36 ok"),
            "{report}"
        );
        assert!(
            report.contains("many-message engine, portable-u64 path, with lockstep groups: 288/288 ok"),
            "{report}"
        );
    }

    #[test]
    fn a_wrong_answer_is_a_mismatch() {
        let (mut aead, mut hash) = cases().unwrap();
        aead[5].ct[0] ^= 1;
        assert!(!single_any(&aead[5]));
        hash[3].md[31] ^= 0x80;
        assert_eq!(hash_any(&hash[3]), Some(false));
        let unknown = "Scheme = rot13\nKey = 00\nNonce = 00\nPT = \nAD = \nCT = 00\n";
        assert!(matches!(cases_in(unknown), Err(SelftestError::MalformedVector { .. })));
        let short = "Scheme = m1\nKey = 00\nNonce = 00\nPT = \nAD = \nCT = 00\n";
        assert_eq!(cases_in(short).unwrap().0[0].scheme, AeadScheme::Shared(Scheme::M1));
    }

    /// Every case of the selection is a case of the official files the
    /// library crates test with, unchanged (inside the workspace; the
    /// published package has no sibling crates).
    #[test]
    fn the_selection_is_copied_from_the_official_files() {
        let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let source = |scheme: &str| -> Option<std::path::PathBuf> {
            let rel = match scheme {
                "romulus-n" | "romulus-m" | "romulus-t" | "romulus-h" => {
                    format!("skinny-romulus/tests/kat/{scheme}.txt")
                }
                "skinny-tk2-hash" => "skinny-hash/tests/kat/skinnyhashtk2/LWC_HASH_KAT_256.txt".into(),
                "skinny-tk3-hash" => "skinny-hash/tests/kat/skinnyhashtk3/LWC_HASH_KAT_256.txt".into(),
                m => {
                    format!("skinny-aead/tests/data/SKINNY-AEAD-{}.txt", m.strip_prefix("skinny-aead-")?.to_uppercase())
                }
            };
            Some(crates.join(rel))
        };
        if !crates.join("skinny-romulus/tests/kat").is_dir() {
            println!("skip: the official KAT files are not beside this crate (not in the workspace)");
            return;
        }
        let mut checked = 0;
        for paragraph in paragraphs(SELECTION) {
            let scheme = paragraph[0].strip_prefix("Scheme = ").unwrap();
            let file = std::fs::read_to_string(source(scheme).unwrap()).unwrap();
            // Lines compared without trailing blanks or carriage returns
            // (`PT = ` of an empty plaintext).
            let case: Vec<&str> = paragraph[1..].iter().map(|l| l.trim_end()).collect();
            let file = file.replace('\r', "");
            let found = file.split("\n\n").any(|p| p.trim().lines().map(str::trim_end).eq(case.iter().copied()));
            assert!(found, "{scheme}: {case:?}");
            checked += 1;
        }
        assert_eq!(checked, 360);
    }
}
