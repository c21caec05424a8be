//! The differential experiment: right pairs of a (related-tweakey)
//! differential, counted on the CPU and recomputed one by one.

use crate::cells::CellPattern;
use crate::common::{Common, Way};
use crate::control::Control;
use crate::cpu::{per_block, per_block_tweakeys, run_across_groups, run_batches, run_groups, KeyCipher};
use crate::error::LabError;
use crate::outcome::{Outcome, Tally, Witness};
use crate::xor::{xor, xor_each_block};

/// The differential experiment: a hit when
/// `(E_K(P) ^ E_{K ^ dk}(P ^ dp)) & dc_mask == dc & dc_mask` and, with a cell
/// pattern ([`Differential::cells`]), the difference meets it too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Differential {
    /// Variant, rounds, queries, keys, seed, shard, show.
    pub common: Common,
    /// The plaintext difference (one block).
    pub dp: Vec<u8>,
    /// The ciphertext difference (one block).
    pub dc: Vec<u8>,
    /// The tweakey difference (the variant's tweakey length; zero by default).
    pub dk: Vec<u8>,
    /// Which ciphertext bits must match (one block; all ones by default,
    /// none with [`Differential::truncated`]).
    pub dc_mask: Vec<u8>,
    /// A truncated difference the ciphertext difference must also meet, cell
    /// by cell (none by default).
    pub cells: Option<CellPattern>,
}

/// One right pair of a differential experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The query's index in the whole run.
    pub query: u64,
    /// P
    pub p: Vec<u8>,
    /// P' = P ^ dp
    pub p2: Vec<u8>,
    /// C = E_K(P)
    pub c: Vec<u8>,
    /// C' = E_K'(P')
    pub c2: Vec<u8>,
    /// K
    pub k: Vec<u8>,
    /// K' = K ^ dk
    pub k2: Vec<u8>,
}

impl Witness for Pair {
    fn query(&self) -> u64 {
        self.query
    }
}

impl Differential {
    /// An experiment with `dk` zero and `dc_mask` all ones.
    pub fn new(common: Common, dp: Vec<u8>, dc: Vec<u8>) -> Self {
        let block = common.variant.block_bytes();
        let tk = common.variant.tweakey_bytes();
        Self { common, dp, dc, dk: vec![0; tk], dc_mask: vec![0xff; block], cells: None }
    }

    /// A truncated differential: a hit when the ciphertext difference meets
    /// `cells` (`dc` and `dc_mask` zero, `dk` zero: set them to add a
    /// condition on bits, ANDed with the pattern).
    pub fn truncated(common: Common, dp: Vec<u8>, cells: CellPattern) -> Self {
        let block = common.variant.block_bytes();
        let mut d = Self::new(common, dp, vec![0; block]);
        d.dc_mask = vec![0; block];
        d.cells = Some(cells);
        d
    }

    /// Whether the ciphertexts `a` and `b` are a right pair.
    fn hit(&self, a: &[u8], b: &[u8]) -> bool {
        let bits = a.iter().zip(b).zip(&self.dc_mask).zip(&self.dc).all(|(((a, b), m), d)| (a ^ b) & m == d & m);
        bits && self.cells.is_none_or(|p| p.matches_pair(self.common.variant.cell_width(), a, b))
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`LabError`] for a round count, a length, `key_every`, a shard out of range
    /// or more right pairs to keep than [`MAX_SHOW`](crate::MAX_SHOW).
    pub fn check(&self) -> Result<(), LabError> {
        let c = &self.common;
        c.check()?;
        let block = c.variant.block_bytes();
        c.check_len("dp", &self.dp, block)?;
        c.check_len("dc", &self.dc, block)?;
        c.check_len("dc_mask", &self.dc_mask, block)?;
        c.check_len("dk", &self.dk, c.variant.tweakey_bytes())
    }

    /// Runs this shard on the current rayon pool.
    ///
    /// # Errors
    /// See [`Differential::check`].
    pub fn run(&self) -> Result<Outcome<Pair>, LabError> {
        self.run_with(&Control::new())
    }

    /// [`Differential::run`], reporting progress to and taking a stop from
    /// `control`.
    ///
    /// # Errors
    /// See [`Differential::check`].
    pub fn run_with(&self, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let target: Vec<u8> = self.dc.iter().zip(&self.dc_mask).map(|(d, m)| d & m).collect();
        let width = self.common.variant.cell_width();
        let hit = |a: &[u8], b: &[u8]| {
            a.iter().zip(b).zip(&self.dc_mask).zip(&target).all(|(((a, b), m), t)| (a ^ b) & m == *t)
                && self.cells.is_none_or(|p| p.matches_pair(width, a, b))
        };
        Ok(run_pairs(&self.common, &self.dp, &self.dk, control, hit))
    }

