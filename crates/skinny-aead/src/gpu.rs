//! SKINNY-AEAD with a message's whole blocks on an NVIDIA GPU (feature `cuda`):
//! [`GpuAead`] seals and opens data already in device memory, or host memory
//! through the device, giving the same bytes and tags as the CPU types.
//!
//! The whole blocks of the message (and of large associated data) are one
//! kernel run each (`skinny_cuda::aead`): every block's counter is computed on
//! the device, the key and nonce are masks in `__constant__` memory, and the
//! checksum is summed there. The rest of the mode (the partial last block, the
//! tag block, short AD) is a handful of blocks, done on the CPU by the same
//! code as the CPU types (`mode.rs`). Constant time like the CPU engines: the
//! kernels are bitsliced (no table, no secret-dependent branch or address).
//!
//! On a wrong tag, `open` overwrites the whole message with zeros (on the
//! device, or in the host buffer) before returning the error: no unverified
//! plaintext is released.

use crate::engine::{BitslicedEngine, BlockEngine, Layout, Lfsr, SingleEngine, BLOCK};
use crate::mode::{self, finish_message, xor_into, D_AD, D_AD_PARTIAL, D_MSG};
use crate::sealed::Member;
use crate::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_cuda::aead::{lfsr_advance, AeadCounter, AeadKernel, AeadOp};
pub use skinny_cuda::cudarc;
use skinny_cuda::cudarc::driver::CudaSlice;
pub use skinny_cuda::{Gpu, GpuError};
use std::sync::Arc;
use std::vec::Vec;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

/// Associated data at least this long goes through the GPU (uploaded, one
/// kernel run); shorter AD stays on the CPU, where a few blocks cost less
/// than the copy and launch.
const GPU_AD_BYTES: usize = 1 << 20;

/// Why a GPU seal or open failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuAeadError {
    /// The GPU failed (with the driver's code).
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A nonce of the wrong length for the member.
    #[error("{member} takes a {need}-byte nonce, got {got}")]
    NonceLength {
        /// The member.
        member: Member,
        /// Its nonce length.
        need: usize,
        /// What was given.
        got: usize,
    },
    /// A message longer than the device buffer, or than the member's counter
    /// allows.
    #[error("message length {len} does not fit (device buffer or the member's counter)")]
    Length {
        /// The length asked for.
        len: usize,
    },
    /// The tag did not verify: wrong key, nonce, AD, tag, or altered data.
    /// The message was overwritten with zeros.
    #[error("the tag does not verify (wrong key, nonce or associated data, or altered data)")]
    Tag,
}

/// The mode's counter after `steps` blocks from its start (the GPU ran them).
pub(crate) fn counter_after(layout: Layout, steps: u64) -> Lfsr {
    Lfsr::at(layout, lfsr_advance(layout.counter_bits(), Lfsr::new(layout).value(), steps))
}

/// The parameters of `member` as the mode knows them.
pub(crate) fn params(member: Member) -> mode::Member {
    match member {
        Member::M1 => SkinnyAeadM1::MEMBER,
        Member::M2 => SkinnyAeadM2::MEMBER,
        Member::M3 => SkinnyAeadM3::MEMBER,
        Member::M4 => SkinnyAeadM4::MEMBER,
        Member::M5 => SkinnyAeadM5::MEMBER,
        Member::M6 => SkinnyAeadM6::MEMBER,
    }
}

/// The tweakey a run of blocks in `domain` shares (the counter cells zero):
/// what the kernels' masks are made from.
pub(crate) fn run_tweakey(m: mode::Member, key: &[u8; 16], nonce: &[u8], domain: u8) -> Zeroizing<Vec<u8>> {
    let layout = m.layout;
    let mut tk = Zeroizing::new(layout.base_tweakey(key, nonce).to_vec());
    tk.truncate(layout.variant().tweakey_bytes());
    let mut counter = Lfsr::new(layout);
    layout.set_tweak(&mut tk, m.tweak(&mut counter, domain));
    tk[..layout.counter_bits() as usize / 8].fill(0);
    tk
}

