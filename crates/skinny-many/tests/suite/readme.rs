//! The repository README's Rust quick start, run as written: the code between
//! the markers below is the README's block, which the second test checks
//! line for line (inside the workspace, where the README is).

#[test]
fn the_readme_quick_start_runs() {
    // README begin
    use skinny_romulus::aead::{Aead, KeyInit};
    use skinny_romulus::RomulusN;

    let cipher = RomulusN::new(&[7u8; 16].into());
    let sealed = cipher.encrypt(&[1u8; 16].into(), b"one message".as_ref()).unwrap();
    assert_eq!(cipher.decrypt(&[1u8; 16].into(), sealed.as_slice()).unwrap(), b"one message");

    // Many messages, each with its own key and nonce, in one call on every core.
    let mut batch = skinny_many::Batch::new(skinny_many::Scheme::RomulusN);
    for i in 0..1000u32 {
        batch.push(&[i as u8; 16], &[0u8; 16], b"", &i.to_le_bytes()).unwrap();
    }
    let out = skinny_many::seal(&skinny_many::Placement::default(), &batch).unwrap();
    assert_eq!(out.ok_count(), 1000);
    // README end
}

#[test]
fn the_readme_shows_this_code() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Ok(readme) = std::fs::read_to_string(root.join("README.md")) else {
        println!("skip: no repository README beside this crate");
        return;
    };
    let block: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("**Use the library**"))
        .skip_while(|l| *l != "```rust")
        .skip(1)
        .take_while(|l| *l != "```")
        .collect();
    let this = include_str!("readme.rs");
    let code: Vec<&str> = this
        .lines()
        .skip_while(|l| l.trim() != "// README begin")
        .skip(1)
        .take_while(|l| l.trim() != "// README end")
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect();
    assert!(!block.is_empty(), "no Rust quick start in the README");
    assert_eq!(block, code, "the README's quick start and this test differ");
}
