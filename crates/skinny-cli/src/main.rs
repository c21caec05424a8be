//! `skinny`: the command-line tool.

mod atomic;
mod bench;
mod cli;
mod commands;
mod error;
mod files;
mod keys;
mod progress;

use clap::{CommandFactory, Parser};
use std::io::Write;

fn main() {
    let mut cli = cli::Cli::parse();
    let result = match &mut cli.command {
        cli::Command::Encrypt(a) => commands::crypt::run(a, skinny_bulk::mode::Direction::Encrypt),
        cli::Command::Decrypt(a) => commands::crypt::run(a, skinny_bulk::mode::Direction::Decrypt),
        cli::Command::Bench(a) => bench::run(a),
        cli::Command::Selftest(a) => commands::selftest::run(a),
        cli::Command::Info => commands::info::run(),
        cli::Command::Completions { shell } => completions(*shell),
    };
    if let Err(e) = result {
        // The reader of our output went away (`skinny info | head -1`): nobody is
        // left to tell, and it is what they asked for, so end quietly, as most
        // tools do.
        if e.is_broken_pipe() {
            std::process::exit(0);
        }
        // One line, no panic, no backtrace: the message says what to fix. A
        // failing stderr is ignored: there is nowhere else to report it.
        let _ = writeln!(std::io::stderr(), "skinny: {e}");
        std::process::exit(e.exit_code());
    }
}

/// Prints the completion script for `shell`. clap_complete panics when its
/// writer fails, so the script is built in memory and written here, where a
/// write error is an error like any other.
fn completions(shell: clap_complete::Shell) -> Result<(), error::CliError> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cli::Cli::command(), "skinny", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script).and_then(|()| out.flush()).map_err(error::CliError::Output)
}