    /// Query `q` recomputed with the one-block specification code: its pair
    /// if it is a hit, `None` if not (for checking hits found elsewhere).
    pub fn pair_at(&self, q: u64) -> Option<Pair> {
        pair_at(&self.common, &self.dp, &self.dk, q, |c1, c2| self.hit(c1, c2))
    }
}

/// The pairs of an experiment on (P, P ^ dp) under (K, K ^ dk) (`dk` given as
/// `c.tk_at` says), a hit when `hit(C, C')`: this shard run on the current
/// rayon pool.
pub(crate) fn run_pairs(
    c: &Common,
    dp: &[u8],
    dk: &[u8],
    control: &Control,
    hit: impl Fn(&[u8], &[u8]) -> bool + Sync,
) -> Outcome<Pair> {
    let shown_dk = dk;
    let dk = c.at_start(dk);
    let related = dk.iter().any(|&b| b != 0);
    if per_block(c) {
        let pbt = per_block_tweakeys(c);
        return run_across_groups(c, control, |qs| {
            let k = c.batch_keys(qs.clone());
            // With dk = 0 both sides use the same tweakeys.
            let k2 = related.then(|| {
                let mut k2 = k.clone();
                xor_each_block(&mut k2, &dk);
                k2
            });
            let encrypt = |side: usize, data: &mut [u8]| match (side, &k2) {
                (1, Some(k2)) => pbt.encrypt(data, k2),
                _ => pbt.encrypt(data, &k),
            };
            batch(c, dp, shown_dk, qs, &hit, encrypt, |q| c.query_key(q))
        });
    }
    run_groups(c, control, |g| {
        let range = c.group_queries(g);
        let k = c.start_key(g);
        let k2 = xor(&k, &dk);
        let len = range.end - range.start;
        // With dk = 0 one key schedule serves both sides (half the cost
        // when keys change often).
        let e1 = KeyCipher::new(c.cipher(&k), len);
        let e2_own = related.then(|| KeyCipher::new(c.cipher(&k2), len));
        let e2 = e2_own.as_ref().unwrap_or(&e1);
        let encrypt = |side: usize, data: &mut [u8]| if side == 0 { e1.encrypt(data) } else { e2.encrypt(data) };
        run_batches(range, c.show, control, |qs| batch(c, dp, shown_dk, qs, &hit, encrypt, |_| c.key(g)))
    })
}

/// One batch of queries: P and P ^ dp encrypted by `encrypt(0, ..)` (under
/// K) and `encrypt(1, ..)` (under K ^ dk), judged by `hit`. `key(q)` is K of
/// query `q` as shown, asked only for the right pairs kept.
fn batch(
    c: &Common,
    dp: &[u8],
    dk: &[u8],
    qs: core::ops::Range<u64>,
    hit: &impl Fn(&[u8], &[u8]) -> bool,
    encrypt: impl Fn(usize, &mut [u8]),
    key: impl Fn(u64) -> Vec<u8>,
) -> Tally<Pair> {
    let bb = c.variant.block_bytes();
    let n = (qs.end - qs.start) as usize;
    let mut x = vec![0u8; n * bb];
    for (q, block) in qs.clone().zip(x.chunks_exact_mut(bb)) {
        c.plaintext(q, block);
    }
    let mut y = x.clone();
    xor_each_block(&mut y, dp);
    encrypt(0, &mut x);
    encrypt(1, &mut y);
    let mut t = Tally::batch(c, qs.clone());
    for (i, (cx, cy)) in x.chunks_exact(bb).zip(y.chunks_exact(bb)).enumerate() {
        if hit(cx, cy) {
            let q = qs.start + i as u64;
            t.hit(q);
            if t.right.len() < c.show {
                let mut p = vec![0u8; bb];
                c.plaintext(q, &mut p);
                let p2 = xor(&p, dp);
                let k = key(q);
                let k2 = xor(&k, dk);
                t.right.push(Pair { query: q, p, p2, c: cx.to_vec(), c2: cy.to_vec(), k, k2 });
            }
        }
    }
    t
}

/// Query `q` of a pair experiment recomputed with the one-block
/// specification code: its pair if `hit(C, C')`.
pub(crate) fn pair_at(c: &Common, dp: &[u8], dk: &[u8], q: u64, hit: impl Fn(&[u8], &[u8]) -> bool) -> Option<Pair> {
    let k = c.key(q / c.key_every);
    let k2 = xor(&k, dk);
    let mut p = vec![0u8; c.variant.block_bytes()];
    c.plaintext(q, &mut p);
    let p2 = xor(&p, dp);
    let mut c1 = p.clone();
    c.spec_block(&k, &mut c1, Way::Encrypt);
    let mut c2 = p2.clone();
    c.spec_block(&k2, &mut c2, Way::Encrypt);
    hit(&c1, &c2).then_some(Pair { query: q, p, p2, c: c1, c2, k, k2 })
}
