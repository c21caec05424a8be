//! Small key groups (fewer than 256 queries a key, down to a fresh key per
//! query) run in batches across groups with per-block tweakeys. Their counts and
//! kept witnesses must equal a query-by-query recomputation with the one-block
//! specification code and the experiment's own keys and plaintexts, for every
//! variant, group sizes that do and do not divide the batch, related keys, and
//! shards (whose first and last groups cut batches anywhere).

use skinny::hazmat::spec::sbox::{sbox4, sbox8};
use skinny::{Skinny, Variant};
use skinny_lab::{Boomerang, Common, Differential, Pair, Quartet, Shard};

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// A block with value `x` in cells `cells` (4-bit cells: cell `c` is the high
/// nibble of byte `c / 2` for even `c`, the low one for odd `c`).
fn cells(v: Variant, cells: &[usize], x: u8) -> Vec<u8> {
    let mut b = vec![0u8; v.block_bytes()];
    for &c in cells {
        if v.block_bytes() == 16 {
            b[c] = x;
        } else {
            b[c / 2] |= if c % 2 == 0 { x << 4 } else { x };
        }
    }
    b
}

/// The most likely S-box output difference for input difference 1.
fn best_output(v: Variant) -> u8 {
    let (n, s): (usize, fn(u8) -> u8) = if v.block_bytes() == 16 { (256, sbox8) } else { (16, sbox4) };
    let mut count = vec![0u32; n];
    for x in 0..n {
        count[(s(x as u8) ^ s(x as u8 ^ 1)) as usize] += 1;
    }
    (0..n).max_by_key(|&b| count[b]).unwrap() as u8
}

/// A tweakey difference in TK1's last two rows only: it skips round 1 (which
/// adds rows 0-1) and enters round 2 through the permutation.
fn late_dk(v: Variant, x: u8) -> Vec<u8> {
    let mut dk = vec![0u8; v.tweakey_bytes()];
    dk[v.block_bytes() - 1] = x;
    dk
}

fn common(v: Variant, rounds: usize, queries: u64, key_every: u64, seed: u64) -> Common {
    let mut c = Common::new(v, rounds, queries);
    c.key_every = key_every;
    c.seed = seed;
    c.show = 12;
    c
}

/// The differential counted query by query.
fn differential_by_hand(e: &Differential) -> (u64, Vec<Pair>) {
    let c = &e.common;
    let (mut hits, mut right) = (0, Vec::new());
    for q in c.shard_queries() {
        let k = c.key(q / c.key_every);
        let k2 = xor(&k, &e.dk);
        let mut p = vec![0u8; c.variant.block_bytes()];
        c.plaintext(q, &mut p);
        let p2 = xor(&p, &e.dp);
        let (mut c1, mut c2) = (p.clone(), p2.clone());
        Skinny::with_rounds(c.variant, &k, c.rounds).unwrap().encrypt_block(&mut c1);
        Skinny::with_rounds(c.variant, &k2, c.rounds).unwrap().encrypt_block(&mut c2);
        let hit = (0..c1.len()).all(|i| (c1[i] ^ c2[i]) & e.dc_mask[i] == e.dc[i] & e.dc_mask[i]);
        if hit {
            hits += 1;
            if right.len() < c.show {
                right.push(Pair { query: q, p, p2, c: c1, c2, k, k2 });
            }
        }
    }
    (hits, right)
}

/// The boomerang counted query by query.
fn boomerang_by_hand(e: &Boomerang) -> (u64, Vec<Quartet>) {
    let c = &e.common;
    let (mut hits, mut right) = (0, Vec::new());
    for q in c.shard_queries() {
        let k1 = c.key(q / c.key_every);
        let k2 = xor(&k1, &e.dk1);
        let k = [k1.clone(), k2.clone(), xor(&k1, &e.dk2), xor(&k2, &e.dk2)];
        let cipher = |i: usize| Skinny::with_rounds(c.variant, &k[i], c.rounds).unwrap();
        let mut p1 = vec![0u8; c.variant.block_bytes()];
        c.plaintext(q, &mut p1);
        let p2 = xor(&p1, &e.dp);
        let (mut c1, mut c2) = (p1.clone(), p2.clone());
        cipher(0).encrypt_block(&mut c1);
        cipher(1).encrypt_block(&mut c2);
        let (c3, c4) = (xor(&c1, &e.dc), xor(&c2, &e.dc));
        let (mut p3, mut p4) = (c3.clone(), c4.clone());
        cipher(2).decrypt_block(&mut p3);
        cipher(3).decrypt_block(&mut p4);
        if xor(&p3, &p4) == e.dp {
            hits += 1;
            if right.len() < c.show {
                right.push(Quartet { query: q, p: [p1, p2, p3, p4], c: [c1, c2, c3, c4], k: k.clone() });
            }
        }
    }
    (hits, right)
}

/// Group sizes: a key per query, sizes that cut batches of 4096 unevenly, the
/// largest that still runs per block, and the smallest that does not (to show the
/// two engines agree with the same recomputation).
const KEY_EVERY: [u64; 5] = [1, 3, 100, 255, 256];

#[test]
fn differential_matches_a_query_by_query_count() {
    let mut all_hits = 0;
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        for key_every in KEY_EVERY {
            for rounds in [1, 2] {
                let b = best_output(v);
                let mut e = Differential::new(
                    common(v, rounds, 5000, key_every, i as u64 + 10 * key_every),
                    cells(v, &[0], 1),
                    cells(v, &[0, 4, 12], b),
                );
                if rounds == 2 {
                    // Related keys: each side its own tweakeys; a loose mask keeps hits coming.
                    e.dk = late_dk(v, 0x31);
                    e.dc_mask = cells(v, &[1], 1);
                    e.dc = vec![0; v.block_bytes()];
                }
                let got = e.run().unwrap();
                let (hits, right) = differential_by_hand(&e);
                assert_eq!(
                    (got.queries, got.hits, &got.right),
                    (5000, hits, &right),
                    "{v} every {key_every} r{rounds}"
                );
                all_hits += hits;
                // One shard of seven: its groups start and end inside batches.
                e.common.shard = Shard::new(3, 7).unwrap();
                let got = e.run().unwrap();
                let (hits, right) = differential_by_hand(&e);
                assert_eq!((got.hits, &got.right), (hits, &right), "{v} every {key_every} r{rounds} shard 3/7");
            }
        }
    }
    assert!(all_hits > 10_000, "the differentials hit ({all_hits}), so the comparison compares something");
}

#[test]
fn boomerang_matches_a_query_by_query_count() {
    let mut all_hits = 0;
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        for key_every in KEY_EVERY {
            for rounds in [1, 2] {
                let b = best_output(v);
                let mut e = Boomerang::new(
                    common(v, rounds, 3000, key_every, 77 + i as u64),
                    cells(v, &[0], 1),
                    cells(v, &[0, 4, 12], b),
                );
                // Four different tweakeys per query; the differences skip round 1.
                e.dk1 = late_dk(v, 0x52);
                e.dk2 = late_dk(v, 0x07);
                let got = e.run().unwrap();
                let (hits, right) = boomerang_by_hand(&e);
                assert_eq!(
                    (got.queries, got.hits, &got.right),
                    (3000, hits, &right),
                    "{v} every {key_every} r{rounds}"
                );
                all_hits += hits;
            }
        }
    }
    assert!(all_hits > 1000, "the boomerangs return ({all_hits}), so the comparison compares something");
}
