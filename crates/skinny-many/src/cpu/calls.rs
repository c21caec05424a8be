//! [`Calls`]: the tweakable-block-cipher calls that lanes have ready, gathered
//! into one buffer of blocks and one of whole tweakeys per direction, and run
//! together.
//!
//! A run sends whole bitsliced batches through
//! [`PerBlockTweakeys`](skinny::hazmat::bitsliced::PerBlockTweakeys) (every
//! block with its own tweakey, the key schedule in bitsliced form). A
//! remainder too small to repay a padded batch goes one call at a time
//! through `skinny`'s single-block code instead (schedule and rounds per
//! call). Which one runs depends on the number of calls only, a public
//! quantity; both are constant time.

use skinny::hazmat::bitsliced::{Direction, Path, PerBlockTweakeys};
use skinny::hazmat::single::Lanes;
use skinny::{Skinny, Variant};
use zeroize::Zeroizing;

/// One block.
pub(crate) type Block = [u8; 16];

/// XORs `x` (up to a block) into the front of `acc`.
pub(crate) fn xor_into(acc: &mut Block, x: &[u8]) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a ^= b;
    }
}

/// The calls of one direction, in the order they were pushed.
pub(crate) struct Queue {
    blocks: Zeroizing<Vec<u8>>,
    tweakeys: Zeroizing<Vec<u8>>,
    tweakey_bytes: usize,
}

impl Queue {
    fn new(tweakey_bytes: usize, capacity: usize) -> Self {
        Self {
            blocks: Zeroizing::new(Vec::with_capacity(capacity * 16)),
            tweakeys: Zeroizing::new(Vec::with_capacity(capacity * tweakey_bytes)),
            tweakey_bytes,
        }
    }

    /// The number of calls.
    pub(crate) fn len(&self) -> usize {
        self.blocks.len() / 16
    }

    /// Adds a call on `block` under the tweakey `parts` (back to back, a
    /// whole tweakey); returns its index.
    pub(crate) fn push(&mut self, block: &Block, parts: &[&[u8]]) -> usize {
        let at = self.len();
        self.blocks.extend_from_slice(block);
        for part in parts {
            self.tweakeys.extend_from_slice(part);
        }
        debug_assert_eq!(self.tweakeys.len(), (at + 1) * self.tweakey_bytes, "a whole tweakey");
        at
    }

    /// Call `i`'s result (after [`Calls::run`]).
    pub(crate) fn result(&self, i: usize) -> Block {
        let mut b = [0u8; 16];
        b.copy_from_slice(&self.blocks[16 * i..16 * i + 16]);
        b
    }

    /// Results `i .. i + n`, back to back.
    pub(crate) fn results(&self, i: usize, n: usize) -> &[u8] {
        &self.blocks[16 * i..16 * (i + n)]
    }

    /// Forgets the calls (the bytes stay until the queue is dropped, which
    /// wipes the whole capacity).
    fn clear(&mut self) {
        self.blocks.clear();
        self.tweakeys.clear();
    }
}

/// The ready calls of many lanes for one cipher (variant and round count).
pub(crate) struct Calls {
    cipher: PerBlockTweakeys,
    // Encryptions too few for a batch, one block under its own tweakey each.
    lanes: Lanes,
    variant: Variant,
    rounds: usize,
    /// Below this many calls left over after the whole batches, they run one
    /// at a time rather than in a padded batch.
    single_below: usize,
    /// Encryption calls.
    pub(crate) enc: Queue,
    /// Decryption calls.
    pub(crate) dec: Queue,
}

impl Calls {
    /// Calls of `rounds` rounds of `variant` on `path` (the best path where
    /// this CPU lacks it), room for `capacity` at first.
    pub(crate) fn new(variant: Variant, rounds: usize, path: Path, capacity: usize) -> Self {
        let cipher = PerBlockTweakeys::new(variant, rounds)
            .unwrap_or_else(|_| unreachable!("the schemes' round counts fit their variants"));
        let cipher = cipher.on_path(path).unwrap_or(cipher);
        let t = variant.tweakey_bytes();
        Self {
            cipher,
            lanes: Lanes::best(),
            variant,
            rounds,
            single_below: single_below(cipher.path().batch_blocks()),
            enc: Queue::new(t, capacity),
            dec: Queue::new(t, capacity),
        }
    }

    /// Blocks per bitsliced batch.
    pub(crate) fn batch_blocks(&self) -> usize {
        self.cipher.path().batch_blocks()
    }

    /// All calls of both directions.
    pub(crate) fn len(&self) -> usize {
        self.enc.len() + self.dec.len()
    }

    /// Forgets every call.
    pub(crate) fn clear(&mut self) {
        self.enc.clear();
        self.dec.clear();
    }

    /// Runs every call: each block replaced by its result.
    pub(crate) fn run(&mut self) {
        let (cipher, variant, rounds, below) = (self.cipher, self.variant, self.rounds, self.single_below);
        let lanes = self.lanes;
        for (q, dir) in [(&mut self.enc, Direction::Encrypt), (&mut self.dec, Direction::Decrypt)] {
            let n = q.len();
            let batch = cipher.path().batch_blocks();
            let rest = n % batch;
            let bitsliced = if rest >= below { n } else { n - rest };
            let t = q.tweakey_bytes;
            let (blocks, singles) = q.blocks.split_at_mut(16 * bitsliced);
            let (tweakeys, single_tweakeys) = q.tweakeys.split_at(t * bitsliced);
            if bitsliced > 0 {
                cipher.crypt(dir, blocks, tweakeys);
            }
            for (block, tk) in singles.chunks_exact_mut(16).zip(single_tweakeys.chunks_exact(t)) {
                if dir == Direction::Encrypt {
                    // The schedule inside the rounds (no key schedule value
                    // built for one block).
                    let (arrays, _) = tk.as_chunks::<16>();
                    let refs: [&[u8; 16]; 3] = core::array::from_fn(|i| arrays.get(i).unwrap_or(&[0; 16]));
                    let block: &mut [u8; 16] = block.try_into().unwrap_or_else(|_| unreachable!("16-byte chunks"));
                    lanes
                        .encrypt(&refs[..arrays.len()], rounds, core::slice::from_mut(block))
                        .unwrap_or_else(|_| unreachable!("a whole tweakey, one block and a valid round count"));
                    continue;
                }
                let one = Skinny::with_rounds(variant, tk, rounds)
                    .unwrap_or_else(|_| unreachable!("a whole tweakey and a valid round count"));
                one.decrypt_block(block);
            }
        }
    }
}

/// The fewest left-over calls worth a padded batch of `batch` blocks rather
/// than single-block calls (the schedule inside the rounds, on one block):
/// about what one batch costs in single calls, which grows with the batch's
/// width (`examples/many_speed.rs` prints both costs).
const fn single_below(batch: usize) -> usize {
    batch / BLOCKS_PER_SINGLE_COST
}

/// A bitsliced batch with per-block tweakeys costs about as much as one
/// single-block call per this many of its blocks.
const BLOCKS_PER_SINGLE_COST: usize = 6;
