//! Sets `cfg(skinny_unoptimized)` when the crate is built at opt-level 0 (a
//! plain `cargo build` or `cargo test` of a user's crate). There the compiler
//! gives every temporary of every inlined function a stack slot of its own
//! and never reuses one, so the bitsliced rounds, inlined whole as the
//! optimised builds want them, would need megabytes of stack; with the cfg
//! set, the S-boxes, rounds and batch loops are calls instead (see
//! `hazmat::bitsliced::round` and docs/architecture.md, *Stack use*).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(skinny_unoptimized)");
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=skinny_unoptimized");
    }
}
