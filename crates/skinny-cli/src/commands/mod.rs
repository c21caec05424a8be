//! One module per subcommand (bench lives in its own folder).

pub mod crypt;
pub mod hash;
pub mod info;
pub mod keygen;
pub mod lab;
pub mod seal;
pub mod seal_args;
pub mod seal_errors;
pub mod seal_keys;
pub mod seal_terminal;
pub mod selftest;
