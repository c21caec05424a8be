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
        // One line, no panic, no backtrace: the message says what to fix.
        eprintln!("skinny: {e}");
        std::process::exit(e.exit_code());
    }
}
