//! The lab-report target's input: up to three report texts, split on the
//! ASCII record separator (0x1E), which JSON text cannot hold unescaped.

use skinny_lab::Findings;

/// What separates the reports in one fuzz input.
pub const SEPARATOR: u8 = 0x1e;

/// Reads each report as `skinny lab merge` does (UTF-8 text, then JSON) and
/// merges those that read (up to three); checks that a merge's findings
/// write as JSON that reads back.
///
/// # Panics
/// When a library call panics, or a merged report does not read back.
pub fn read_and_merge(data: &[u8]) {
    let mut parts = Vec::new();
    for text in data.split(|&b| b == SEPARATOR).take(3) {
        let Ok(text) = std::str::from_utf8(text) else { continue };
        if let Ok(part) = serde_json::from_str::<Findings>(text) {
            parts.push(part);
        }
    }
    if let Ok(merged) = Findings::merge(&parts, "fuzz") {
        let json = serde_json::to_string(&merged).expect("findings always serialize");
        if let Err(e) = serde_json::from_str::<Findings>(&json) {
            panic!("a merged report does not read back ({e}): {json}");
        }
    }
}