/// The counter kind, and so the kernels, of a layout.
pub(crate) fn aead_counter(layout: Layout) -> AeadCounter {
    match layout {
        Layout::Tk3 => AeadCounter::Lfsr64,
        Layout::Tk2 => AeadCounter::Lfsr24,
    }
}

/// The tag block of a message whose whole blocks the GPU ran (`gpu_part`:
/// how many, and their checksum), its AD short enough for the CPU: the partial
/// last block `last` (input to output in place), the tag block, the AD's part.
pub(crate) fn finish_on_cpu(
    m: mode::Member,
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    gpu_part: (u64, &[u8; BLOCK]),
    last: &mut [u8],
    decrypt: bool,
) -> Zeroizing<[u8; BLOCK]> {
    // A sealed chunk's AD is its 24-byte header: with the partial block and
    // the tag, about four blocks, which the bitsliced engine hands to the
    // single-block engine anyway. Building that engine (its per-domain ciphers
    // make it a struct of about 86 KB) for each chunk cost more than the
    // blocks (run 37: the GPU engine fell from 4.8 to 3.6 GB/s in memory).
    if ad.len() < SHORT_AD_BYTES {
        finish_with(m, &SingleEngine::new(m.layout, key, nonce), ad, gpu_part, last, decrypt)
    } else {
        finish_with(m, &BitslicedEngine::new(m.layout, key, nonce), ad, gpu_part, last, decrypt)
    }
}

/// AD shorter than this goes block by block through [`SingleEngine`] (as
/// [`BitslicedEngine`] sends runs under 1/16 of a batch).
const SHORT_AD_BYTES: usize = 16 * BLOCK;

fn finish_with<E: BlockEngine>(
    m: mode::Member,
    engine: &E,
    ad: &[u8],
    gpu_part: (u64, &[u8; BLOCK]),
    last: &mut [u8],
    decrypt: bool,
) -> Zeroizing<[u8; BLOCK]> {
    let (blocks, sum) = gpu_part;
    let mut counter = counter_after(m.layout, blocks);
    let mut sum = Zeroizing::new(*sum);
    let mut tag = Zeroizing::new(finish_message(m, engine, &mut counter, &mut sum, last, decrypt));
    xor_into(&mut tag, &mode::authenticate(m, engine, ad));
    tag
}

/// One SKINNY-AEAD member and key on one GPU. The key is wiped when the value
/// is dropped (and the device's copy of the masks with the kernel).
pub struct GpuAead {
    member: Member,
    m: mode::Member,
    key: Zeroizing<[u8; 16]>,
    kernel: AeadKernel,
}

impl core::fmt::Debug for GpuAead {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuAead").field("member", &self.member).finish_non_exhaustive()
    }
}

impl GpuAead {
    /// `member` with `key` on `gpu` (compiles or loads its kernels).
    ///
    /// # Errors
    /// The kernels cannot be loaded or the device fails.
    pub fn new(gpu: &Arc<Gpu>, member: Member, key: &[u8; 16]) -> Result<Self, GpuAeadError> {
        let m = params(member);
        let counter = aead_counter(m.layout);
        Ok(Self { member, m, key: Zeroizing::new(*key), kernel: AeadKernel::new(gpu, counter)? })
    }

    /// The member.
    pub fn member(&self) -> Member {
        self.member
    }

    /// The GPU (its context allocates the buffers the `_device` calls take).
    pub fn gpu(&self) -> &Arc<Gpu> {
        self.kernel.gpu()
    }

