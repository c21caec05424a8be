//! The scheme series without the command line: every AEAD scheme (seal and
//! open) and hash, one message per call, at the default sizes (or those of
//! the first argument, e.g. `64,1K,16K`), header and tables on stdout; the
//! JSON report too when a second argument names a file. What
//! `skinny bench --aead all --hash all` prints, in a smaller build.
//!
//! ```sh
//! cargo run --release -p skinny-bench --example schemes -- 16,64,1K,16K,1M schemes.json
//! ```

use skinny_bench::measure::Observer;
use skinny_bench::scheme::Algorithm;
use skinny_bench::{Build, SchemeBench, SchemePlan, SchemeRequest};

/// Progress on stderr, one line per point.
struct Lines;

impl Observer for Lines {
    fn start(&mut self, what: &str) {
        eprintln!("{what}");
    }
    fn done(&mut self) {}
    fn notice(&mut self, line: &str) {
        eprintln!("notice: {line}");
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plan = SchemePlan::new(SchemeRequest {
        algorithms: Algorithm::ALL.to_vec(),
        sizes: args.first().map(String::as_str),
        runs: None,
        max_time_per_size: None,
        min_run_secs: 0.002,
    })?;
    let bench = SchemeBench::open(plan, Build { version: env!("CARGO_PKG_VERSION"), commit: "example" });
    print!("{}", bench.header());
    let report = bench.measure(&mut Lines)?;
    print!("{}", report.tables());
    if let Some(path) = args.get(1) {
        std::fs::write(path, report.json()?)?;
    }
    Ok(())
}
