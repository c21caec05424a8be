//! The related-tweakey boomerang experiment: returning quartets, counted on
//! the CPU and recomputed one by one.

use crate::common::{Common, Way};
use crate::control::Control;
use crate::cpu::{per_block, per_block_tweakeys, run_across_groups, run_batches, run_groups, KeyCipher};
use crate::error::LabError;
use crate::outcome::{Outcome, Tally, Witness};
use crate::xor::{xor, xor_each_block};

/// The related-tweakey boomerang: K2 = K1 ^ dk1, K3 = K1 ^ dk2, K4 = K2 ^ dk2;
/// C1 = E_K1(P1), C2 = E_K2(P1 ^ dp), C3 = C1 ^ dc, C4 = C2 ^ dc; a return when
/// D_K3(C3) ^ D_K4(C4) == dp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boomerang {
    /// Variant, rounds, queries, keys, seed, shard, show.
    pub common: Common,
    /// The plaintext difference (one block).
    pub dp: Vec<u8>,
    /// The ciphertext difference (one block).
    pub dc: Vec<u8>,
    /// The tweakey difference of the upper trail.
    pub dk1: Vec<u8>,
    /// The tweakey difference of the lower trail.
    pub dk2: Vec<u8>,
}

/// One right quartet of a boomerang experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quartet {
    /// The query's index in the whole run.
    pub query: u64,
    /// P1, P2 = P1 ^ dp, P3 = D_K3(C3), P4 = D_K4(C4).
    pub p: [Vec<u8>; 4],
    /// C1, C2, C3 = C1 ^ dc, C4 = C2 ^ dc.
    pub c: [Vec<u8>; 4],
    /// K1 .. K4.
    pub k: [Vec<u8>; 4],
}

impl Witness for Quartet {
    fn query(&self) -> u64 {
        self.query
    }
}

impl Boomerang {
    /// An experiment with both tweakey differences zero.
    pub fn new(common: Common, dp: Vec<u8>, dc: Vec<u8>) -> Self {
        let tk = common.variant.tweakey_bytes();
        Self { common, dp, dc, dk1: vec![0; tk], dk2: vec![0; tk] }
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
        let tk = c.variant.tweakey_bytes();
        c.check_len("dp", &self.dp, block)?;
        c.check_len("dc", &self.dc, block)?;
        c.check_len("dk1", &self.dk1, tk)?;
        c.check_len("dk2", &self.dk2, tk)
    }

    /// Runs this shard on the current rayon pool.
    ///
    /// # Errors
    /// See [`Boomerang::check`].
    pub fn run(&self) -> Result<Outcome<Quartet>, LabError> {
        self.run_with(&Control::new())
    }

    /// [`Boomerang::run`], reporting progress to and taking a stop from
    /// `control`.
    ///
    /// # Errors
    /// See [`Boomerang::check`].
    pub fn run_with(&self, control: &Control) -> Result<Outcome<Quartet>, LabError> {
        self.check()?;
        let c = &self.common;
        if per_block(c) {
            let pbt = per_block_tweakeys(c);
            let (dk1, dk2) = (c.at_start(&self.dk1), c.at_start(&self.dk2));
            return Ok(run_across_groups(c, control, |qs| {
                // K1 .. K4 of every query of the batch, as for one group below.
                let k1 = c.batch_keys(qs.clone());
                let related = |k: &[u8], d: &[u8]| {
                    let mut out = k.to_vec();
                    xor_each_block(&mut out, d);
                    out
                };
                let k2 = related(&k1, &dk1);
                let k3 = related(&k1, &dk2);
                let k4 = related(&k2, &dk2);
                let keys = [&k1, &k2, &k3, &k4];
                let crypt = |i: usize, data: &mut [u8]| {
                    if i < 2 {
                        pbt.encrypt(data, keys[i])
                    } else {
                        pbt.decrypt(data, keys[i])
                    }
                };
                self.batch(qs, crypt, |q| c.query_key(q))
            }));
        }
        let (dk1, dk2) = (c.at_start(&self.dk1), c.at_start(&self.dk2));
        Ok(run_groups(c, control, |g| {
            let range = c.group_queries(g);
            let k1 = c.start_key(g);
            let k2 = xor(&k1, &dk1);
            let k3 = xor(&k1, &dk2);
            let k4 = xor(&k2, &dk2);
            let len = range.end - range.start;
            // One cipher per distinct key: with dk1 or dk2 zero, keys repeat.
            let keys = [&k1, &k2, &k3, &k4];
            let mut ciphers: Vec<(&Vec<u8>, KeyCipher)> = Vec::with_capacity(4);
            for k in keys {
                if !ciphers.iter().any(|(seen, _)| *seen == k) {
                    ciphers.push((k, KeyCipher::new(c.cipher(k), len)));
                }
            }
            let e = keys.map(|k| &ciphers.iter().find(|(seen, _)| *seen == k).expect("built above").1);
            let crypt = |i: usize, data: &mut [u8]| if i < 2 { e[i].encrypt(data) } else { e[i].decrypt(data) };
            run_batches(range, c.show, control, |qs| self.batch(qs, crypt, |_| c.key(g)))
        }))
    }

