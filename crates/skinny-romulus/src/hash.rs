//! Romulus-H: MDPH, Hirose's double-block-length compression function over
//! SKINNY-128-384+ in a Merkle-Damgård chain, with a 256-bit output, behind
//! the RustCrypto [`digest`] traits (see `reference::romulus_h` for the
//! specification's form).

use crate::hazmat::BLOCK;
use crate::tbc::Block;
use digest::common::{AlgorithmName, BlockSizeUser};
use digest::consts::U32;
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};
use skinny::hazmat::single::Lanes;
use zeroize::Zeroize;

/// Bytes in one message block of the hash (TK2 ‖ TK3 of its two calls).
const HASH_BLOCK: usize = 32;
const _: () = assert!(HASH_BLOCK == 32, "RomulusH's BlockSize says 32");

/// The chaining value (L, R) and the bytes of a block not yet complete.
#[derive(Clone)]
pub(crate) struct HashState {
    /// The compression function's kernel, chosen once.
    lanes: Lanes,
    l: Block,
    r: Block,
    buffer: [u8; HASH_BLOCK],
    /// Bytes in `buffer`, always under 32: a complete block is compressed at
    /// once, since the padding adds at least one byte, so it is never the last.
    filled: usize,
}

impl HashState {
    pub(crate) fn new() -> Self {
        Self { lanes: crate::tbc::lanes(), l: [0; BLOCK], r: [0; BLOCK], buffer: [0; HASH_BLOCK], filled: 0 }
    }

    /// CF: with the tweakey R ‖ B, L' = E(L) ⊕ L and R' = E(L ⊕ 1) ⊕ L ⊕ 1 (the
    /// lowest bit of L's first byte flipped). The two calls share their
    /// tweakey and are independent, so they run side by side
    /// (`single::encrypt_lanes`: one register where the CPU allows), the
    /// schedule in the rounds.
    fn compress(&mut self, block: &[u8; HASH_BLOCK]) {
        let (tk2, tk3) = block.split_at(BLOCK);
        let tk2: &Block = tk2.try_into().unwrap_or_else(|_| unreachable!("16 bytes"));
        let tk3: &Block = tk3.try_into().unwrap_or_else(|_| unreachable!("16 bytes"));
        let mut l1 = self.l;
        l1[0] ^= 1;
        let mut blocks = [self.l, l1];
        crate::tbc::encrypt_pair(&self.lanes, [&self.r, tk2, tk3], &mut blocks);
        for k in 0..BLOCK {
            self.l[k] ^= blocks[0][k];
            self.r[k] = blocks[1][k] ^ l1[k];
        }
        blocks.zeroize();
        l1.zeroize();
    }

    pub(crate) fn update(&mut self, mut data: &[u8]) {
        if self.filled > 0 {
            let take = data.len().min(HASH_BLOCK - self.filled);
            self.buffer[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < HASH_BLOCK {
                return;
            }
            let block = self.buffer;
            self.compress(&block);
            self.filled = 0;
        }
        let (whole, rest) = data.as_chunks::<HASH_BLOCK>();
        for block in whole {
            self.compress(block);
        }
        self.buffer[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// The last block: the buffered bytes, zeros, and a last byte with their
    /// count; L's first byte XORed with 2 before it. Returns L ‖ R; `self` is
    /// spent (wiped when dropped).
    pub(crate) fn finish(mut self) -> [u8; 32] {
        let mut last = [0u8; HASH_BLOCK];
        last[..self.filled].copy_from_slice(&self.buffer[..self.filled]);
        last[HASH_BLOCK - 1] = self.filled as u8;
        self.l[0] ^= 2;
        self.compress(&last);
        last.zeroize();
        let mut out = [0u8; 32];
        out[..BLOCK].copy_from_slice(&self.l);
        out[BLOCK..].copy_from_slice(&self.r);
        out
    }
}

impl Drop for HashState {
    fn drop(&mut self) {
        self.l.zeroize();
        self.r.zeroize();
        self.buffer.zeroize();
    }
}

/// Romulus-H, the 256-bit hash of Romulus v1.3, with the RustCrypto
/// [`digest`] traits ([`digest::Digest`] through them).
///
/// Its state (the chaining value and up to 31 buffered input bytes) is wiped
/// when the value is dropped, since the input may be secret.
///
/// ```
/// use skinny_romulus::digest::Digest;
/// use skinny_romulus::RomulusH;
///
/// let h = RomulusH::digest(b"");
/// assert_eq!(h[..4], [0x24, 0x9b, 0x3f, 0x43]); // LWC_HASH_KAT_256 Count = 1
/// ```
#[derive(Clone)]
pub struct RomulusH {
    state: HashState,
}

impl Default for RomulusH {
    fn default() -> Self {
        Self { state: HashState::new() }
    }
}

impl HashMarker for RomulusH {}

impl OutputSizeUser for RomulusH {
    type OutputSize = U32;
}

impl BlockSizeUser for RomulusH {
    /// The message block: 32 bytes, TK2 ‖ TK3 of the compression function's two calls.
    type BlockSize = U32;
}

impl AlgorithmName for RomulusH {
    fn write_alg_name(f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Romulus-H")
    }
}

impl Update for RomulusH {
    fn update(&mut self, data: &[u8]) {
        self.state.update(data);
    }
}

impl FixedOutput for RomulusH {
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(&self.state.finish());
    }
}

impl Reset for RomulusH {
    fn reset(&mut self) {
        self.state = HashState::new();
    }
}

impl FixedOutputReset for RomulusH {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        let state = core::mem::replace(&mut self.state, HashState::new());
        out.copy_from_slice(&state.finish());
    }
}

impl core::fmt::Debug for RomulusH {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("RomulusH { .. }")
    }
}

impl zeroize::ZeroizeOnDrop for RomulusH {}
