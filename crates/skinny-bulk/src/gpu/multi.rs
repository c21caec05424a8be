//! Several GPUs of one host: a [`GpuSet`] (which GPUs, opened through
//! `skinny_cuda`'s one way, `GpuSet::select`) and a
//! [`MultiGpuCipher`] (one key on each, host-to-host work striped over them).
//!
//! Host memory is cut into contiguous, block-aligned stripes, one per GPU
//! ([`stripes`]); each GPU's own [`GpuCipher`] (its context, streams, pinned
//! slots and device buffers) runs its stripe on a host thread of its own, so
//! the PCIe links, the host copies and the kernels of all GPUs work at once.
//! A stripe's chaining input is computed before any stripe is written
//! ([`stripe_chain`]): the counter advanced by the blocks before it (CTR), or
//! the ciphertext block just before it (CBC and CFB decryption), so the bytes
//! are those of one GPU, or of the CPU, whatever the number of GPUs.
//!
//! Data already on a device stays per device: [`MultiGpuCipher::cipher`] gives
//! GPU `i`'s cipher, and its [`GpuCipher::run_device`] takes buffers of that
//! GPU's context only ([`GpuCipher::gpu`]).

use super::chain::chain_at;
use super::cipher::GpuCipher;
use super::kernels::{KernelKind, Op};
use super::transfer::HostPath;
use skinny::Skinny;
use skinny_cuda::GpuError;
use skinny_cuda::GpuSet;
use std::ops::Range;

/// The smallest stripe worth a GPU of its own: below it the thread and the
/// transfer start-up cost more than the second link gains.
pub const MIN_STRIPE_BYTES: usize = 4 << 20;

/// Contiguous stripes of `len` bytes of `block`-byte blocks, at most `devices`
/// of them and none under `min_bytes` (unless there is only one): as equal as
/// whole blocks allow, the first ones one block longer. A partial last block
/// (CTR) stays in the last stripe. No stripe for `len == 0`.
pub fn stripes(len: usize, block: usize, devices: usize, min_bytes: usize) -> Vec<Range<usize>> {
    if len == 0 || block == 0 {
        return Vec::new();
    }
    let blocks = len.div_ceil(block);
    let k = (len / min_bytes.max(1)).clamp(1, devices.max(1)).min(blocks);
    let (per, extra) = (blocks / k, blocks % k);
    let mut out = Vec::with_capacity(k);
    let mut start = 0;
    for i in 0..k {
        let n = per + usize::from(i < extra);
        let end = (start + n * block).min(len);
        out.push(start..end);
        start = end;
    }
    out
}

/// The chaining input of the stripe starting at byte `start` (a multiple of
/// `block`) of `data`, read before anything is written: the counter `iv`
/// advanced by the blocks before the stripe (CTR), the ciphertext block just
/// before it or the IV for the first (CBC and CFB decryption), `iv` itself (ECB).
pub fn stripe_chain(op: Op, iv: &[u8], data: &[u8], start: usize, block: usize) -> Vec<u8> {
    chain_at(op, iv, data, start, block)
}

/// One key on every GPU of a [`GpuSet`]; host-to-host work striped over them.
pub struct MultiGpuCipher {
    ciphers: Vec<GpuCipher>,
    block: usize,
    min_stripe: usize,
}

