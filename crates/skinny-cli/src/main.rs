//! `skinny`: the command-line tool.

mod atomic;
mod bench;
mod cli;
mod commands;
mod error;
mod files;
mod keys;
mod progress;

use clap::Parser;
use std::io::Write;

fn main() {
    let mut cli = cli::Cli::parse();
    let result = match &mut cli.command {
        cli::Command::Encrypt(a) => commands::crypt::run(a, skinny_bulk::mode::Direction::Encrypt),
        cli::Command::Decrypt(a) => commands::crypt::run(a, skinny_bulk::mode::Direction::Decrypt),
        cli::Command::Bench(a) => bench::run(a),
        cli::Command::Selftest(a) => commands::selftest::run(a),
        cli::Command::Info => commands::info::run(),
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
