//! The lab's build script (the one version stamp's), shared: it embeds the
//! git commit the guard was built from (`SKINNY_GIT_COMMIT`) for the JSON
//! report, since the binary runs where there is no checkout (the H200 host). The guard is never
//! published, so it may read a file outside its folder.

#[path = "../../crates/skinny-lab/build.rs"]
mod commit_stamp;

fn main() {
    commit_stamp::main();
}
