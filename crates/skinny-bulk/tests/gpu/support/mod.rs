//! What the GPU tests check against (`mod support;`): each operation by the
//! modes' definitions (`skinny_test_support::textbook`).

use skinny::Skinny;
use skinny_bulk::gpu::Op;
use skinny_test_support::textbook;

/// What `op` gives for `data` by the modes' definitions (`iv` unused by ECB).
pub fn reference(c: &Skinny, op: Op, iv: &[u8], data: &[u8]) -> Vec<u8> {
    match op {
        Op::EcbEncrypt => textbook::ecb(c, true, data),
        Op::EcbDecrypt => textbook::ecb(c, false, data),
        Op::Ctr => textbook::ctr(c, iv, data),
        Op::CbcDecrypt => textbook::cbc_decrypt(c, iv, data),
        Op::CfbDecrypt => textbook::cfb(c, false, iv, data),
    }
}
