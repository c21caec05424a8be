//! One module per subcommand (bench lives in its own folder).

pub mod crypt;
pub mod hash;
pub mod info;
pub mod keygen;
pub mod lab;
pub mod seal;
pub mod selftest;
