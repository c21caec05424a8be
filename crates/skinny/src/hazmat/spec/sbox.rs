//! The S-boxes S4 and S8 as the specification draws them: layers of NOR and XOR
//! separated by wire permutations. Computed with logic only, never looked up in a
//! table, so the time taken does not depend on the (secret) cell value.
//!
//! The same S-boxes as tables ([`S4_TABLE`], [`S8_TABLE`] and their inverses)
//! are built from these circuits at compile time, for the analysis of the
//! public S-boxes (difference and linear tables); the cipher never reads them.

#[inline(always)]
const fn bit(x: u8, i: u32) -> u8 {
    (x >> i) & 1
}

/// One layer of S4: `x0 ^= NOR(x3, x2)`.
#[inline(always)]
const fn nor_layer4(x: u8) -> u8 {
    x ^ (!(bit(x, 3) | bit(x, 2)) & 1)
}

/// Left cyclic shift of the four bits of a nibble: (x3,x2,x1,x0) → (x2,x1,x0,x3).
#[inline(always)]
const fn rotl4(x: u8) -> u8 {
    ((x << 1) | (x >> 3)) & 0xf
}

/// Right cyclic shift of a nibble, the inverse of [`rotl4`].
#[inline(always)]
const fn rotr4(x: u8) -> u8 {
    ((x >> 1) | (x << 3)) & 0xf
}

/// S4, the 4-bit S-box of SKINNY-64: four NOR/XOR layers with a left cyclic
/// shift between each.
#[inline(always)]
pub const fn sbox4(x: u8) -> u8 {
    let x = rotl4(nor_layer4(x));
    let x = rotl4(nor_layer4(x));
    let x = rotl4(nor_layer4(x));
    nor_layer4(x)
}

/// S4⁻¹: the layers of [`sbox4`] undone in reverse order (each NOR/XOR layer is
/// its own inverse because it does not change its inputs).
#[inline(always)]
pub const fn sbox4_inv(x: u8) -> u8 {
    let x = nor_layer4(x);
    let x = nor_layer4(rotr4(x));
    let x = nor_layer4(rotr4(x));
    nor_layer4(rotr4(x))
}

/// One layer of S8: `x4 ^= NOR(x7, x6)` and `x0 ^= NOR(x3, x2)`.
#[inline(always)]
const fn nor_layer8(x: u8) -> u8 {
    x ^ ((!(bit(x, 7) | bit(x, 6)) & 1) << 4) ^ (!(bit(x, 3) | bit(x, 2)) & 1)
}

/// The wire permutation between layers of S8:
/// (x7,x6,x5,x4,x3,x2,x1,x0) → (x2,x1,x7,x6,x4,x0,x3,x5).
#[inline(always)]
const fn permute8(x: u8) -> u8 {
    (bit(x, 2) << 7)
        | (bit(x, 1) << 6)
        | (bit(x, 7) << 5)
        | (bit(x, 6) << 4)
        | (bit(x, 4) << 3)
        | (bit(x, 0) << 2)
        | (bit(x, 3) << 1)
        | bit(x, 5)
}

/// The inverse of [`permute8`].
#[inline(always)]
const fn permute8_inv(x: u8) -> u8 {
    (bit(x, 7) << 2)
        | (bit(x, 6) << 1)
        | (bit(x, 5) << 7)
        | (bit(x, 4) << 6)
        | (bit(x, 3) << 4)
        | (bit(x, 2))
        | (bit(x, 1) << 3)
        | (bit(x, 0) << 5)
}

/// The last wire crossing of S8 swaps bits 1 and 2 instead of [`permute8`].
#[inline(always)]
const fn swap_bits_1_2(x: u8) -> u8 {
    (x & 0xf9) | (bit(x, 1) << 2) | (bit(x, 2) << 1)
}

/// S8, the 8-bit S-box of SKINNY-128.
#[inline(always)]
pub const fn sbox8(x: u8) -> u8 {
    let x = permute8(nor_layer8(x));
    let x = permute8(nor_layer8(x));
    let x = permute8(nor_layer8(x));
    swap_bits_1_2(nor_layer8(x))
}