    /// Encrypts the first `len` bytes of `data` (device memory of this GPU) in
    /// place and returns the tag (the member's length).
    ///
    /// # Errors
    /// A wrong nonce length, `len` beyond the buffer or the member's limit, a
    /// GPU failure.
    pub fn seal_device(
        &mut self,
        nonce: &[u8],
        ad: &[u8],
        data: &mut CudaSlice<u8>,
        len: usize,
    ) -> Result<Vec<u8>, GpuAeadError> {
        self.check(nonce, ad, data.len(), len)?;
        let mut tag = self.crypt_device(nonce, data, len, false)?;
        xor_into(&mut tag, &self.authenticate(nonce, ad)?);
        let out = tag[..self.m.tag_len].to_vec();
        tag.zeroize();
        Ok(out)
    }

    /// Decrypts the first `len` bytes of `data` (device memory) in place and
    /// checks `tag` in constant time; on a wrong tag the `len` bytes are
    /// overwritten with zeros and [`GpuAeadError::Tag`] returned.
    ///
    /// # Errors
    /// As [`GpuAead::seal_device`]; [`GpuAeadError::Tag`].
    pub fn open_device(
        &mut self,
        nonce: &[u8],
        ad: &[u8],
        data: &mut CudaSlice<u8>,
        len: usize,
        tag: &[u8],
    ) -> Result<(), GpuAeadError> {
        self.check(nonce, ad, data.len(), len)?;
        let mut expected = self.crypt_device(nonce, data, len, true)?;
        xor_into(&mut expected, &self.authenticate(nonce, ad)?);
        let ok = tag.len() == self.m.tag_len && bool::from(expected[..self.m.tag_len].ct_eq(tag));
        expected.zeroize();
        if ok {
            return Ok(());
        }
        let stream = self.kernel.stream().clone();
        let mut view = data.slice_mut(..len);
        stream.memset_zeros(&mut view).map_err(GpuError::driver("wiping the unverified message"))?;
        stream.synchronize().map_err(GpuError::driver("wiping the unverified message"))?;
        Err(GpuAeadError::Tag)
    }

    /// Encrypts `data` (host memory) in place through the device; returns the tag.
    ///
    /// # Errors
    /// As [`GpuAead::seal_device`]; out of device memory.
    pub fn seal(&mut self, nonce: &[u8], ad: &[u8], data: &mut [u8]) -> Result<Vec<u8>, GpuAeadError> {
        let mut dev = self.upload(data)?;
        let tag = self.seal_device(nonce, ad, &mut dev, data.len())?;
        self.download(&dev, data)?;
        Ok(tag)
    }

    /// Decrypts `data` (host memory) in place through the device and checks
    /// `tag`; on a wrong tag `data` is overwritten with zeros.
    ///
    /// # Errors
    /// As [`GpuAead::open_device`]; out of device memory.
    pub fn open(&mut self, nonce: &[u8], ad: &[u8], data: &mut [u8], tag: &[u8]) -> Result<(), GpuAeadError> {
        let mut dev = self.upload(data)?;
        match self.open_device(nonce, ad, &mut dev, data.len(), tag) {
            Ok(()) => self.download(&dev, data),
            Err(e) => {
                data.zeroize();
                Err(e)
            }
        }
    }

    fn upload(&self, data: &[u8]) -> Result<CudaSlice<u8>, GpuAeadError> {
        let stream = self.kernel.stream();
        // A zero-length device buffer cannot be made: one spare byte.
        let mut dev = stream.alloc_zeros::<u8>(data.len().max(1)).map_err(GpuError::driver("allocating on the GPU"))?;
        if !data.is_empty() {
            stream
                .memcpy_htod(data, &mut dev.slice_mut(..data.len()))
                .map_err(GpuError::driver("copying to the GPU"))?;
        }
        Ok(dev)
    }

    fn download(&self, dev: &CudaSlice<u8>, data: &mut [u8]) -> Result<(), GpuAeadError> {
        if !data.is_empty() {
            let stream = self.kernel.stream();
            stream.memcpy_dtoh(&dev.slice(..data.len()), data).map_err(GpuError::driver("copying from the GPU"))?;
            stream.synchronize().map_err(GpuError::driver("copying from the GPU"))?;
        }
        Ok(())
    }

