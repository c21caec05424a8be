//! What the scheme series time: the algorithms by name, the operations
//! (seal, open, hash), the route a message takes, and each message's floor
//! (block-cipher calls and their rounds).

use skinny::Variant;
use skinny_aead::Member as AeadMember;
use skinny_hash::Member as HashMember;
use skinny_many::Scheme;
use std::fmt;

/// Rounds of SKINNY-128-384+, Romulus's cipher (SKINNY-128-384 cut to 40).
pub const ROMULUS_ROUNDS: u32 = 40;

/// Bytes in a block of every scheme here (all run 128-bit SKINNY).
const BLOCK: u64 = 16;

/// An AEAD scheme or hash function the scheme series can time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A SKINNY-AEAD member (crate `skinny-aead`).
    SkinnyAead(AeadMember),
    /// Romulus-N, nonce-based (crate `skinny-romulus`).
    RomulusN,
    /// Romulus-M, misuse-resistant.
    RomulusM,
    /// Romulus-T, leakage-resilient.
    RomulusT,
    /// Romulus-H, the hash.
    RomulusH,
    /// A SKINNY-Hash member (crate `skinny-hash`).
    SkinnyHash(HashMember),
}

/// Whether an algorithm encrypts and authenticates, or hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Authenticated encryption: sealed and opened.
    Aead,
    /// A hash function: digests.
    Hash,
}

/// What one timed operation does to one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// Encrypt and tag.
    Seal,
    /// Check the tag and decrypt (the tag always verifies here).
    Open,
    /// The digest.
    Hash,
}

/// How the messages go through the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// One message per call, through the RustCrypto `aead` or `digest` traits.
    Single,
    /// A batch of messages per call through the many-message engine (crate
    /// `skinny-many`): the series of [`many`](super::many), whose records
    /// carry the batch's message count and the single route beside.
    Many,
}

/// What one message costs at least: the block-cipher calls and the rounds of
/// each (the key schedules and the mode's own work come on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Floor {
    /// Tweakable-block-cipher calls per message.
    pub calls: u64,
    /// Rounds per call.
    pub rounds: u32,
}

impl Floor {
    /// Cipher rounds per message: calls x rounds.
    pub const fn total_rounds(self) -> u64 {
        self.calls * self.rounds as u64
    }
}

impl Algorithm {
    /// Every algorithm, AEAD first (SKINNY-AEAD M1-M6, Romulus-N, -M, -T), then
    /// the hashes (Romulus-H, SKINNY-tk3-Hash, SKINNY-tk2-Hash).
    pub const ALL: [Algorithm; 12] = [
        Algorithm::SkinnyAead(AeadMember::M1),
        Algorithm::SkinnyAead(AeadMember::M2),
        Algorithm::SkinnyAead(AeadMember::M3),
        Algorithm::SkinnyAead(AeadMember::M4),
        Algorithm::SkinnyAead(AeadMember::M5),
        Algorithm::SkinnyAead(AeadMember::M6),
        Algorithm::RomulusN,
        Algorithm::RomulusM,
        Algorithm::RomulusT,
        Algorithm::RomulusH,
        Algorithm::SkinnyHash(HashMember::Tk3),
        Algorithm::SkinnyHash(HashMember::Tk2),
    ];

