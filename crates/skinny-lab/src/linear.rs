//! The linear experiment: known plaintexts whose input parity under a mask
//! equals their ciphertext's parity under another, counted on the CPU and
//! recomputed one by one.

use crate::common::{Common, Way};
use crate::control::Control;
use crate::cpu::{per_block, per_block_tweakeys, run_across_groups, run_batches, run_groups, KeyCipher};
use crate::error::LabError;
use crate::outcome::{Outcome, Tally, Witness};
use crate::stats;

/// The linear experiment: one encryption `C = E_K(P)` a query, a hit when
/// `parity(in_mask & P) == parity(out_mask & C)`. With `h` hits in `n`
/// queries the correlation is estimated as `2 h / n - 1`
/// ([`stats::correlation`]): averaged over the keys drawn (one key group with
/// `key_every >= queries`: the correlation of that key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linear {
    /// Variant, rounds, queries, keys, seed, shard, show.
    pub common: Common,
    /// The input linear mask, alpha (one block).
    pub in_mask: Vec<u8>,
    /// The output linear mask, beta (one block).
    pub out_mask: Vec<u8>,
}

/// One hit of a linear experiment: a plaintext, its ciphertext and the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownPlaintext {
    /// The query's index in the whole run.
    pub query: u64,
    /// P
    pub p: Vec<u8>,
    /// C = E_K(P)
    pub c: Vec<u8>,
    /// K (as [`Common::tk_at`] gives keys)
    pub k: Vec<u8>,
}

impl Witness for KnownPlaintext {
    fn query(&self) -> u64 {
        self.query
    }
}

/// The parity of `mask & x`.
fn parity(mask: &[u8], x: &[u8]) -> bool {
    let ones: u32 = x.iter().zip(mask).map(|(x, m)| (x & m).count_ones()).sum();
    !ones.is_multiple_of(2)
}

impl Linear {
    /// The experiment of the masks alpha (`in_mask`) and beta (`out_mask`).
    pub fn new(common: Common, in_mask: Vec<u8>, out_mask: Vec<u8>) -> Self {
        Self { common, in_mask, out_mask }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`LabError`] for a round count, a length, `key_every`, a shard out of range
    /// or more hits to keep than [`MAX_SHOW`](crate::MAX_SHOW).
    pub fn check(&self) -> Result<(), LabError> {
        let c = &self.common;
        c.check()?;
        let block = c.variant.block_bytes();
        c.check_len("in_mask", &self.in_mask, block)?;
        c.check_len("out_mask", &self.out_mask, block)
    }

    /// Whether the plaintext `p` and its ciphertext `c` are a hit.
    fn hit(&self, p: &[u8], c: &[u8]) -> bool {
        parity(&self.in_mask, p) == parity(&self.out_mask, c)
    }

    /// Runs this shard on the current rayon pool. The outcome's hits are the
    /// queries whose parities agree; those kept are the first of them.
    ///
    /// # Errors
    /// See [`Linear::check`].
    pub fn run(&self) -> Result<Outcome<KnownPlaintext>, LabError> {
        self.run_with(&Control::new())
    }

    /// [`Linear::run`], reporting progress to and taking a stop from
    /// `control`.
    ///
    /// # Errors
    /// See [`Linear::check`].
    pub fn run_with(&self, control: &Control) -> Result<Outcome<KnownPlaintext>, LabError> {
        self.check()?;
        let c = &self.common;
        if per_block(c) {
            let pbt = per_block_tweakeys(c);
            return Ok(run_across_groups(c, control, |qs| {
                let k = c.batch_keys(qs.clone());
                self.batch(qs, |data| pbt.encrypt(data, &k), |q| c.query_key(q))
            }));
        }
        Ok(run_groups(c, control, |g| {
            let range = c.group_queries(g);
            let e = KeyCipher::new(c.cipher(&c.start_key(g)), range.end - range.start);
            run_batches(range, c.show, control, |qs| self.batch(qs, |data| e.encrypt(data), |_| c.key(g)))
        }))
    }

    /// One batch of queries: the plaintexts' parities, then `encrypt` (under
    /// each query's K) and the ciphertexts' parities. `key(q)` is K of query
    /// `q` as shown, asked only for the hits kept.
    fn batch(
        &self,
        qs: core::ops::Range<u64>,
        encrypt: impl Fn(&mut [u8]),
        key: impl Fn(u64) -> Vec<u8>,
    ) -> Tally<KnownPlaintext> {
        let c = &self.common;
        let bb = c.variant.block_bytes();
        let n = (qs.end - qs.start) as usize;
        let mut x = vec![0u8; n * bb];
        for (q, block) in qs.clone().zip(x.chunks_exact_mut(bb)) {
            c.plaintext(q, block);
        }
        let input: Vec<bool> = x.chunks_exact(bb).map(|p| parity(&self.in_mask, p)).collect();
        encrypt(&mut x);
        let mut t = Tally::batch(c, qs.clone());
        for (i, (cx, pin)) in x.chunks_exact(bb).zip(input).enumerate() {
            if parity(&self.out_mask, cx) == pin {
                let q = qs.start + i as u64;
                t.hit(q);
                if t.right.len() < c.show {
                    let mut p = vec![0u8; bb];
                    c.plaintext(q, &mut p);
                    t.right.push(KnownPlaintext { query: q, p, c: cx.to_vec(), k: key(q) });
                }
            }
        }
        t
    }

    /// Query `q` recomputed with the one-block specification code: its
    /// plaintext, ciphertext and key if it is a hit, `None` if not (for
    /// checking hits found elsewhere).
    pub fn known_plaintext_at(&self, q: u64) -> Option<KnownPlaintext> {
        let c = &self.common;
        let k = c.key(q / c.key_every);
        let mut p = vec![0u8; c.variant.block_bytes()];
        c.plaintext(q, &mut p);
        let mut x = p.clone();
        c.spec_block(&k, &mut x, Way::Encrypt);
        self.hit(&p, &x).then_some(KnownPlaintext { query: q, p, c: x, k })
    }
}

impl Outcome<KnownPlaintext> {
    /// The correlation `2 hits / queries - 1` with its exact 95 % interval,
    /// for a linear outcome.
    pub fn correlation(&self) -> stats::Correlation {
        stats::correlation(self.hits, self.queries)
    }
}