    fn check(&self, nonce: &[u8], ad: &[u8], buffer: usize, len: usize) -> Result<(), GpuAeadError> {
        let need = self.member.nonce_len();
        if nonce.len() != need {
            return Err(GpuAeadError::NonceLength { member: self.member, need, got: nonce.len() });
        }
        if len > buffer || self.m.check_lengths(len, ad.len()).is_err() {
            return Err(GpuAeadError::Length { len });
        }
        Ok(())
    }

    /// The shared tweakey of a run in `domain` (the counter cells left zero).
    fn run_tweakey(&self, nonce: &[u8], domain: u8) -> Zeroizing<Vec<u8>> {
        run_tweakey(self.m, &self.key, nonce, domain)
    }

    /// The message: whole blocks on the device, the rest here. Returns the tag
    /// block before the AD.
    fn crypt_device(
        &mut self,
        nonce: &[u8],
        data: &mut CudaSlice<u8>,
        len: usize,
        decrypt: bool,
    ) -> Result<[u8; 16], GpuAeadError> {
        let layout = self.m.layout;
        let full = (len / BLOCK) as u64;
        let mut sum = [0u8; BLOCK];
        if full > 0 {
            self.kernel.set_tweakey(&self.run_tweakey(nonce, D_MSG))?;
            let op = if decrypt { AeadOp::Decrypt } else { AeadOp::Encrypt };
            sum = self.kernel.run_device_in_place(op, Lfsr::new(layout).value(), data, full)?;
        }
        let mut counter = counter_after(layout, full);
        let rest = len % BLOCK;
        let mut last = [0u8; BLOCK];
        let stream = self.kernel.stream().clone();
        let at = len - rest;
        if rest > 0 {
            stream
                .memcpy_dtoh(&data.slice(at..len), &mut last[..rest])
                .map_err(GpuError::driver("copying from the GPU"))?;
            stream.synchronize().map_err(GpuError::driver("copying from the GPU"))?;
        }
        let engine = BitslicedEngine::new(layout, &self.key, nonce);
        let tag = finish_message(self.m, &engine, &mut counter, &mut sum, &mut last[..rest], decrypt);
        if rest > 0 {
            stream
                .memcpy_htod(&last[..rest], &mut data.slice_mut(at..len))
                .map_err(GpuError::driver("copying to the GPU"))?;
            stream.synchronize().map_err(GpuError::driver("copying to the GPU"))?;
        }
        last.zeroize();
        Ok(tag)
    }

    /// The AD's part of the tag: on the CPU, or for long AD its whole blocks
    /// on the GPU and the partial one here.
    fn authenticate(&mut self, nonce: &[u8], ad: &[u8]) -> Result<[u8; 16], GpuAeadError> {
        let engine = BitslicedEngine::new(self.m.layout, &self.key, nonce);
        if ad.len() < GPU_AD_BYTES {
            return Ok(mode::authenticate(self.m, &engine, ad));
        }
        let layout = self.m.layout;
        let full = ad.len() / BLOCK;
        let mut dev = self.upload(&ad[..full * BLOCK])?;
        self.kernel.set_tweakey(&self.run_tweakey(nonce, D_AD))?;
        let mut auth =
            self.kernel.run_device_in_place(AeadOp::Authenticate, Lfsr::new(layout).value(), &mut dev, full as u64)?;
        let rest = &ad[full * BLOCK..];
        if !rest.is_empty() {
            let mut counter = counter_after(layout, full as u64);
            let mut last = [[0u8; BLOCK]];
            last[0][..rest.len()].copy_from_slice(rest);
            last[0][rest.len()] = 0x80;
            crate::engine::BlockEngine::encrypt(&engine, &[self.m.tweak(&mut counter, D_AD_PARTIAL)], &mut last);
            xor_into(&mut auth, &last[0]);
        }
        Ok(auth)
    }
}