    /// One batch of queries: `crypt(0, ..)` and `crypt(1, ..)` encrypt P1 and
    /// P1 ^ dp under K1 and K2, `crypt(2, ..)` and `crypt(3, ..)` decrypt
    /// C1 ^ dc and C2 ^ dc under K3 and K4. `key(q)` is K1 of query `q`, asked
    /// only for the quartets kept.
    fn batch(
        &self,
        qs: core::ops::Range<u64>,
        crypt: impl Fn(usize, &mut [u8]),
        key: impl Fn(u64) -> Vec<u8>,
    ) -> Tally<Quartet> {
        let c = &self.common;
        let bb = c.variant.block_bytes();
        let n = (qs.end - qs.start) as usize;
        let mut x1 = vec![0u8; n * bb];
        for (q, block) in qs.clone().zip(x1.chunks_exact_mut(bb)) {
            c.plaintext(q, block);
        }
        let mut x2 = x1.clone();
        xor_each_block(&mut x2, &self.dp);
        crypt(0, &mut x1);
        crypt(1, &mut x2);
        // Keep C1, C2 only for the quartets shown: recomputed then.
        let mut x3 = x1;
        let mut x4 = x2;
        xor_each_block(&mut x3, &self.dc);
        xor_each_block(&mut x4, &self.dc);
        crypt(2, &mut x3);
        crypt(3, &mut x4);
        let mut t = Tally::batch(c, qs.clone());
        for (i, (p3, p4)) in x3.chunks_exact(bb).zip(x4.chunks_exact(bb)).enumerate() {
            let back = p3.iter().zip(p4).zip(&self.dp).all(|((a, b), d)| a ^ b == *d);
            if back {
                let q = qs.start + i as u64;
                t.hit(q);
                if t.right.len() < c.show {
                    t.right.push(self.quartet(q, key(q), p3, p4));
                }
            }
        }
        t
    }

    /// The whole quartet of query `q` (K1 = `k1`), recomputed block by block
    /// (only for the few shown).
    fn quartet(&self, q: u64, k1: Vec<u8>, p3: &[u8], p4: &[u8]) -> Quartet {
        let c = &self.common;
        let k2 = xor(&k1, &self.dk1);
        let (k3, k4) = (xor(&k1, &self.dk2), xor(&k2, &self.dk2));
        let k = [k1, k2, k3, k4];
        let bb = c.variant.block_bytes();
        let mut p1 = vec![0u8; bb];
        c.plaintext(q, &mut p1);
        let p2 = xor(&p1, &self.dp);
        let mut c1 = p1.clone();
        c.spec_block(&k[0], &mut c1, Way::Encrypt);
        let mut c2 = p2.clone();
        c.spec_block(&k[1], &mut c2, Way::Encrypt);
        let c3 = xor(&c1, &self.dc);
        let c4 = xor(&c2, &self.dc);
        Quartet { query: q, p: [p1, p2, p3.to_vec(), p4.to_vec()], c: [c1, c2, c3, c4], k }
    }

    /// Query `q` recomputed with the one-block specification code: its quartet
    /// if it returns, `None` if not (for checking hits found elsewhere).
    pub fn quartet_at(&self, q: u64) -> Option<Quartet> {
        let c = &self.common;
        let k1 = c.key(q / c.key_every);
        let k2 = xor(&k1, &self.dk1);
        let k3 = xor(&k1, &self.dk2);
        let k4 = xor(&k2, &self.dk2);
        let mut p1 = vec![0u8; c.variant.block_bytes()];
        c.plaintext(q, &mut p1);
        let mut x1 = p1.clone();
        c.spec_block(&k1, &mut x1, Way::Encrypt);
        let mut x2 = xor(&p1, &self.dp);
        c.spec_block(&k2, &mut x2, Way::Encrypt);
        let mut p3 = xor(&x1, &self.dc);
        c.spec_block(&k3, &mut p3, Way::Decrypt);
        let mut p4 = xor(&x2, &self.dc);
        c.spec_block(&k4, &mut p4, Way::Decrypt);
        let back = p3.iter().zip(&p4).zip(&self.dp).all(|((a, b), d)| a ^ b == *d);
        back.then(|| self.quartet(q, k1, &p3, &p4))
    }
}
