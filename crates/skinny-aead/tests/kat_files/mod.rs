//! The NIST LWC KAT files of tests/data (tests/data/README.md says where they
//! come from), parsed strictly; shared by the CPU (kat.rs) and GPU (gpu.rs)
//! known-answer tests.

/// Cases in every NIST LWC AEAD KAT file: (PT, AD) lengths 0..=32 each.
pub const CASES: usize = 1089;

#[derive(Debug, Default)]
pub struct Case {
    pub count: usize,
    pub key: Vec<u8>,
    pub nonce: Vec<u8>,
    pub pt: Vec<u8>,
    pub ad: Vec<u8>,
    pub ct: Vec<u8>,
}

/// Parses a KAT file; panics on anything unexpected (a missing field, a
/// duplicate, bad hex, counts out of order).
pub fn parse(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut seen = 0u8;
    let mut case = Case::default();
    for (n, line) in text.lines().map(str::trim).enumerate() {
        if line.is_empty() {
            continue;
        }
        let (name, value) = line.split_once('=').unwrap_or_else(|| panic!("line {}: no '='", n + 1));
        let (name, value) = (name.trim(), value.trim());
        let bit = match name {
            "Count" => 1,
            "Key" => 2,
            "Nonce" => 4,
            "PT" => 8,
            "AD" => 16,
            "CT" => 32,
            _ => panic!("line {}: unknown field {name}", n + 1),
        };
        assert_eq!(seen & bit, 0, "line {}: {name} twice in one case", n + 1);
        if name == "Count" {
            assert_eq!(seen, 0, "line {}: Count inside a case", n + 1);
            case.count = value.parse().expect("count");
        } else {
            let bytes = hex::decode(value).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
            match name {
                "Key" => case.key = bytes,
                "Nonce" => case.nonce = bytes,
                "PT" => case.pt = bytes,
                "AD" => case.ad = bytes,
                _ => case.ct = bytes,
            }
        }
        seen |= bit;
        if seen == 63 {
            assert_eq!(case.count, cases.len() + 1, "counts in order");
            cases.push(core::mem::take(&mut case));
            seen = 0;
        }
    }
    assert_eq!(seen, 0, "a case is cut short at the end of the file");
    cases
}

/// All cases of member `member` ("M1".."M6").
pub fn load(member: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/SKINNY-AEAD-{member}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = parse(&text);
    assert_eq!(cases.len(), CASES, "{path}: case count");
    cases
}