    /// The lower-case name in tables, CSV and JSON (`skinny-aead-m1`,
    /// `romulus-n`, `skinny-tk3-hash`): the library's, [`Scheme::name`] for
    /// the AEAD schemes the products share.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::SkinnyAead(m) => Scheme::SkinnyAead(m).name(),
            Algorithm::RomulusN => Scheme::RomulusN.name(),
            Algorithm::RomulusM => Scheme::RomulusM.name(),
            Algorithm::RomulusT => "romulus-t",
            Algorithm::RomulusH => "romulus-h",
            Algorithm::SkinnyHash(m) => m.name(),
        }
    }

    /// From [`Algorithm::name`], any case, blanks around ignored; a shared
    /// AEAD scheme by any name [`Scheme`] reads (`m1` too).
    pub fn from_name(s: &str) -> Option<Self> {
        if let Ok(scheme) = s.parse::<Scheme>() {
            return Some(scheme.into());
        }
        let s = s.trim();
        Self::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(s))
    }

    /// AEAD or hash.
    pub const fn family(self) -> Family {
        match self {
            Algorithm::RomulusH | Algorithm::SkinnyHash(_) => Family::Hash,
            _ => Family::Aead,
        }
    }

    /// The operations timed: seal and open, or hash.
    pub const fn operations(self) -> &'static [Operation] {
        match self.family() {
            Family::Aead => &[Operation::Seal, Operation::Open],
            Family::Hash => &[Operation::Hash],
        }
    }

    /// The block cipher underneath, named as [`Variant::name`] names the others.
    pub const fn cipher(self) -> &'static str {
        match self {
            Algorithm::RomulusN | Algorithm::RomulusM | Algorithm::RomulusT | Algorithm::RomulusH => "skinny-128-384+",
            Algorithm::SkinnyAead(m) => aead_variant(m).name(),
            Algorithm::SkinnyHash(m) => m.variant().name(),
        }
    }

    /// The floor of one message of `bytes` bytes with no associated data,
    /// counted from the specifications' algorithms (module `reference` of
    /// `skinny-romulus`, the mode of `skinny-aead`, the sponge of `skinny-hash`).
    pub fn floor(self, bytes: usize) -> Floor {
        let n = bytes as u64;
        // Blocks of the message as the Romulus modes parse it: an empty one is one block.
        let parsed = n.div_ceil(BLOCK).max(1);
        match self {
            // One call per message block (a partial one included), one for the
            // tag; the AD would add one per block.
            Algorithm::SkinnyAead(m) => Floor { calls: n.div_ceil(BLOCK) + 1, rounds: aead_variant(m).rounds() as u32 },
            // The empty AD is one padded block: its one call, then one per message block.
            Algorithm::RomulusN => Floor { calls: 1 + parsed, rounds: ROMULUS_ROUNDS },
            // The MAC takes AD and message blocks two per call, plus its last
            // call; the encryption one call per block (none for an empty message).
            Algorithm::RomulusM => {
                let encrypt = if n == 0 { 0 } else { parsed };
                // (1 + m) / 2 pairs of the one AD block and the m message blocks.
                Floor { calls: parsed.div_ceil(2) + 1 + encrypt, rounds: ROMULUS_ROUNDS }
            }
            // The first block key, a keystream call per block and a next key
            // between blocks; Romulus-H over ipad*(C) ‖ N ‖ the 7-byte counter;
            // the tag call.
            Algorithm::RomulusT => {
                let (keystream, padded) = if n == 0 { (0, 0) } else { (2 * parsed, n - n % BLOCK + BLOCK) };
                Floor { calls: keystream + romulus_h_calls(padded + BLOCK + 7) + 1, rounds: ROMULUS_ROUNDS }
            }
            Algorithm::RomulusH => Floor { calls: romulus_h_calls(n), rounds: ROMULUS_ROUNDS },
            // A permutation per rate's worth, one for the padded last block, one
            // between the two squeezes; each encrypts every block of the state.
            Algorithm::SkinnyHash(m) => Floor {
                calls: (n / m.rate_bytes() as u64 + 2) * m.blocks() as u64,
                rounds: m.variant().rounds() as u32,
            },
        }
    }
}

/// Romulus-H's calls for `n` bytes: two per 32-byte block, the input padded
/// with at least one byte.
const fn romulus_h_calls(n: u64) -> u64 {
    2 * (n / 32 + 1)
}

/// The SKINNY variant of a SKINNY-AEAD member.
const fn aead_variant(m: AeadMember) -> Variant {
    match m {
        AeadMember::M5 | AeadMember::M6 => Variant::Skinny128_256,
        _ => Variant::Skinny128_384,
    }
}

impl Family {
    /// Both, in the order measured.
    pub const ALL: [Family; 2] = [Family::Aead, Family::Hash];

