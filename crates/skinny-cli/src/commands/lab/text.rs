//! Text from reports made safe for a terminal: what a report holds is shown
//! as written, but a control character (an escape sequence's start, a
//! carriage return, a bell) is shown escaped instead of acting on the screen.

/// `s` with every control character escaped as Rust writes it (`\u{1b}`,
/// `\r`, `\n`): one line, inert on a terminal.
pub(super) fn printable(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(printable("gpu x2"), "gpu x2");
        assert_eq!(printable("a\u{1b}[2Jb\r\n\u{7}\u{9b}"), "a\\u{1b}[2Jb\\r\\n\\u{7}\\u{9b}");
        assert_eq!(printable("é ü"), "é ü");
    }
}
