//! The host side of the batches (gathering, the chunks' key bits, the CPU's
//! ends and tags, scattering, verification) without a GPU: a stand-in for
//! the kernels runs every block with the specification code, after
//! checking that the key bits it was given are those of the chunk's
//! nonce. The kernels themselves are checked against the same reference by
//! the host simulator (scripts/kernels/hostsim.sh) and on a GPU by
//! skinny-seal's GPU tests.

use super::*;
use crate::cipher::{SkinnyAeadM1, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use crate::gpu::inputs::lfsr_advance;
use crate::mode::xor_into;
use aead::{AeadInOut, Key, KeyInit, Nonce, Tag};
use std::vec;

struct SpecChunks {
    m: Member,
    chunk_log2: u8,
    key: [u8; 16],
    staging: Vec<u8>,
    max_chunks: usize,
    /// The nonces of the batch being run (set by the test before each).
    nonces: Vec<Vec<u8>>,
}

impl ChunkKernel for SpecChunks {
    fn rounds(&self) -> usize {
        self.m.layout().variant().rounds()
    }

    fn max_chunks(&self) -> usize {
        self.max_chunks
    }

    fn staging(&mut self) -> Result<&mut [u8], GpuAeadError> {
        Ok(&mut self.staging)
    }

    fn run(
        &mut self,
        op: AeadOp,
        key_bits: &[u64],
        nchunks: usize,
        bytes: usize,
    ) -> Result<Zeroizing<Vec<[u8; 16]>>, GpuAeadError> {
        let (rounds, v, layout) = (self.rounds(), self.m.layout().variant(), self.m.layout());
        let cs = 1usize << self.chunk_log2;
        let ctr_bytes = layout.counter_bits() as usize / 8;
        let mut sums = Zeroizing::new(vec![[0u8; 16]; nchunks]);
        for (c, sum) in sums.iter_mut().enumerate() {
            let tk = run_tweakey(self.m, &self.key, &self.nonces[c], D_MSG);
            let mut bits = vec![0u64; rounds];
            chunk_key_bits(&Skinny::new(v, &tk).unwrap(), &mut bits);
            assert!(bits[..] == key_bits[c * rounds..][..rounds], "the key bits of chunk {c}'s nonce");
            let start = c * cs;
            let blocks = (bytes.min(start + cs) - start) / BLOCK;
            for g in 0..blocks {
                let mut t = tk.clone();
                let ctr = lfsr_advance(layout.counter_bits(), Lfsr::new(layout).value(), g as u64);
                t[..ctr_bytes].copy_from_slice(&ctr.to_le_bytes()[..ctr_bytes]);
                let cipher = Skinny::new(v, &t).unwrap();
                let block = &mut self.staging[start + g * BLOCK..][..BLOCK];
                if op == AeadOp::Encrypt {
                    xor_into(sum, block);
                    cipher.encrypt_block(block);
                } else {
                    cipher.decrypt_block(block);
                    xor_into(sum, block);
                }
            }
        }
        Ok(sums)
    }
}

/// The batches over the stand-in, for batches of up to `max_chunks`.
fn batches(member: Member, chunk_log2: u8, key: &[u8; 16], max_chunks: usize) -> Batches<SpecChunks> {
    let staging = vec![0u8; max_chunks << chunk_log2];
    let spec = SpecChunks { m: member, chunk_log2, key: *key, staging, max_chunks, nonces: Vec::new() };
    Batches::new(spec, member, chunk_log2, key)
}

/// Chunk `i`'s nonce (any distinct nonces will do: a counter and a byte).
fn nonce(member: Member, i: usize, tweak: u8) -> Vec<u8> {
    let mut n = vec![tweak; member.nonce_len()];
    n[..8].copy_from_slice(&(i as u64).to_be_bytes());
    n
}

/// Seals `plain` under `nonce` and `ad` with the member's CPU type.
fn cpu_seal(member: Member, key: &[u8; 16], nonce: &[u8], ad: &[u8], plain: &[u8]) -> Vec<u8> {
    fn with<A: AeadInOut + KeyInit>(key: &[u8; 16], nonce: &[u8], ad: &[u8], plain: &[u8]) -> Vec<u8>
    where
        Key<A>: From<[u8; 16]>,
    {
        let mut buf = plain.to_vec();
        let cipher = A::new(&Key::<A>::from(*key));
        let tag: Tag<A> = cipher
            .encrypt_inout_detached(&Nonce::<A>::try_from(nonce).unwrap(), ad, buf.as_mut_slice().into())
            .unwrap();
        buf.extend_from_slice(&tag);
        buf
    }
    match member {
        Member::M1 => with::<SkinnyAeadM1>(key, nonce, ad, plain),
        Member::M4 => with::<SkinnyAeadM4>(key, nonce, ad, plain),
        Member::M5 => with::<SkinnyAeadM5>(key, nonce, ad, plain),
        _ => with::<SkinnyAeadM6>(key, nonce, ad, plain),
    }
}

/// The message cut into chunks (one empty chunk for an empty message).
fn chunks_of(msg: &[u8], cs: usize) -> Vec<Zeroizing<Vec<u8>>> {
    if msg.is_empty() {
        return vec![Zeroizing::new(Vec::new())];
    }
    msg.chunks(cs).map(|c| Zeroizing::new(c.to_vec())).collect()
}

/// Runs `chunks` through `b` in batches of `batch` (the last batch may hold
/// one more, as a pipeline's last window does), sealing in place or opening;
/// returns the opened plaintexts and the first chunk that failed.
fn in_batches(
    b: &mut Batches<SpecChunks>,
    chunks: &mut [Zeroizing<Vec<u8>>],
    batch: usize,
    ad: &[u8],
    open: bool,
) -> (Vec<u8>, Option<usize>) {
    let n = chunks.len();
    let mut first = 0;
    let mut plain = Vec::new();
    while first < n {
        let count = if n - first <= batch + 1 { n - first } else { batch };
        let nonces: Vec<Vec<u8>> = (first..first + count).map(|i| nonce(b.member, i, 0x5c)).collect();
        b.kernel.nonces = nonces.clone();
        let part = &mut chunks[first..first + count];
        if !open {
            b.seal(part, &nonces, ad).unwrap();
        } else {
            let mut out: Vec<Zeroizing<Vec<u8>>> = (0..count).map(|_| Zeroizing::new(vec![9u8; 3])).collect();
            let ok = b.open(part, &mut out, &nonces, ad).unwrap();
            for (o, &good) in out.iter().zip(&ok) {
                assert!(good || o.is_empty(), "a failing chunk's output is empty");
            }
            let good = ok.iter().take_while(|&&g| g).count();
            out[..good].iter().for_each(|o| plain.extend_from_slice(o));
            if good < count {
                return (plain, Some(first + good));
            }
        }
        first += count;
    }
    (plain, None)
}

#[test]
fn host_side_matches_the_cpu_types() {
    let key = [0x42u8; 16];
    let ad = [7u8; 24];
    // Batches of 2 chunks: one of 3 at the end of some inputs.
    let batch = 2;
    for member in [Member::M1, Member::M4, Member::M5, Member::M6] {
        let log2 = MIN_CHUNK_LOG2;
        let cs = 1usize << log2;
        let lens = [0usize, 1, 17, cs - 1, cs, cs + 1, 2 * cs + 5, 3 * cs - 1, 5 * cs + 100, 6 * cs];
        for len in lens {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            let mut b = batches(member, log2, &key, batch + 1);
            let mut sealed = chunks_of(&msg, cs);
            in_batches(&mut b, &mut sealed, batch, &ad, false);
            // Sealed by the CPU type, chunk by chunk.
            let want: Vec<Vec<u8>> = chunks_of(&msg, cs)
                .iter()
                .enumerate()
                .map(|(i, c)| cpu_seal(member, &key, &nonce(member, i, 0x5c), &ad, c))
                .collect();
            assert!(sealed.iter().map(|c| c.to_vec()).eq(want.iter().cloned()), "{member} {len}: sealed differently");

            // Opened; with one chunk damaged; with a last chunk of just a tag.
            let n = want.len();
            let mut cases = vec![(want.clone(), None), (want.clone(), Some(n / 2))];
            cases[1].0[n / 2][0] ^= 1;
            if n > 1 {
                let mut cut = want.clone();
                cut[n - 1] = want[n - 1][..member.tag_len()].to_vec();
                cases.push((cut, Some(n - 1)));
            }
            for (file, damaged) in cases {
                let mut b = batches(member, log2, &key, batch + 1);
                let mut chunks: Vec<Zeroizing<Vec<u8>>> = file.into_iter().map(Zeroizing::new).collect();
                let (plain, failed) = in_batches(&mut b, &mut chunks, batch, &ad, true);
                assert_eq!(failed, damaged, "{member} {len}: the failing chunk");
                match damaged {
                    None => assert!(plain == msg, "{member} {len}: round trip"),
                    Some(c) => assert!(plain[..] == msg[..c * cs], "{member} {len}: the chunks before {c} only"),
                }
            }
        }
    }
}

#[test]
fn batches_that_do_not_fit_are_refused_without_a_panic() {
    let (key, member, log2) = ([1u8; 16], Member::M1, MIN_CHUNK_LOG2);
    let cs = 1usize << log2;
    let mut b = batches(member, log2, &key, 2);
    let whole = || Zeroizing::new(vec![0u8; cs]);
    let nonces = |n: usize| (0..n).map(|i| nonce(member, i, 1)).collect::<Vec<_>>();
    let batch = |e| matches!(e, Err(GpuAeadError::Batch { .. }));
    assert!(batch(b.seal(&mut [], &nonces(0), &[])), "empty");
    assert!(batch(b.seal(&mut [whole(), whole(), whole()], &nonces(3), &[])), "too many");
    assert!(batch(b.seal(&mut [whole(), whole()], &nonces(1), &[])), "too few nonces");
    assert!(batch(b.seal(&mut [Zeroizing::new(vec![0u8; 5]), whole()], &nonces(2), &[])), "a short first chunk");
    assert!(batch(b.seal(&mut [Zeroizing::new(vec![0u8; cs + 1])], &nonces(1), &[])), "a long last chunk");
    let short = [vec![0u8; 12]];
    assert!(matches!(b.seal(&mut [whole()], &short, &[]), Err(GpuAeadError::NonceLength { .. })));
    let mut out = [Zeroizing::new(Vec::new())];
    assert!(batch(b.open(&[Zeroizing::new(vec![0u8; 15])], &mut out, &nonces(1), &[]).map(drop)), "no tag");
    assert!(batch(b.open(&[whole(), whole()], &mut out, &nonces(2), &[]).map(drop)), "too few outputs");
}