    /// `aead` or `hash`.
    pub const fn name(self) -> &'static str {
        match self {
            Family::Aead => "aead",
            Family::Hash => "hash",
        }
    }

    /// The family's algorithms, in [`Algorithm::ALL`] order.
    pub fn members(self) -> Vec<Algorithm> {
        Algorithm::ALL.into_iter().filter(|a| a.family() == self).collect()
    }
}

impl Operation {
    /// Every operation, in the order measured.
    pub const ALL: [Operation; 3] = [Operation::Seal, Operation::Open, Operation::Hash];

    /// `seal`, `open` or `hash`.
    pub const fn name(self) -> &'static str {
        match self {
            Operation::Seal => "seal",
            Operation::Open => "open",
            Operation::Hash => "hash",
        }
    }

    /// From [`Operation::name`].
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.name() == s)
    }
}

impl Route {
    /// `single` or `many`.
    pub const fn name(self) -> &'static str {
        match self {
            Route::Single => "single",
            Route::Many => "many",
        }
    }

    /// From [`Route::name`].
    pub fn from_name(s: &str) -> Option<Self> {
        [Route::Single, Route::Many].into_iter().find(|r| r.name() == s)
    }
}

impl From<Scheme> for Algorithm {
    fn from(scheme: Scheme) -> Self {
        match scheme {
            Scheme::RomulusN => Algorithm::RomulusN,
            Scheme::RomulusM => Algorithm::RomulusM,
            Scheme::SkinnyAead(m) => Algorithm::SkinnyAead(m),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_families_split() {
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_name(&format!(" {} ", a.name().to_uppercase())), Some(a));
        }
        assert_eq!(Algorithm::from_name("romulus-x"), None);
        for s in Scheme::ALL {
            assert_eq!(Algorithm::from_name(s.short_name()), Some(Algorithm::from(s)));
            assert_eq!(Algorithm::from(s).name(), s.name());
        }
        assert_eq!((Family::Aead.members().len(), Family::Hash.members().len()), (9, 3));
        for o in Operation::ALL {
            assert_eq!(Operation::from_name(o.name()), Some(o));
        }
        for r in [Route::Single, Route::Many] {
            assert_eq!(Route::from_name(r.name()), Some(r));
        }
    }

    /// Floors counted by hand from the specifications at a few lengths.
    #[test]
    fn floors() {
        let calls = |a: Algorithm, n: usize| a.floor(n).calls;
        // SKINNY-AEAD: a call per block (partial included) and the tag.
        assert_eq!(
            (calls(Algorithm::SkinnyAead(AeadMember::M1), 0), calls(Algorithm::SkinnyAead(AeadMember::M1), 17)),
            (1, 3)
        );
        assert_eq!(Algorithm::SkinnyAead(AeadMember::M5).floor(64), Floor { calls: 5, rounds: 48 });
        // Romulus-N: the empty AD's call and one per message block.
        assert_eq!(Algorithm::RomulusN.floor(16), Floor { calls: 2, rounds: 40 });
        assert_eq!(calls(Algorithm::RomulusN, 1024), 65);
        // Romulus-M, 64 bytes: MAC (1 + 4) / 2 + 1 = 3, encryption 4.
        assert_eq!(calls(Algorithm::RomulusM, 64), 7);
        assert_eq!(calls(Algorithm::RomulusM, 0), 2);
        // Romulus-T, 16 bytes: keystream 2, hash of 32 + 16 + 7 = 55 bytes 4, tag 1.
        assert_eq!(calls(Algorithm::RomulusT, 16), 7);
        assert_eq!(calls(Algorithm::RomulusT, 0), 3);
        assert_eq!(
            (calls(Algorithm::RomulusH, 0), calls(Algorithm::RomulusH, 32), calls(Algorithm::RomulusH, 31)),
            (2, 4, 2)
        );
        // SKINNY-Hash: (n / rate + 2) permutations of 3 or 2 calls.
        assert_eq!(Algorithm::SkinnyHash(HashMember::Tk3).floor(16), Floor { calls: 9, rounds: 56 });
        assert_eq!(Algorithm::SkinnyHash(HashMember::Tk2).floor(16), Floor { calls: 12, rounds: 48 });
        assert_eq!(Algorithm::RomulusN.floor(16).total_rounds(), 80);
    }
}
