//! Every public call of `skinny` runs on a 64 KiB stack, in the test profile
//! and in the dev profile at opt-level 0 (`cargo test --profile dev -p skinny
//! --test stack`): the block cipher types through the RustCrypto traits (one
//! block, 64 KiB of blocks, tweakable), the run-time variant type, and the
//! bitsliced engines (one tweakey, per-block tweakeys and TK1s, lockstep
//! lanes) on every path this CPU has. Each call runs in a child
//! process (see `skinny_test_support::stack`), so an overflow names the call.

use cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, TweakBlockCipherDecrypt, TweakBlockCipherEncrypt,
};
use skinny::hazmat::bitsliced::{Direction, Lockstep, Path, PerBlockTk1, PerBlockTweakeys};
use skinny::{BitslicedSkinny, Skinny, Variant};
use skinny_test_support::stack::{check, Case};

const BULK: usize = 64 * 1024;

/// A RustCrypto block cipher type: one block each way, then 64 KiB of blocks each way.
fn typed<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + 'static>(name: &str) -> Vec<Case> {
    let key = || C::new_from_slice(&vec![7u8; C::key_size()]).expect("key length");
    vec![
        Case::new(format!("{name} encrypt_block/decrypt_block"), move || {
            let c = key();
            let mut block = Array::default();
            c.encrypt_block(&mut block);
            c.decrypt_block(&mut block);
        }),
        Case::new(format!("{name} encrypt_blocks/decrypt_blocks 64 KiB"), move || {
            let c = key();
            let mut blocks = vec![Array::default(); BULK / C::block_size()];
            c.encrypt_blocks(&mut blocks);
            c.decrypt_blocks(&mut blocks);
        }),
    ]
}

/// A tweakable type: one block each way.
fn tweakable<C: KeyInit + TweakBlockCipherEncrypt + TweakBlockCipherDecrypt + 'static>(name: &str) -> Case {
    Case::new(format!("{name} tweakable encrypt_block/decrypt_block"), move || {
        let c = C::new_from_slice(&vec![7u8; C::key_size()]).expect("key length");
        let (tweak, mut block) = (Array::default(), Array::default());
        c.encrypt_block(&tweak, &mut block);
        c.decrypt_block(&tweak, &mut block);
    })
}

/// The run-time variant type and the engines, for one variant.
fn engines(v: Variant) -> Vec<Case> {
    let mut cases = vec![Case::new(format!("Skinny({v}) blocks, encrypt_blocks/decrypt_blocks 64 KiB"), move || {
        let c = Skinny::new(v, &vec![5u8; v.tweakey_bytes()]).expect("key length");
        let mut block = vec![0u8; v.block_bytes()];
        c.encrypt_block(&mut block);
        c.decrypt_block(&mut block);
        let mut data = vec![1u8; BULK];
        c.encrypt_blocks(&mut data);
        c.decrypt_blocks(&mut data);
    })];
    for path in Path::ALL.into_iter().filter(|p| p.is_available()) {
        cases.push(Case::new(format!("Skinny({v}) + BitslicedSkinny on {path}, 64 KiB + a tail"), move || {
            let c = Skinny::new(v, &vec![5u8; v.tweakey_bytes()]).expect("key length");
            let mut data = vec![1u8; BULK + 3 * v.block_bytes()];
            c.encrypt_blocks_with(path, &mut data).expect("available");
            c.decrypt_blocks_with(path, &mut data).expect("available");
            let b = BitslicedSkinny::new(&c);
            b.encrypt_blocks(&mut data);
            b.decrypt_blocks(&mut data);
            b.encrypt_blocks_with(path, &mut data).expect("available");
            b.decrypt_blocks_with(path, &mut data).expect("available");
        }));
        cases.push(Case::new(format!("PerBlockTweakeys({v}) on {path}, 64 KiB + a tail"), move || {
            let e = PerBlockTweakeys::new(v, v.rounds()).expect("rounds").on_path(path).expect("available");
            let blocks = BULK / v.block_bytes() + 3;
            let mut data = vec![1u8; blocks * v.block_bytes()];
            let tweakeys = vec![9u8; blocks * v.tweakey_bytes()];
            e.encrypt(&mut data, &tweakeys);
            e.decrypt(&mut data, &tweakeys);
        }));
        cases.push(Case::new(format!("PerBlockTk1({v}) on {path}, 64 KiB + a tail"), move || {
            let e = PerBlockTk1::new(v, v.rounds(), &vec![5u8; v.tweakey_bytes()])
                .expect("valid")
                .on_path(path)
                .expect("available");
            let mut data = vec![1u8; BULK + 3 * v.block_bytes()];
            let tk1s = vec![9u8; data.len()];
            e.encrypt(&mut data, &tk1s);
            e.decrypt(&mut data, &tk1s);
            if v.block_bytes() == 16 {
                e.crypt_lfsr(Direction::Encrypt, &mut data, 1, 64);
                e.crypt_lfsr(Direction::Decrypt, &mut data, 1, 24);
            }
        }));
        if Lockstep::new(v, v.rounds()).is_ok() {
            cases.push(Case::new(
                format!("Lockstep({v}) on {path}: expand, slice in, encrypt with each TK1 kind, slice out"),
                move || {
                    let ls = Lockstep::new(v, v.rounds()).expect("valid").on_path(path).expect("available");
                    let n = ls.lanes();
                    let mut table = vec![0u8; ls.tweakey_table_bytes()];
                    ls.expand(&vec![7u8; ls.lane_tweakey_bytes() * n], &mut table);
                    let blocks = vec![1u8; 16 * n];
                    let mut state = vec![0u8; ls.state_bytes()];
                    ls.slice_in(&blocks, &mut state);
                    ls.encrypt(&mut state, &[5u8; 16], &table);
                    ls.encrypt(&mut state, &[[5u8; 8], [0u8; 8]].concat().try_into().expect("16 bytes"), &table);
                    let mut tk1 = vec![0u8; ls.tk1_slices_bytes()];
                    ls.slice_tk1(&vec![3u8; 8 * n], &mut tk1);
                    ls.encrypt_lane_tk1(&mut state, &tk1, &table);
                    let mut out = vec![0u8; 16 * n];
                    ls.slice_out(&state, &mut out);
                },
            ));
        }
    }
    cases
}

#[test]
fn every_public_call_fits_in_64_kib() {
    let mut cases = Vec::new();
    cases.extend(typed::<skinny::Skinny64_64>("Skinny64_64"));
    cases.extend(typed::<skinny::Skinny64_128>("Skinny64_128"));
    cases.extend(typed::<skinny::Skinny64_192>("Skinny64_192"));
    cases.extend(typed::<skinny::Skinny128_128>("Skinny128_128"));
    cases.extend(typed::<skinny::Skinny128_256>("Skinny128_256"));
    cases.extend(typed::<skinny::Skinny128_384>("Skinny128_384"));
    cases.push(tweakable::<skinny::TweakableSkinny64_128>("TweakableSkinny64_128"));
    cases.push(tweakable::<skinny::TweakableSkinny64_192>("TweakableSkinny64_192"));
    cases.push(tweakable::<skinny::TweakableSkinny128_256>("TweakableSkinny128_256"));
    cases.push(tweakable::<skinny::TweakableSkinny128_384>("TweakableSkinny128_384"));
    for v in Variant::ALL {
        cases.extend(engines(v));
    }
    check("every_public_call_fits_in_64_kib", cases);
}
