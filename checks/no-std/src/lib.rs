//! A `#![no_std]` static library built on `skinny` with default features off:
//! if it compiles, the cipher needs neither std nor an allocator. The function
//! below touches the paths a firmware would: key expansion, one block with every
//! variant (run-time and typed), many blocks through the bitsliced code (with the
//! run-time AVX2 detection), the tweakable types and variant names, and
//! SKINNY-AEAD in place (`skinny-aead` without `alloc`).
#![no_std]

use skinny::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, TweakBlockCipherEncrypt};
use skinny::{Skinny, Variant};

/// Without std there is no unwinding or printing: a panic just stops here.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// Encrypts and decrypts with every variant and returns 0 when every round trip
/// gave back its input (a C caller can check it); the number of failures
/// otherwise.
#[no_mangle]
pub extern "C" fn skinny_no_std_check() -> u32 {
    let mut failures = 0;
    let key = [0x5au8; 48];
    for v in Variant::ALL {
        let Ok(c) = Skinny::new(v, &key[..v.tweakey_bytes()]) else {
            failures += 1;
            continue;
        };
        let bs = v.block_bytes();
        let mut block = [0x11u8; 16];
        c.encrypt_block(&mut block[..bs]);
        c.decrypt_block(&mut block[..bs]);
        failures += u32::from(block != [0x11u8; 16]);

        // 300 blocks: one bitsliced batch or more, then a tail.
        let mut many = [0x22u8; 300 * 16];
        let data = &mut many[..300 * bs];
        c.encrypt_blocks(data);
        c.decrypt_blocks(data);
        failures += u32::from(data.iter().any(|&b| b != 0x22));

        failures += u32::from(v.name().parse::<Variant>() != Ok(v));
    }

    let typed = skinny::Skinny128_384::new(&Array::from([7u8; 48]));
    let mut block = Array::from([3u8; 16]);
    typed.encrypt_block(&mut block);
    typed.decrypt_block(&mut block);
    failures += u32::from(block != Array::from([3u8; 16]));

    let typed = skinny::Skinny64_64::new(&Array::from([9u8; 8]));
    let mut block = Array::from([4u8; 8]);
    typed.encrypt_block(&mut block);
    typed.decrypt_block(&mut block);
    failures += u32::from(block != Array::from([4u8; 8]));

    let tweakable = skinny::TweakableSkinny128_256::new(&Array::from([1u8; 16]));
    let mut block = Array::from([5u8; 16]);
    tweakable.encrypt_block(&Array::from([2u8; 16]), &mut block);
    failures += u32::from(block == Array::from([5u8; 16]));

    failures + aead_round_trips()
}

/// SKINNY-AEAD without an allocator: in place, detached tags, on both ciphers
/// (M1 on SKINNY-128-384, M6 on SKINNY-128-256); a flipped tag must fail and
/// leave the buffer zeroed.
fn aead_round_trips() -> u32 {
    use skinny_aead::aead::{AeadInOut, KeyInit};
    use skinny_aead::{SkinnyAeadM1, SkinnyAeadM6};

    let mut failures = 0;
    let m1 = SkinnyAeadM1::new(&Array::from([6u8; 16]));
    let nonce = Array::from([8u8; 16]);
    let mut data = [0x33u8; 40];
    let Ok(tag) = m1.encrypt_inout_detached(&nonce, b"ad", data.as_mut_slice().into()) else {
        return failures + 1;
    };
    failures += u32::from(m1.decrypt_inout_detached(&nonce, b"ad", data.as_mut_slice().into(), &tag).is_err());
    failures += u32::from(data != [0x33u8; 40]);

    let m6 = SkinnyAeadM6::new(&Array::from([6u8; 16]));
    let nonce = Array::from([8u8; 12]);
    let Ok(mut tag) = m6.encrypt_inout_detached(&nonce, b"", data.as_mut_slice().into()) else {
        return failures + 1;
    };
    tag[0] ^= 1;
    failures += u32::from(m6.decrypt_inout_detached(&nonce, b"", data.as_mut_slice().into(), &tag).is_ok());
    failures += u32::from(data != [0u8; 40]);
    failures
}
