//! The host side of the engine (gathering, the chunks' key bits, the CPU's
//! ends and tags, scattering, verification) without a GPU: a stand-in for
//! the kernels runs every block with the specification code, after
//! checking that the key bits it was given are those of the chunk's
//! nonce. The kernels themselves are checked against the same reference by
//! the host simulator (scripts/kernels/hostsim.sh) and on a GPU by
//! tests/sealed_gpu.rs.

use super::*;
use crate::gpu::inputs::lfsr_advance;
use crate::mode::xor_into;
use crate::sealed::chunks::chunk_ops;
use crate::sealed::format::PREFIX_FIELD_LEN;
use skinny_exec::pipeline::{self, Shape, WriteFrom};
use std::vec;

struct SpecChunks {
    m: Member,
    header: Header,
    key: [u8; 16],
    staging: Vec<u8>,
    /// Chunks run so far (windows come in order).
    next: u64,
}

impl ChunkKernel for SpecChunks {
    fn rounds(&self) -> usize {
        self.m.layout().variant().rounds()
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
        let cs = self.header.chunk_size();
        let ctr_bytes = layout.counter_bits() as usize / 8;
        let mut sums = Zeroizing::new(vec![[0u8; 16]; nchunks]);
        for (c, sum) in sums.iter_mut().enumerate() {
            let index = self.next + c as u64;
            let tk = [false, true]
                .into_iter()
                .map(|last| {
                    let (nonce, len) = self.header.nonce(index, last);
                    run_tweakey(self.m, &self.key, &nonce[..len], D_MSG)
                })
                .find(|tk| {
                    let mut b = vec![0u64; rounds];
                    chunk_key_bits(&Skinny::new(v, tk).unwrap(), &mut b);
                    b[..] == key_bits[c * rounds..][..rounds]
                })
                .expect("the key bits of chunk `index`'s nonce");
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
        self.next += nchunks as u64;
        Ok(sums)
    }
}

/// The engine over the stand-in, with staging for the chunks a window of
/// `window` pieces may hold (as `open_engine` sizes it on a GPU).
fn engine(member: Member, chunk_log2: u8, key: &[u8; 16], window: usize) -> GpuChunks<SpecChunks> {
    let mut prefix = [0u8; PREFIX_FIELD_LEN];
    for (i, p) in prefix[..member.prefix_len()].iter_mut().enumerate() {
        *p = 0xa0 + i as u8;
    }
    let header = Header { member, chunk_log2, prefix };
    let chunks = gpu_chunks_per_window(window);
    let spec = SpecChunks { m: member, header, key: *key, staging: vec![0u8; chunks << chunk_log2], next: 0 };
    GpuChunks::with_kernel(spec, &header, key)
}

/// Runs `data` through the real pipeline in windows of `window` pieces,
/// sealing or opening each window with `engine`; returns the output and
/// what went wrong first (chunk index, for open).
fn through_pipeline(
    engine: &mut GpuChunks<SpecChunks>,
    data: &[u8],
    window: usize,
    open: bool,
) -> (Vec<u8>, Option<u64>) {
    let cs = engine.header.chunk_size();
    let tag = engine.m.tag_len();
    let ad = engine.header.to_bytes();
    let piece = if open { cs + tag } else { cs };
    let shape = Shape::new(piece, cs + tag, window);
    let mut out = Vec::new();
    let mut failed = None;
    let _ = pipeline::run(
        data,
        &mut out,
        &shape,
        |w: &mut Window| {
            let n = w.input.len();
            assert!(n <= window + 1, "a window of {n} pieces");
            if !open {
                engine.seal(w, &ad).map_err(|_| ())?;
                w.write = n;
                return Ok(());
            }
            w.from = WriteFrom::Output;
            while w.output.len() < n {
                w.output.push(Zeroizing::new(Vec::with_capacity(cs)));
            }
            let ok = engine.open(w, &ad).map_err(|_| ())?;
            for (o, &good) in w.output.iter().zip(&ok) {
                assert!(good || o.is_empty(), "a failing chunk's output is empty");
            }
            w.write = ok.iter().take_while(|&&g| g).count();
            if w.write < n {
                failed = Some(w.first + w.write as u64);
                return Err(());
            }
            Ok(())
        },
        None,
    );
    (out, failed)
}

#[test]
fn host_side_matches_the_cpu_engine() {
    let key = [0x42u8; 16];
    // Windows of 2 pieces: a window of 3 at the end of some inputs.
    let window = 2;
    for member in [Member::M1, Member::M4, Member::M5, Member::M6] {
        let (seal_fn, _) = chunk_ops(member);
        let log2 = 14u8;
        let cs = 1usize << log2;
        let lens = [0usize, 1, 17, cs - 1, cs, cs + 1, 2 * cs + 5, 3 * cs - 1, 5 * cs + 100, 6 * cs];
        for len in lens {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            let mut gpu = engine(member, log2, &key, window);
            let (sealed_file, failed) = through_pipeline(&mut gpu, &msg, window, false);
            assert_eq!(failed, None);
            // Sealed by the CPU code, chunk by chunk.
            let ad = gpu.header.to_bytes();
            let pieces: Vec<&[u8]> = if len == 0 { vec![&[][..]] } else { msg.chunks(cs).collect() };
            let n = pieces.len();
            let mut want = Vec::new();
            for (i, p) in pieces.into_iter().enumerate() {
                let mut buf = p.to_vec();
                let (nonce, nl) = gpu.header.nonce(i as u64, i + 1 == n);
                seal_fn(&key, &nonce[..nl], &ad, &mut buf).unwrap();
                want.extend_from_slice(&buf);
            }
            assert!(sealed_file == want, "{member} {len} bytes: sealed differently");

            // Opened by the engine; with one chunk damaged; with a last
            // chunk of just a tag.
            let piece = cs + member.tag_len();
            let mut cases = vec![(want.clone(), None), (want.clone(), Some(n as u64 / 2))];
            cases[1].0[(n / 2) * piece] ^= 1;
            if n > 1 {
                cases.push((want[..(n - 1) * piece + member.tag_len()].to_vec(), Some(n as u64 - 1)));
            }
            for (file, damaged) in cases {
                let mut opener = engine(member, log2, &key, window);
                let (plain, failed) = through_pipeline(&mut opener, &file, window, true);
                assert_eq!(failed, damaged, "{member} {len}: the failing chunk");
                match damaged {
                    None => assert!(plain == msg, "{member} {len}: round trip"),
                    Some(c) => {
                        assert!(plain[..] == msg[..c as usize * cs], "{member} {len}: the chunks before {c} only")
                    }
                }
            }
        }
    }
}
