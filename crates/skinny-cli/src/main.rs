//! `skinny`: the command-line tool.
//!
//! Unix only: outputs go to unnamed temporary files (`O_TMPFILE`, or created
//! and unlinked at once) that signal handlers clean up, and stdout is checked
//! through its file descriptor. Elsewhere the build stops with one message
//! (every item below is `cfg(unix)`, so that it is the only one).

#[cfg(not(unix))]
compile_error!(
    "the `skinny` command builds on Unix only (it is tested on Linux): it writes outputs through \
     unnamed temporary files (O_TMPFILE on Linux), removes them from signal handlers (SIGINT, \
     SIGTERM, SIGHUP, ...) and checks stdout through its file descriptor (libc). The library \
     crates (skinny, skinny-aead, skinny-romulus, skinny-hash, skinny-bulk, ...) build on this target."
);
#[cfg(not(unix))]
fn main() {}

#[cfg(unix)]
mod args;
#[cfg(unix)]
mod atomic;
#[cfg(all(unix, feature = "bench"))]
mod bench;
#[cfg(unix)]
mod cli;
#[cfg(unix)]
mod closed_stdout;
#[cfg(unix)]
mod commands;
#[cfg(unix)]
mod error;
#[cfg(unix)]
mod files;
#[cfg(unix)]
mod keys;
#[cfg(unix)]
mod passphrase;
#[cfg(unix)]
mod progress;
#[cfg(unix)]
mod signals;
#[cfg(unix)]
mod usage_error;

#[cfg(unix)]
use clap::{CommandFactory, Parser};
#[cfg(unix)]
use std::io::Write;

#[cfg(unix)]
fn main() {
    signals::ignore_file_size_limit();
    // Commands without --threads work on rayon's global pool: give its threads
    // the stack the workers are sized for, not whatever RUST_MIN_STACK says
    // (64 KiB there aborted a 10 MB seal). A pool that cannot start is
    // reported by the first command that needs it.
    let _ = rayon::ThreadPoolBuilder::new().stack_size(skinny_exec::WORKER_STACK_BYTES).build_global();
    let mut cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => clap_failed(&e),
    };
    let result = match &mut cli.command {
        cli::Command::Encrypt(a) => commands::crypt::run(a, skinny_bulk::mode::Direction::Encrypt),
        cli::Command::Decrypt(a) => commands::crypt::run(a, skinny_bulk::mode::Direction::Decrypt),
        cli::Command::Seal(a) => commands::seal::seal(a),
        cli::Command::Open(a) => commands::seal::open(a),
        cli::Command::Keygen(a) => commands::keygen::run(a),
        // `hash` checks stdout itself: its words offer no `-o` (it has none).
        cli::Command::Hash(a) => commands::hash::run(a),
        #[cfg(feature = "bench")]
        cli::Command::Bench(a) => {
            // A bench that writes files still has something to deliver without stdout.
            let files = a.csv.is_some() || a.json.is_some() || a.plot.is_some();
            if files {
                bench::run(a)
            } else {
                stdout_open().and_then(|()| bench::run(a))
            }
        }
        cli::Command::Selftest(a) => stdout_open().and_then(|()| commands::selftest::run(a)),
        cli::Command::Info => stdout_open().and_then(|()| commands::info::run()),
        cli::Command::Lab(a) => stdout_open().and_then(|()| commands::lab::run(a)),
        cli::Command::Completions { shell } => stdout_open().and_then(|()| completions(*shell)),
    };
    if let Err(e) = result {
        // One line, no panic, no backtrace: the message says what to fix. A
        // failing stderr is ignored: there is nowhere else to report it.
        if !matches!(e, error::CliError::Reported) {
            let shown = error::shown(command_name().as_deref(), &e.to_string());
            let _ = writeln!(std::io::stderr(), "skinny: {shown}");
        }
        std::process::exit(e.exit_code());
    }
}

#[cfg(unix)]
/// Reports a command line clap refused, in one line, and exits. clap quotes
/// the offending value (`invalid value '<it>' for '--cipher'`), and a key
/// pasted into the wrong place would be printed back to the terminal and its
/// scrollback, so anything that looks like key material is masked first.
fn clap_failed(e: &clap::Error) -> ! {
    if !e.use_stderr() {
        // --help and --version: nothing of the user's is quoted.
        e.exit();
    }
    let text = e.render().to_string();
    // `skinny` or `skinny seal` alone: the help asked for by omission.
    let shown = if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        text
    } else {
        usage_error::one_line(&text, &command_given())
    };
    let _ = std::io::stderr().write_all(error::shown(command_name().as_deref(), &shown).as_bytes());
    std::process::exit(e.exit_code());
}

#[cfg(unix)]
/// `skinny` and the command named first on the command line, if it is one
/// (`skinny seal`), for a refusal's pointer to `--help`.
fn command_given() -> String {
    command_name().map_or_else(|| "skinny".to_string(), |c| format!("skinny {c}"))
}

#[cfg(unix)]
/// The command named first on the command line (its own name where an alias
/// was given), if it is one.
fn command_name() -> Option<String> {
    let first = std::env::args_os().nth(1)?;
    let first = first.to_str()?;
    cli::Cli::command()
        .get_subcommands()
        .find(|c| c.get_name() == first || c.get_all_aliases().any(|n| n == first))
        .map(|c| c.get_name().to_string())
}

#[cfg(unix)]
/// For commands whose whole result goes to stdout: a closed stdout is an error.
fn stdout_open() -> Result<(), error::CliError> {
    if closed_stdout::stdout_was_closed() {
        Err(error::stdout_closed())
    } else {
        Ok(())
    }
}

#[cfg(unix)]
/// Prints the completion script for `shell`. clap_complete panics when its
/// writer fails, so the script is built in memory and written here, where a
/// write error is an error like any other.
fn completions(shell: clap_complete::Shell) -> Result<(), error::CliError> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cli::Cli::command(), "skinny", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script).and_then(|()| out.flush()).map_err(error::CliError::Output)
}
