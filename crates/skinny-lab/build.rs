//! Embeds the git commit the crate was built from (`SKINNY_GIT_COMMIT`) for
//! [`stamp`](src/stamp.rs): the lab stamps findings with the version and
//! commit, and shards merge only when one version counted them, so every
//! program that counts (the CLI, the Python module) takes its stamp from
//! here and findings of one commit merge whoever counted them. Outside a
//! git checkout, or without git, it says "unknown" and the build still
//! succeeds. (`pub`: the speed guard, never published, builds this file as
//! its own build script.)

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

pub fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SKINNY_GIT_COMMIT={commit}");

    // Rebuild when HEAD moves: HEAD itself (a branch switch), the branch's ref file
    // (a commit) and its folder (the ref file may appear only after the refs were
    // packed), and packed-refs. `--git-path` finds them in worktrees too. Only
    // paths that exist are named: cargo would rebuild every time for a missing one.
    if commit == "unknown" {
        // No git, or not a checkout. Should a checkout appear (or git be
        // installed and HEAD move), its HEAD is watched when there is one here.
        let head = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.git/HEAD");
        if head.exists() {
            println!("cargo:rerun-if-changed={}", head.display());
        }
        return;
    }
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        let ref_path = git(&["rev-parse", "--git-path", &branch]);
        watched.push(ref_path.as_deref().and_then(|p| Path::new(p).parent()).map(|d| d.display().to_string()));
        watched.push(ref_path);
    }
    watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    for path in watched.into_iter().flatten() {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
