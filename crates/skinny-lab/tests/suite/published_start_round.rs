//! A published middle part at its true place: the 6-round SKINNY-128-256
//! boomerang switch of Hadipour, Bagheri and Song's 18-round distinguisher II
//! (ToSC 2021(2); repository hadipourh/Boomerang, `SKINNY-128-256-II/
//! Middle-6-Rounds/middle6r.c`, "about 2^(-20.19)"), run as rounds 7..12 of
//! the cipher instead of rounds 1..6 as their program runs it. The tweakey
//! differences of `middle6r.c` are round 7's tweakey-state differences: the
//! upper part's master difference advanced 6 rounds is `dk1`, and `dk2`
//! advanced 6 rounds is the lower part's difference at round 13 (the
//! `*_conditions.yaml` of the same repository); both are checked here.
//! docs/lab-validation.md has the long runs.

use skinny::hazmat::partial::{advance_tweakey, rewind_tweakey};
use skinny::Variant;
use skinny_lab::{stats, Boomerang, Common, TweakeyAt};

const V: Variant = Variant::Skinny128_256;
const DP: &str = "00000000000000000006000000000000";
/// Round 7's tweakey-state differences (`middle6r.c`'s dk1, dk2).
const DK1: &str = "0000000000000000000000000200000000000000000000000000000004000000";
const DK2: &str = "000000000000000000000000000000f80000000000000000000000000000007f";
/// The master difference of the upper 6 rounds (`p`, rounds 1..6).
const UPPER_MASTER: &str = "0000000000000000000200000000000000000000000000000080000000000000";
/// The difference of the lower 6 rounds at their start, round 13 (`q`).
const LOWER_AT_13: &str = "00000000000000000000f8000000000000000000000000000000fc0000000000";
const PUBLISHED_LOG2_P: f64 = -20.19;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn middle(at: TweakeyAt, dk1: Vec<u8>, dk2: Vec<u8>, queries: u64) -> Boomerang {
    let mut c = Common::new(V, 6, queries);
    c.start_round = 7;
    c.tk_at = at;
    c.key_every = 1 << 12;
    c.seed = 2021;
    let mut b = Boomerang::new(c, hex(DP), vec![0; 16]);
    b.dk1 = dk1;
    b.dk2 = dk2;
    b
}

#[test]
fn the_middle_part_s_differences_are_those_of_round_7() {
    let mut up = hex(UPPER_MASTER);
    advance_tweakey(V, &mut up, 6).unwrap();
    assert_eq!(up, hex(DK1), "upper master difference after 6 rounds");
    let mut low = hex(DK2);
    advance_tweakey(V, &mut low, 6).unwrap();
    assert_eq!(low, hex(LOWER_AT_13), "dk2 after 6 more rounds");
}

#[test]
fn the_middle_part_at_rounds_7_to_12_returns_as_published() {
    let queries = 1 << 25;
    // Zero returns must fail the check, or it would prove nothing.
    assert!(stats::estimate_at(0, queries, 1e-6).log2_upper < PUBLISHED_LOG2_P);
    let at_start = middle(TweakeyAt::Start, hex(DK1), hex(DK2), queries).run().unwrap();
    let est = stats::estimate_at(at_start.hits, queries, 1e-6);
    assert!(
        est.log2_lower.unwrap_or(f64::NEG_INFINITY) <= PUBLISHED_LOG2_P && PUBLISHED_LOG2_P <= est.log2_upper,
        "{} returns of 2^25",
        at_start.hits
    );

    // The same run with the differences given at the master tweakey.
    let (mut dk1, mut dk2) = (hex(DK1), hex(DK2));
    rewind_tweakey(V, &mut dk1, 6).unwrap();
    rewind_tweakey(V, &mut dk2, 6).unwrap();
    assert_eq!(dk1, hex(UPPER_MASTER));
    let b = middle(TweakeyAt::Master, dk1, dk2, 1 << 16);
    let small = middle(TweakeyAt::Start, hex(DK1), hex(DK2), 1 << 16);
    assert_eq!(b.run().unwrap().hits, small.run().unwrap().hits);
}
