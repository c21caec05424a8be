//! The guard's output: a row per ratio as it is measured, one line per failed
//! ratio at the end, and the JSON record of the whole run.

use crate::machine::Machine;
use crate::measure::{Comparison, Settings};
use crate::record::Record;
use std::fmt::Write as _;

/// The header of the rows [`print_row`] prints.
pub fn print_header(machine: &Machine, settings: Settings) {
    println!("speed guard: {}", machine.summary());
    println!(
        "{} pairs of {} ms samples a ratio ({}), median of the pair ratios (q1-q3); a ratio below its threshold is measured again, twice the pairs, in up to {} fresh processes",
        settings.pairs,
        settings.sample.as_secs_f64() * 1e3,
        settings.clock.name(),
        crate::retry::FRESH_PROCESSES
    );
    println!("{:>8} {:>9} {:>15}  ratio", "value", "threshold", "q1-q3");
}

pub fn print_row(r: &Record) {
    let c = r.retries.last().map_or(r.first, |(c, _)| *c);
    let mark = if r.passed() { "" } else { "  FAILED" };
    let again = if r.retries.is_empty() {
        String::new()
    } else {
        let all: Vec<String> = std::iter::once(r.first.median)
            .chain(r.retries.iter().map(|(c, _)| c.median))
            .map(|m| format!("{m:.2}"))
            .collect();
        format!(" (measured {})", all.join(", "))
    };
    println!(
        "{:>8.2} {:>9} {:>15}  {}{again}{mark}",
        r.value(),
        fmt_threshold(r.limit.threshold),
        format!("{:.2}-{:.2}", c.quartiles.0, c.quartiles.1),
        r.name
    );
}

/// The line CI shows for a failed ratio.
pub fn failure_line(r: &Record) -> String {
    format!("speed guard: {} = {:.2}, threshold {}", r.name, r.value(), fmt_threshold(r.limit.threshold))
}

fn fmt_threshold(t: f64) -> String {
    // Thresholds are round numbers; print them as written in the source.
    let s = format!("{t:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The whole run as JSON: machine, settings, every ratio with its threshold
/// and floor, what was skipped, and the run's length.
pub fn json(machine: &Machine, settings: Settings, records: &[Record], skipped: &[String], seconds: f64) -> String {
    let mut o = String::from("{\n");
    let _ = writeln!(o, "  \"tool\": \"speed-guard\",");
    let _ = writeln!(o, "  \"machine\": {{");
    let _ = writeln!(o, "    \"cpu_model\": {},", quote(&machine.cpu_model));
    let _ = writeln!(o, "    \"cpu_family_model\": {},", quote(&machine.cpu_family_model));
    let isa: Vec<String> = machine.isa.iter().map(|(name, on)| format!("{}: {on}", quote(name))).collect();
    let _ = writeln!(o, "    \"isa\": {{{}}},", isa.join(", "));
    let _ = writeln!(o, "    \"cores\": {},", machine.cores);
    let _ = writeln!(o, "    \"commit\": {}", quote(machine.commit));
    let _ = writeln!(o, "  }},");
    let _ = writeln!(
        o,
        "  \"settings\": {{\"clock\": {}, \"pairs\": {}, \"sample_ms\": {}}},",
        quote(settings.clock.name()),
        settings.pairs,
        number(settings.sample.as_secs_f64() * 1e3)
    );
    let _ = writeln!(o, "  \"seconds\": {},", number(seconds));
    let _ = writeln!(o, "  \"passed\": {},", records.iter().all(Record::passed));
    let _ = writeln!(o, "  \"ratios\": [");
    for (i, r) in records.iter().enumerate() {
        let _ = write!(
            o,
            "    {{\"name\": {}, \"unit\": {}, \"value\": {}, \"threshold\": {}, \"passed\": {}, \"floor\": {}, \"first\": {}, \"retries\": [{}]}}",
            quote(&r.name),
            quote(r.unit),
            number(r.value()),
            number(r.limit.threshold),
            r.passed(),
            quote(&squeeze(r.limit.floor)),
            comparison(&r.first, None),
            r.retries.iter().map(|(c, fresh)| comparison(c, Some(*fresh))).collect::<Vec<_>>().join(", ")
        );
        o.push_str(if i + 1 < records.len() { ",\n" } else { "\n" });
    }
    let _ = writeln!(o, "  ],");
    let skipped: Vec<String> = skipped.iter().map(|s| quote(s)).collect();
    let _ = writeln!(o, "  \"skipped\": [{}]", skipped.join(", "));
    o.push_str("}\n");
    o
}

/// One measurement; a retry also says whether it ran in a fresh process.
fn comparison(c: &Comparison, fresh_process: Option<bool>) -> String {
    let fresh = fresh_process.map_or(String::new(), |f| format!(", \"fresh_process\": {f}"));
    format!(
        "{{\"median\": {}, \"q1\": {}, \"q3\": {}, \"best_over_best\": {}, \"best_rates_per_s\": [{}, {}], \"pairs\": {}{fresh}}}",
        number(c.median),
        number(c.quartiles.0),
        number(c.quartiles.1),
        number(c.best),
        number(c.best_rates.0),
        number(c.best_rates.1),
        c.pairs
    )
}

/// A JSON number (JSON has no NaN or infinity: those become null).
fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "null".into()
    }
}

/// The floors are written over several source lines: one space between words.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A JSON string.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            '\n' => q.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(q, "\\u{:04x}", c as u32);
            }
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_numbers_are_valid_json() {
        assert_eq!(quote("a \"b\"\\\n\u{1}"), "\"a \\\"b\\\"\\\\\\n\\u0001\"");
        assert_eq!(number(f64::NAN), "null");
        assert_eq!(number(2.5), "2.5000");
        assert_eq!(fmt_threshold(2.0), "2");
        assert_eq!(fmt_threshold(0.25), "0.25");
        assert_eq!(squeeze("a  b\n   c"), "a b c");
    }
}
