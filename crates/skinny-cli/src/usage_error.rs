//! clap's refusals of a command line in one line, as every other error of the
//! command is shown: its message, its tips, and where to read more.
//!
//! clap lays an error out over several lines (`error: ...`, indented detail
//! such as `[possible values: ...]` or the missing arguments, `tip: ...`,
//! `Usage: ...`, `For more information, try '--help'.`); the words are kept,
//! the layout is not. The line still starts with clap's `error: `.

/// `text`, clap's rendered error, as one line ending in a newline; `command`
/// (`skinny seal`) is where to read more when clap's text names none.
pub fn one_line(text: &str, command_given: &str) -> String {
    let mut message: Vec<&str> = Vec::new();
    let mut tips: Vec<&str> = Vec::new();
    let mut command = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(tip) = line.strip_prefix("tip: ") {
            tips.push(tip);
        } else if let Some(usage) = line.strip_prefix("Usage: ") {
            // `skinny seal [OPTIONS] [INPUT]`: the words before the first
            // option or argument name the command.
            let words: Vec<&str> = usage.split_whitespace().take_while(|w| !w.starts_with(['[', '<', '-'])).collect();
            command = Some(words.join(" "));
        } else if !line.starts_with("For more information") {
            message.push(line);
        }
    }
    let mut out = message.join(" ");
    if !out.starts_with("error: ") {
        out.insert_str(0, "error: ");
    }
    for tip in tips {
        out.push_str("; tip: ");
        out.push_str(tip);
    }
    let command = command.filter(|c| !c.is_empty()).unwrap_or_else(|| command_given.to_string());
    out.push_str(&format!("; see '{command} --help'\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn clap_layouts_become_one_line() {
        let unknown = "error: unexpected argument '--foo' found\n\n  tip: to pass '--foo' as a value, use '-- \
                       --foo'\n\nUsage: skinny seal [OPTIONS] [INPUT]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(unknown, "skinny"),
            "error: unexpected argument '--foo' found; tip: to pass '--foo' as a value, use '-- --foo'; see 'skinny \
             seal --help'\n"
        );
        let value = "error: invalid value 'x' for '--mode <MODE>'\n  [possible values: ecb, ctr]\n\n  tip: a similar \
                     value exists: 'ctr'\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(value, "skinny encrypt"),
            "error: invalid value 'x' for '--mode <MODE>' [possible values: ecb, ctr]; tip: a similar value exists: \
             'ctr'; see 'skinny encrypt --help'\n"
        );
        let missing = "error: the following required arguments were not provided:\n  <SHELL>\n\nUsage: skinny \
                       completions <SHELL>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(missing, "skinny"),
            "error: the following required arguments were not provided: <SHELL>; see 'skinny completions --help'\n"
        );
    }
}
