//! The three AEAD modes, on in-place or buffer-to-buffer [`InOutBuf`]s, and
//! what two of them share: the absorption of blocks two per call.
//!
//! Every function here branches and indexes on lengths only; the state, the
//! keys and the data go through XORs, G and SKINNY, all table-free.

use crate::hazmat::{blocks, lengths_fit, padded_block, Counter, BLOCK};
use crate::tbc::{self, Block, Slot, Tbc};
use aead::inout::InOutBuf;
use aead::Error;
use zeroize::Zeroize;

pub(crate) mod m;
pub(crate) mod n;
pub(crate) mod t;

/// Refuses (before anything is written) inputs too long for the counter.
pub(crate) fn check_lengths(ad_len: usize, msg_len: usize) -> Result<(), Error> {
    if lengths_fit(ad_len, msg_len) {
        Ok(())
    } else {
        Err(Error)
    }
}

/// The state S of Romulus-N's AD phase and Romulus-M's MAC, absorbing blocks
/// two at a time: the first of a pair goes through ρ (S ← S ⊕ X), the second is
/// TK2 of the call S ← E(S) with that pair's domain byte; the counter steps for
/// every block. The last block must come padded. Wipes itself when dropped.
pub(crate) struct Absorber<'k> {
    key: &'k Block,
    /// About how many pairs will be absorbed (for [`Tbc::with_tk3`]).
    pair_calls: usize,
    /// Where the pairs' [`Tbc`] keeps an expanded part.
    slot: Option<&'k mut Slot>,
    /// The key's part of the pairs' calls (TK3), made at the first pair.
    pairs: Option<Tbc<'k>>,
    s: Block,
    counter: Counter,
    /// Whether the next block is the first of a pair.
    first: bool,
}

impl<'k> Absorber<'k> {
    /// An absorber of about `blocks` blocks; `slot` is where the pairs'
    /// [`Tbc`] may expand the key's part.
    pub(crate) fn new(key: &'k Block, blocks: usize, slot: &'k mut Slot) -> Self {
        let pair_calls = blocks / 2;
        Self { key, pair_calls, slot: Some(slot), pairs: None, s: [0; BLOCK], counter: Counter::new(), first: true }
    }

    /// Absorbs one block; `domain` is used if it is the second of its pair.
    pub(crate) fn push(&mut self, block: &Block, domain: u8) {
        if self.first {
            tbc::xor_into(&mut self.s, block);
        } else {
            let (key, calls, slot) = (self.key, self.pair_calls, &mut self.slot);
            let pairs = self.pairs.get_or_insert_with(|| {
                Tbc::with_tk3(key, calls, slot.take().unwrap_or_else(|| unreachable!("made once")))
            });
            pairs.encrypt_tk2(self.counter, domain, block, &mut self.s);
        }
        self.counter.step();
        self.first = !self.first;
    }

    /// Absorbs the whole blocks of `data` then its last block padded (an empty
    /// `data` is one empty block).
    pub(crate) fn push_all(&mut self, data: &[u8], domain: u8) {
        let (count, _) = blocks(data.len());
        let (whole, _) = data.as_chunks::<BLOCK>();
        for block in &whole[..count - 1] {
            self.push(block, domain);
        }
        let mut last = padded_block(data, count - 1);
        self.push(&last, domain);
        last.zeroize();
    }

    /// The last call: S ← E(S) with the current counter, `domain` and TK2 ‖
    /// TK3 = the nonce ‖ the key, whose part `message` holds (after ρ(S, 0^n),
    /// which changes nothing, when the blocks came in whole pairs). Returns S.
    pub(crate) fn finish(mut self, domain: u8, message: &Tbc) -> Block {
        let mut s = self.s;
        message.encrypt(self.counter, domain, &mut s);
        self.s.zeroize();
        s
    }
}

impl Drop for Absorber<'_> {
    fn drop(&mut self) {
        self.s.zeroize();
    }
}

/// Block `i` of `buf`'s input, which must be whole, as a little-endian `u128`
/// (in registers: no copy left on the stack to wipe).
pub(crate) fn read_whole(buf: &InOutBuf<'_, '_, u8>, i: usize) -> u128 {
    let (blocks, _) = buf.get_in().as_chunks::<BLOCK>();
    u128::from_le_bytes(blocks[i])
}

/// Writes `x` as whole block `i` of `buf`'s output.
pub(crate) fn write_whole(buf: &mut InOutBuf<'_, '_, u8>, i: usize, x: u128) {
    buf.get_out()[i * BLOCK..(i + 1) * BLOCK].copy_from_slice(&x.to_le_bytes());
}

/// Copies block `i` (whole or the short last one) of `buf`'s input into a
/// zeroed block; returns it and its length.
pub(crate) fn read_block(buf: &InOutBuf<'_, '_, u8>, i: usize) -> (Block, usize) {
    let input = buf.get_in();
    let start = i * BLOCK;
    let end = (start + BLOCK).min(input.len());
    let mut b = [0u8; BLOCK];
    b[..end - start].copy_from_slice(&input[start..end]);
    (b, end - start)
}

/// Writes the first `len` bytes of `block` as block `i` of `buf`'s output.
pub(crate) fn write_block(buf: &mut InOutBuf<'_, '_, u8>, i: usize, block: &Block, len: usize) {
    buf.get_out()[i * BLOCK..i * BLOCK + len].copy_from_slice(&block[..len]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hazmat::MAX_BLOCKS;

    #[test]
    fn lengths_past_the_counter_are_refused() {
        assert!(check_lengths(0, 0).is_ok());
        assert!(check_lengths(1 << 40, 1 << 40).is_ok());
        let limit = usize::try_from(MAX_BLOCKS - 2).unwrap_or(usize::MAX) * BLOCK;
        assert!(check_lengths(0, limit).is_ok());
        assert!(check_lengths(0, limit + BLOCK).is_err());
        assert!(check_lengths(limit, BLOCK).is_err());
        assert!(check_lengths(usize::MAX, usize::MAX).is_err());
    }
}
