//! Writes the seed corpora: `seeds DIR` makes `DIR/sealed_open/` (files sealed
//! under the fuzz key: every member, chunks of 16 to 64 bytes and the default
//! 64 KiB, plaintexts of 0 to 300 bytes) and `DIR/lab_merge/` (the findings of
//! tiny differential and boomerang runs, alone and as shards to merge).

use skinny::Variant;
use skinny_fuzz::lab::SEPARATOR;
use skinny_fuzz::{plaintext, seal_like, Layout};
use skinny_lab::{Boomerang, Common, Control, Differential, Experiment, Findings, Placement, Rig, Shard, Threads};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: seeds DIR")?;
    let dir = Path::new(&dir);
    let sealed = dir.join("sealed_open");
    std::fs::create_dir_all(&sealed)?;
    let mut n = 0;
    for scheme in skinny_seal::Scheme::ALL.into_iter().filter(|s| s.id() <= 6) {
        for chunk_log2 in [4, 5, 6, 16] {
            for len in [0, 1, 16, 17, 40, 300] {
                let file = seal_like(&Layout { scheme, chunk_log2 }, &plaintext(len));
                std::fs::write(sealed.join(format!("m{}-c{chunk_log2}-{len}", scheme.id())), file)?;
                n += 1;
            }
        }
    }
    let lab = dir.join("lab_merge");
    std::fs::create_dir_all(&lab)?;
    let mut m = 0;
    for (name, make) in [("differential", differential as fn(Shard) -> Experiment), ("boomerang", boomerang)] {
        let whole = report(&make(Shard::WHOLE))?;
        std::fs::write(lab.join(format!("{name}-whole")), &whole)?;
        let parts: Vec<Vec<u8>> =
            (0..3).map(|i| report(&make(Shard::new(i, 3).expect("a shard of 3")))).collect::<Result<_, _>>()?;
        for (i, p) in parts.iter().enumerate() {
            std::fs::write(lab.join(format!("{name}-{i}of3")), p)?;
        }
        std::fs::write(lab.join(format!("{name}-0+1of3")), joined(&parts[..2]))?;
        std::fs::write(lab.join(format!("{name}-all3")), joined(&parts))?;
        std::fs::write(lab.join(format!("{name}-twice")), joined(&[parts[1].clone(), parts[1].clone()]))?;
        m += 7;
    }
    println!("{n} sealed files in {}, {m} lab inputs in {}", sealed.display(), lab.display());
    Ok(())
}

fn common(shard: Shard) -> Common {
    let mut c = Common::new(Variant::Skinny64_128, 2, 4_000);
    c.key_every = 100;
    c.seed = 3;
    c.show = 2;
    c.shard = shard;
    c
}

/// A 2-round differential masked to one cell: frequent hits, so right pairs.
fn differential(shard: Shard) -> Experiment {
    let mut d = Differential::new(common(shard), vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, 1, 0, 0, 0]);
    d.dc_mask = vec![0, 0, 0, 0, 0x0f, 0, 0, 0];
    d.into()
}

fn boomerang(shard: Shard) -> Experiment {
    Boomerang::new(common(shard), vec![0, 0, 0, 0, 0, 0, 0, 0x01], vec![0, 0, 0, 0, 0, 0, 0, 0x01]).into()
}

/// One run's findings as `skinny lab --json` writes them.
fn report(exp: &Experiment) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let rig = Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(1)) }, exp.common())?;
    let findings: Findings = rig.run(exp, &Control::new(), "fuzz seeds")?;
    Ok(serde_json::to_vec(&findings)?)
}

fn joined(parts: &[Vec<u8>]) -> Vec<u8> {
    parts.join(&SEPARATOR)
}