impl MultiGpuCipher {
    /// Loads the kernels for `cipher` on every GPU of `set` (at once, one
    /// thread each) and uploads its round tweakeys to each.
    ///
    /// # Errors
    /// As [`GpuCipher::new`], the error naming the GPU ([`GpuError::Device`])
    /// when the set has more than one.
    pub fn new(set: &GpuSet, kind: KernelKind, cipher: &Skinny) -> Result<Self, GpuError> {
        let several = set.len() > 1;
        let results: Vec<Result<GpuCipher, GpuError>> = if several {
            std::thread::scope(|sc| {
                let handles: Vec<_> =
                    set.gpus().iter().map(|g| sc.spawn(move || GpuCipher::new(g, kind, cipher))).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(Err(GpuError::Internal("a GPU start-up thread panicked"))))
                    .collect()
            })
        } else {
            vec![GpuCipher::new(&set.gpus()[0], kind, cipher)]
        };
        let mut ciphers = Vec::with_capacity(results.len());
        for (r, g) in results.into_iter().zip(set.gpus()) {
            ciphers.push(r.map_err(|e| if several { GpuError::on_device(g.ordinal(), e) } else { e })?);
        }
        Ok(Self { ciphers, block: cipher.variant().block_bytes(), min_stripe: MIN_STRIPE_BYTES })
    }

    /// How many GPUs (entries of the set).
    pub fn len(&self) -> usize {
        self.ciphers.len()
    }

    /// Always false: there is at least one GPU.
    pub fn is_empty(&self) -> bool {
        self.ciphers.is_empty()
    }

    /// Every GPU's cipher, in the set's order.
    pub fn ciphers(&self) -> &[GpuCipher] {
        &self.ciphers
    }

    /// Every GPU's cipher, mutable (one per thread for work on all at once).
    pub fn ciphers_mut(&mut self) -> &mut [GpuCipher] {
        &mut self.ciphers
    }

    /// GPU `i`'s cipher (the set's `i`-th entry), for data resident on that
    /// GPU: its [`GpuCipher::run_device`] takes buffers of its own context only.
    pub fn cipher(&self, i: usize) -> Option<&GpuCipher> {
        self.ciphers.get(i)
    }

    /// GPU `i`'s cipher, mutable (timing, host paths).
    pub fn cipher_mut(&mut self, i: usize) -> Option<&mut GpuCipher> {
        self.ciphers.get_mut(i)
    }

    /// The kernels in use.
    pub fn kind(&self) -> KernelKind {
        self.ciphers[0].kind()
    }

    /// Whether `op` has its own kernel.
    pub fn has_kernel(&self, op: Op) -> bool {
        self.ciphers[0].has_kernel(op)
    }

    /// [`GpuCipher::set_host_path`] on every GPU.
    pub fn set_host_path(&mut self, path: HostPath) {
        self.ciphers.iter_mut().for_each(|c| c.set_host_path(path));
    }

    /// [`GpuCipher::set_piece_bytes`] on every GPU.
    pub fn set_piece_bytes(&mut self, bytes: usize) {
        self.ciphers.iter_mut().for_each(|c| c.set_piece_bytes(bytes));
    }

    /// The smallest stripe given a GPU of its own (default
    /// [`MIN_STRIPE_BYTES`]); for tests of the stripe boundaries.
    pub fn set_min_stripe_bytes(&mut self, bytes: usize) {
        self.min_stripe = bytes.max(1);
    }

    /// [`GpuCipher::run`] over every GPU: `data` cut into [`stripes`], each run
    /// on its GPU on a thread of its own, all at once. The same bytes as one
    /// GPU: each stripe's counter or chaining block is taken before any stripe
    /// is written.
    ///
    /// # Errors
    /// As [`GpuCipher::run`]; with several GPUs, the first failing GPU's
    /// error, naming it (the others finish their stripes first).
    pub fn run(&mut self, op: Op, iv: &[u8], data: &mut [u8]) -> Result<(), GpuError> {
        let bs = self.block;
        let parts = stripes(data.len(), bs, self.ciphers.len(), self.min_stripe);
        if parts.len() <= 1 {
            return self.ciphers[0].run(op, iv, data);
        }
        // The checks of GpuCipher::run, before the chaining blocks are read.
        if op != Op::Ctr && !data.len().is_multiple_of(bs) {
            return Err(GpuError::NotWholeBlocks { operation: op.label(), block: bs, len: data.len() });
        }
        let ecb = matches!(op, Op::EcbEncrypt | Op::EcbDecrypt);
        if !ecb && iv.len() != bs {
            return Err(GpuError::IvLength { operation: op.label(), block: bs, got: iv.len() });
        }
        let chains: Vec<zeroize::Zeroizing<Vec<u8>>> =
            parts.iter().map(|r| zeroize::Zeroizing::new(stripe_chain(op, iv, data, r.start, bs))).collect();
        let mut pieces: Vec<&mut [u8]> = Vec::with_capacity(parts.len());
        let mut rest = data;
        for r in &parts {
            let (head, tail) = rest.split_at_mut(r.len());
            pieces.push(head);
            rest = tail;
        }
        let results: Vec<Result<(), GpuError>> = std::thread::scope(|sc| {
            let handles: Vec<_> = self
                .ciphers
                .iter_mut()
                .zip(pieces)
                .zip(&chains)
                .map(|((c, piece), chain)| {
                    sc.spawn(move || {
                        c.gpu().context().bind_to_thread().map_err(GpuError::driver("binding the context"))?;
                        c.run(op, &chain[..], piece)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(Err(GpuError::Internal("a GPU thread panicked")))).collect()
        });
        for (r, c) in results.into_iter().zip(&self.ciphers) {
            r.map_err(|e| GpuError::on_device(c.gpu().ordinal(), e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stripes_cover_the_input_in_whole_blocks() {
        for &(len, block, n, min) in &[
            (0usize, 16usize, 4usize, 1usize),
            (16, 16, 4, 1),
            (17, 16, 4, 1),
            (1000, 16, 3, 1),
            (1 << 20, 8, 8, 1),
            (12345, 16, 2, 1),
            (100 << 20, 16, 4, MIN_STRIPE_BYTES),
        ] {
            let s = stripes(len, block, n, min);
            assert!(s.len() <= n);
            let mut at = 0;
            for r in &s {
                assert_eq!(r.start, at);
                assert!(r.start % block == 0 && !r.is_empty());
                at = r.end;
            }
            assert_eq!(at, len, "{len} {block} {n}");
            // Every stripe but the last is whole blocks, lengths within one block.
            for r in s.iter().take(s.len().saturating_sub(1)) {
                assert_eq!(r.len() % block, 0);
            }
            if let (Some(a), Some(b)) = (s.iter().map(|r| r.len()).max(), s.iter().map(|r| r.len()).min()) {
                assert!(a - b <= block, "{s:?}");
            }
        }
    }

    #[test]
    fn small_inputs_stay_on_one_device() {
        assert_eq!(stripes(MIN_STRIPE_BYTES * 2 - 16, 16, 4, MIN_STRIPE_BYTES).len(), 1);
        assert_eq!(stripes(MIN_STRIPE_BYTES * 2, 16, 4, MIN_STRIPE_BYTES).len(), 2);
        assert_eq!(stripes(MIN_STRIPE_BYTES * 9, 16, 4, MIN_STRIPE_BYTES).len(), 4);
        assert_eq!(stripes(3 * 16, 16, 8, 1).len(), 3, "never more stripes than blocks");
    }

    #[test]
    fn chains_are_counters_and_previous_ciphertext() {
        let data: Vec<u8> = (0..64u8).collect();
        let iv = [0xffu8; 16];
        // CTR: the counter plus the blocks before the stripe, with the carry.
        let c = stripe_chain(Op::Ctr, &iv, &data, 32, 16);
        let mut want = [0u8; 16];
        want[15] = 1;
        assert_eq!(c, want, "0xff..ff + 2 wraps to 1");
        assert_eq!(stripe_chain(Op::Ctr, &[0u8; 8], &data, 24, 8), vec![0, 0, 0, 0, 0, 0, 0, 3]);
        // CBC/CFB decryption: the ciphertext block just before the stripe.
        assert_eq!(stripe_chain(Op::CbcDecrypt, &iv, &data, 32, 16), data[16..32].to_vec());
        assert_eq!(stripe_chain(Op::CfbDecrypt, &iv, &data, 16, 16), data[..16].to_vec());
        assert_eq!(stripe_chain(Op::CbcDecrypt, &iv, &data, 0, 16), iv.to_vec());
        assert!(stripe_chain(Op::EcbEncrypt, &[], &data, 32, 16).is_empty());
    }
}
