//! The counter-based generator: every value is a pure function of (seed, what,
//! index), so a run's plaintexts and keys do not depend on how the work is cut
//! into threads, batches or shards.

/// What a stream of words is for; each gets its own domain so that, say, the
/// plaintext of query 5 and the key of group 5 are unrelated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Plaintexts, indexed by query.
    Plaintext,
    /// Keys (whole tweakeys), indexed by key group.
    Key,
}

impl Stream {
    // Arbitrary distinct odd constants (digits of pi and e), mixed in before the
    // index so the two streams never share an input to the finalizer.
    const fn domain(self) -> u64 {
        match self {
            Stream::Plaintext => 0x243f_6a88_85a3_08d3,
            Stream::Key => 0xb7e1_5162_8aed_2a6b,
        }
    }
}

/// SplitMix64's output function: a bijection on u64 with full avalanche (each
/// input bit flips each output bit with probability close to 1/2).
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seeded generator. Cheap to copy; holds no state besides the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterRng {
    seed: u64,
}

impl CounterRng {
    /// A generator for `seed`.
    pub const fn new(seed: u64) -> Self {
        Self { seed }
    }

    /// The seed.
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The seeded state of `stream`, from which every item is drawn: what the
    /// GPU kernels are given to draw the same words (the `gpu` module).
    pub fn stream_state(&self, stream: Stream) -> u64 {
        mix64(self.seed ^ stream.domain())
    }

    /// Word `word` of item `index` of `stream`. Chained finalizer calls, each on
    /// the previous output xored with the next input: distinct (seed, stream,
    /// index, word) give unrelated words, not just different ones.
    #[inline]
    pub fn word(&self, stream: Stream, index: u64, word: u64) -> u64 {
        let i = mix64(self.stream_state(stream) ^ index);
        // The golden-ratio increment keeps word 0 from being `i` fed back in.
        mix64(i ^ word.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    /// Fills `out` with the bytes of item `index` of `stream` (little-endian
    /// words, the last one cut short).
    pub fn fill(&self, stream: Stream, index: u64, out: &mut [u8]) {
        for (j, chunk) in out.chunks_mut(8).enumerate() {
            let w = self.word(stream, index, j as u64).to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_function_of_seed_and_index() {
        let a = CounterRng::new(7);
        let mut x = [0u8; 16];
        let mut y = [0u8; 16];
        a.fill(Stream::Plaintext, 12345, &mut x);
        CounterRng::new(7).fill(Stream::Plaintext, 12345, &mut y);
        assert_eq!(x, y);
        a.fill(Stream::Plaintext, 12346, &mut y);
        assert_ne!(x, y);
        a.fill(Stream::Key, 12345, &mut y);
        assert_ne!(x, y);
        CounterRng::new(8).fill(Stream::Plaintext, 12345, &mut y);
        assert_ne!(x, y);
    }

    #[test]
    fn bits_look_balanced() {
        // A coarse check that no output bit is stuck or strongly biased.
        let r = CounterRng::new(1);
        let n = 1 << 14;
        let mut ones = [0u32; 64];
        for i in 0..n {
            let w = r.word(Stream::Plaintext, i, 0);
            for (b, c) in ones.iter_mut().enumerate() {
                *c += ((w >> b) & 1) as u32;
            }
        }
        for c in ones {
            // 8192 expected, standard deviation 64: 6 sigma.
            assert!((c as i64 - 8192).abs() < 400, "{c}");
        }
    }
}
