//! The repository README's command-line quick starts, run as written with the
//! binary under test first on PATH: the file one whole (the opened file must
//! equal the original), the GPU one as far as a machine without a GPU goes
//! (`info`; the other commands' flags checked through `--help`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The lines of the first ```sh block after the paragraph that starts with
/// `lead`, without comments.
fn block(readme: &str, lead: &str) -> Vec<String> {
    readme
        .lines()
        .skip_while(|l| !l.starts_with(lead))
        .skip_while(|l| *l != "```sh")
        .skip(1)
        .take_while(|l| *l != "```")
        .map(|l| l.split(" #").next().unwrap_or(l).trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn readme() -> Option<String> {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).ok()
}

/// A directory whose `skinny` is the binary under test.
fn bin_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let bin = std::env::var_os("SKINNY_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_skinny")), PathBuf::from);
    std::os::unix::fs::symlink(bin, dir.path().join("skinny")).unwrap();
    let path = dir.path().to_path_buf();
    (dir, path)
}

fn sh(line: &str, cwd: &Path, bin: &Path) -> std::process::Output {
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    Command::new("sh").arg("-c").arg(line).current_dir(cwd).env("PATH", path).output().unwrap()
}

#[test]
fn the_file_quick_start_runs_as_written() {
    let Some(readme) = readme() else {
        println!("skip: no repository README beside this crate");
        return;
    };
    let lines = block(&readme, "**Encrypt a file**");
    assert!(lines.len() >= 4, "{lines:?}");
    let (_keep, bin) = bin_dir();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("notes.txt"), b"meeting at noon\n").unwrap();
    // The install line builds the tool: here it is built already.
    for line in lines.iter().filter(|l| !l.starts_with("cargo ")) {
        let out = sh(line, work.path(), &bin);
        assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let opened = std::fs::read(work.path().join("notes-opened.txt")).unwrap();
    assert_eq!(opened, b"meeting at noon\n");
}

#[test]
fn the_gpu_quick_start_runs_here_as_far_as_it_can() {
    let Some(readme) = readme() else {
        println!("skip: no repository README beside this crate");
        return;
    };
    let lines = block(&readme, "**Use a GPU");
    assert!(lines.iter().any(|l| l == "skinny info"), "{lines:?}");
    let (_keep, bin) = bin_dir();
    let work = tempfile::tempdir().unwrap();
    for line in &lines {
        // `info` runs; the long ones show that their flags exist.
        let line = if line == "skinny info" { line.clone() } else { format!("{line} --help") };
        let out = sh(&line, work.path(), &bin);
        assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
