//! SVG text: escaping, an estimate of how wide a text is drawn, wrapping to a
//! width, the caption block and the document around the charts.

use std::fmt::Write as _;

/// The width of every chart document, px.
pub const WIDTH: f64 = 960.0;
/// Space kept free at the left and right edges of the document, px.
pub const MARGIN: f64 = 10.0;
/// The caption's font size, px.
const CAPTION_FONT: f64 = 11.0;
/// The caption's line height, px.
const CAPTION_LINE: f64 = 14.0;

/// Text escaped for SVG/XML content and attributes.
pub fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

/// Estimated width of `s` drawn at `size` px, from advance widths close to
/// those of DejaVu Sans, the widest of the usual sans-serif fallbacks: a box
/// sized from it holds the text in Helvetica or Arial as well.
pub fn text_width(s: &str, size: f64) -> f64 {
    s.chars().map(advance).sum::<f64>() * size
}

/// One character's advance, in em.
fn advance(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '\'' | '|' => 0.28,
        ' ' | '.' | ',' | ':' | ';' | '!' => 0.34,
        'f' | 't' | 'r' | 'I' | '(' | ')' | '[' | ']' | '-' | '/' => 0.41,
        'w' => 0.82,
        'm' | 'M' | 'W' | '%' | '@' => 0.98,
        'A'..='Z' => 0.76,
        '0'..='9' => 0.64,
        _ => 0.62,
    }
}

/// `text` broken into lines that fit `max` px at `size` px: at `; ` where
/// a clause fits a line, else at spaces (a word longer than a line stands
/// alone on its own).
pub fn wrap(text: &str, size: f64, max: f64) -> Vec<String> {
    let fits = |s: &str| text_width(s, size) <= max;
    let mut lines = Vec::new();
    let mut line = String::new();
    for clause in text.split_inclusive("; ") {
        if fits(format!("{line}{clause}").trim_end()) {
            line.push_str(clause);
            continue;
        }
        if !line.trim().is_empty() {
            lines.push(line.trim_end().to_string());
        }
        line.clear();
        for word in clause.split(' ').filter(|w| !w.is_empty()) {
            if !line.is_empty() && !fits(&format!("{line} {word}")) {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if clause.ends_with(' ') && !line.is_empty() {
            line.push(' ');
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// The caption (the machines and builds a chart was measured on): each given
/// line wrapped to the document's width, centred, from `y` down. Returns the
/// markup and the height it takes.
pub fn caption(lines: &[String], y: f64) -> (String, f64) {
    let wrapped: Vec<String> = lines.iter().flat_map(|l| wrap(l, CAPTION_FONT, WIDTH - 2.0 * MARGIN - 20.0)).collect();
    if wrapped.is_empty() {
        return (String::new(), 0.0);
    }
    let mut s = String::new();
    let _ = writeln!(s, "<g class=\"caption\" font-size=\"{CAPTION_FONT}\" fill=\"#555\" text-anchor=\"middle\">");
    for (i, l) in wrapped.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            WIDTH / 2.0,
            y + CAPTION_LINE * (i as f64 + 1.0),
            xml(l)
        );
    }
    s.push_str("</g>\n");
    (s, CAPTION_LINE * wrapped.len() as f64 + 8.0)
}

/// The SVG document: white ground, `body`, `height` px tall.
pub fn document(height: f64, body: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {WIDTH} {height:.0}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    s.push_str(body);
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(xml("a<b & \"c\" 'd'"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;");
    }

    #[test]
    fn widths_grow_with_text_and_size() {
        assert_eq!(text_width("", 12.0), 0.0);
        assert!(text_width("WWW", 12.0) > text_width("iii", 12.0) * 3.0);
        assert!((text_width("ab", 22.0) - 2.0 * text_width("ab", 11.0)).abs() < 1e-9);
    }

    #[test]
    fn long_lines_wrap_at_spaces_within_the_width() {
        let machine = "skinny 0.1.0 (c0dee15), Intel(R) Xeon(R) Processor, 16 CPUs; GPU 0: NVIDIA H200 \
                       (139.8 GiB, compute capability 9.0, 132 SMs, driver CUDA 13.0, NVRTC 13.0)";
        let text = [machine; 3].join(" | ");
        let lines = wrap(&text, 11.0, 900.0);
        assert!(lines.len() >= 3, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 11.0) <= 900.0), "{lines:?}");
        assert_eq!(lines.join(" "), text);
        // A clause that fits is kept whole: the CPU on one line, the GPU on the next.
        assert!(lines[0].ends_with("16 CPUs;") && lines[1].starts_with("GPU 0: NVIDIA H200"), "{lines:?}");
        assert_eq!(wrap("a; b c", 11.0, 900.0), vec!["a; b c"]);
        assert_eq!(wrap("short", 11.0, 900.0), vec!["short"]);
        assert_eq!(wrap("  ", 11.0, 900.0), Vec::<String>::new());
        let (markup, h) = caption(&[text.clone(), "12 runs pooled".into()], 0.0);
        assert_eq!(markup.matches("<text ").count(), lines.len() + 1);
        assert!(h > 14.0 * lines.len() as f64);
        assert!(!markup.contains("textLength"), "never squeezed");
    }
}
