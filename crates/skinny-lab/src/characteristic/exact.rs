//! Exact products of table entries: a probability or correlation as
//! `± odd / 2^k`, the odd part in base-10^9 limbs, so that a characteristic of
//! hundreds of S-boxes keeps every digit.

/// An exact probability or correlation: `± numerator / 2^log2_denominator`,
/// the numerator odd (or 0 or 1) in decimal, so that products of hundreds of
/// table entries stay exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactValue {
    /// Negative (a correlation's sign).
    pub negative: bool,
    /// The numerator in decimal digits.
    pub numerator: String,
    /// The denominator's log2.
    pub log2_denominator: u64,
}

impl ExactValue {
    /// The value as a float (0 for values below the smallest f64).
    pub fn to_f64(&self) -> f64 {
        // In logs, so that a numerator past f64's range over a denominator
        // past it still gives the quotient: the leading 17 digits and the
        // count of the others.
        let lead = self.numerator.len().min(17);
        let head: f64 = self.numerator[..lead].parse().unwrap_or(0.0);
        if head == 0.0 {
            return 0.0;
        }
        let log2_n = head.log2() + (self.numerator.len() - lead) as f64 * core::f64::consts::LOG2_10;
        let magnitude = (log2_n - self.log2_denominator as f64).exp2();
        if self.negative {
            -magnitude
        } else {
            magnitude
        }
    }
}

impl core::fmt::Display for ExactValue {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let sign = if self.negative { "-" } else { "" };
        write!(f, "{sign}{}/2^{}", self.numerator, self.log2_denominator)
    }
}

/// A product of small integers kept exact: the odd part as decimal limbs,
/// the powers of two counted apart.
#[derive(Clone, Debug)]
pub(super) struct Product {
    negative: bool,
    zero: bool,
    /// Base 10^9, least significant first.
    odd: Vec<u32>,
    twos: u64,
    log2_denominator: u64,
}

const LIMB: u64 = 1_000_000_000;

impl Product {
    pub(super) fn one() -> Self {
        Self { negative: false, zero: false, odd: vec![1], twos: 0, log2_denominator: 0 }
    }

    /// Times `entry / 2^bits`.
    pub(super) fn times(&mut self, entry: i64, bits: u32) {
        self.log2_denominator += u64::from(bits);
        if entry == 0 {
            self.zero = true;
            return;
        }
        self.negative ^= entry < 0;
        let mut m = entry.unsigned_abs();
        self.twos += u64::from(m.trailing_zeros());
        m >>= m.trailing_zeros();
        let mut carry = 0u64;
        for limb in &mut self.odd {
            let v = u64::from(*limb) * m + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.odd.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }

    pub(super) fn exact(&self) -> ExactValue {
        if self.zero {
            return ExactValue { negative: false, numerator: "0".into(), log2_denominator: 0 };
        }
        // The powers of two in the numerator cancel against the denominator;
        // any left over (a value of 2^k, k > 0, never happens for a
        // probability or correlation) multiply the numerator back.
        let cancel = self.twos.min(self.log2_denominator);
        let mut p = self.clone();
        let mut extra = self.twos - cancel;
        while extra > 0 {
            let step = extra.min(20) as u32;
            p.times(1 << step, 0);
            extra -= u64::from(step);
        }
        let mut numerator = p.odd.last().map_or_else(String::new, |l| l.to_string());
        for limb in p.odd.iter().rev().skip(1) {
            numerator.push_str(&format!("{limb:09}"));
        }
        ExactValue { negative: self.negative, numerator, log2_denominator: self.log2_denominator - cancel }
    }
}

/// `total *= round` for two exact products.
pub(super) fn merge_into(total: &mut Product, round: &Product) {
    total.negative ^= round.negative;
    total.zero |= round.zero;
    total.twos += round.twos;
    total.log2_denominator += round.log2_denominator;
    // Multiply the odd parts: schoolbook on base 10^9 limbs.
    let mut out = vec![0u64; total.odd.len() + round.odd.len()];
    for (i, &a) in total.odd.iter().enumerate() {
        let mut carry = 0u64;
        for (j, &b) in round.odd.iter().enumerate() {
            let v = out[i + j] + u64::from(a) * u64::from(b) + carry;
            out[i + j] = v % LIMB;
            carry = v / LIMB;
        }
        let mut k = i + round.odd.len();
        while carry > 0 {
            let v = out[k] + carry;
            out[k] = v % LIMB;
            carry = v / LIMB;
            k += 1;
        }
    }
    while out.len() > 1 && out.last() == Some(&0) {
        out.pop();
    }
    total.odd = out.into_iter().map(|l| l as u32).collect();
}