/// S8⁻¹.
#[inline(always)]
pub const fn sbox8_inv(x: u8) -> u8 {
    let x = nor_layer8(swap_bits_1_2(x));
    let x = nor_layer8(permute8_inv(x));
    let x = nor_layer8(permute8_inv(x));
    nor_layer8(permute8_inv(x))
}

/// A table of the `const fn` `$f` on `0..$n`, built at compile time (a
/// macro: a `const fn` cannot call a function pointer).
macro_rules! tabulate {
    ($f:ident, $n:expr) => {{
        let mut t = [0u8; $n];
        let mut i = 0;
        while i < $n {
            t[i] = $f(i as u8);
            i += 1;
        }
        t
    }};
}

/// S4 as a 16-entry table (`S4_TABLE[x] = sbox4(x)`), computed at compile time
/// from the circuit above: for analysis of the public S-box (its DDT, LAT,
/// ...), never for encrypting secret data, where a table lookup would leak
/// the index through the cache.
pub const S4_TABLE: [u8; 16] = tabulate!(sbox4, 16);

/// S4⁻¹ as a 16-entry table (`S4_INV_TABLE[S4_TABLE[x]] = x`); for analysis
/// only, like [`S4_TABLE`].
pub const S4_INV_TABLE: [u8; 16] = tabulate!(sbox4_inv, 16);

/// S8 as a 256-entry table (`S8_TABLE[x] = sbox8(x)`); for analysis only,
/// like [`S4_TABLE`].
pub const S8_TABLE: [u8; 256] = tabulate!(sbox8, 256);

/// S8⁻¹ as a 256-entry table; for analysis only, like [`S4_TABLE`].
pub const S8_INV_TABLE: [u8; 256] = tabulate!(sbox8_inv, 256);

#[cfg(test)]
mod tests {
    use super::*;

    /// S4 as tabulated in the specification (Table 1 of Beierle et al.).
    const S4_SPEC: [u8; 16] = [0xc, 0x6, 0x9, 0x0, 0x1, 0xa, 0x2, 0xb, 0x3, 0x8, 0x5, 0xd, 0x4, 0xe, 0x7, 0xf];

    #[test]
    fn sbox4_matches_specification_table() {
        for x in 0..16u8 {
            assert_eq!(sbox4(x), S4_SPEC[x as usize], "S4({x:#x})");
        }
    }

    #[test]
    fn sbox8_first_row_matches_specification_table() {
        // First row of the specification's S8 table.
        let row = [0x65, 0x4c, 0x6a, 0x42, 0x4b, 0x63, 0x43, 0x6b, 0x55, 0x75, 0x5a, 0x7a, 0x53, 0x73, 0x5b, 0x7b];
        for x in 0..16u8 {
            assert_eq!(sbox8(x), row[x as usize], "S8({x:#x})");
        }
    }

    #[test]
    fn inverses_undo_the_sboxes() {
        for x in 0..16u8 {
            assert_eq!(sbox4_inv(sbox4(x)), x);
        }
        let mut seen = [false; 256];
        for x in 0..=255u8 {
            assert_eq!(sbox8_inv(sbox8(x)), x);
            seen[sbox8(x) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s), "S8 is a permutation");
    }

    #[test]
    fn tables_agree_with_the_circuits_on_every_input() {
        for x in 0..16u8 {
            assert_eq!(S4_TABLE[usize::from(x)], sbox4(x), "S4({x:#x})");
            assert_eq!(S4_INV_TABLE[usize::from(x)], sbox4_inv(x), "S4^-1({x:#x})");
        }
        assert_eq!(S4_TABLE, S4_SPEC);
        for x in 0..=255u8 {
            assert_eq!(S8_TABLE[usize::from(x)], sbox8(x), "S8({x:#x})");
            assert_eq!(S8_INV_TABLE[usize::from(x)], sbox8_inv(x), "S8^-1({x:#x})");
            assert_eq!(S8_INV_TABLE[usize::from(S8_TABLE[usize::from(x)])], x);
        }
    }
}
