//! [`GpuAead`]: one member and key on a GPU, for one message at a time, in
//! device memory or host memory through the device.

use super::device::GpuDevice;
use super::error::GpuAeadError;
use super::finish::{counter_after, run_tweakey};
use super::inputs::AeadCounter;
use super::kernel::AeadKernel;
use super::kernels::AeadOp;
use crate::engine::bitsliced::BitslicedEngine;
use crate::engine::BlockEngine;
use crate::member::Member;
use crate::mode::{self, finish_message, xor_into, D_AD, D_AD_PARTIAL, D_MSG};
use crate::tweakey::{Lfsr, BLOCK};
use skinny::hazmat::bitsliced::Direction;
use skinny_cuda::cudarc::driver::CudaSlice;
use skinny_cuda::GpuError;
use std::vec::Vec;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

/// Associated data at least this long goes through the GPU (uploaded, one
/// kernel run); shorter AD stays on the CPU, where a few blocks cost less
/// than the copy and launch.
const GPU_AD_BYTES: usize = 1 << 20;

/// One SKINNY-AEAD member and key on one GPU. The key is wiped when the value
/// is dropped (and the device's copy of the masks with the kernel).
pub struct GpuAead {
    member: Member,
    device: GpuDevice,
    key: Zeroizing<[u8; 16]>,
    kernel: AeadKernel,
}

impl core::fmt::Debug for GpuAead {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuAead").field("member", &self.member).finish_non_exhaustive()
    }
}

impl GpuAead {
    /// `member` with `key` on `device` (compiles or loads its kernels).
    ///
    /// # Errors
    /// The kernels cannot be loaded or the device fails.
    pub fn new(device: &GpuDevice, member: Member, key: &[u8; 16]) -> Result<Self, GpuAeadError> {
        let kernel = AeadKernel::new(device.gpu(), AeadCounter::of(member))?;
        Ok(Self { member, device: device.clone(), key: Zeroizing::new(*key), kernel })
    }

    /// The member.
    pub fn member(&self) -> Member {
        self.member
    }

    /// The GPU (its context allocates the buffers the `_device` calls take).
    pub fn gpu(&self) -> &GpuDevice {
        &self.device
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
        let mut tag = self.crypt_device(nonce, data, len, Direction::Encrypt)?;
        xor_into(&mut tag, &self.authenticate(nonce, ad)?);
        let out = tag[..self.member.tag_len()].to_vec();
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
        let mut expected = self.crypt_device(nonce, data, len, Direction::Decrypt)?;
        xor_into(&mut expected, &self.authenticate(nonce, ad)?);
        let ok = tag.len() == self.member.tag_len() && bool::from(expected[..self.member.tag_len()].ct_eq(tag));
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
        if len > buffer || self.member.check_lengths(len, ad.len()).is_err() {
            return Err(GpuAeadError::Length { len });
        }
        Ok(())
    }

    /// The shared tweakey of a run in `domain` (the counter cells left zero).
    fn run_tweakey(&self, nonce: &[u8], domain: u8) -> Zeroizing<Vec<u8>> {
        run_tweakey(self.member, &self.key, nonce, domain)
    }

    /// The message: whole blocks on the device, the rest here. Returns the tag
    /// block before the AD.
    fn crypt_device(
        &mut self,
        nonce: &[u8],
        data: &mut CudaSlice<u8>,
        len: usize,
        dir: Direction,
    ) -> Result<[u8; 16], GpuAeadError> {
        let layout = self.member.layout();
        let full = (len / BLOCK) as u64;
        let mut sum = [0u8; BLOCK];
        if full > 0 {
            self.kernel.set_tweakey(&self.run_tweakey(nonce, D_MSG))?;
            let op = match dir {
                Direction::Encrypt => AeadOp::Encrypt,
                Direction::Decrypt => AeadOp::Decrypt,
            };
            sum = self.kernel.run_device_in_place(op, Lfsr::new(layout).value(), data, full)?;
        }
        let mut counter = counter_after(self.member, full);
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
        let tag = finish_message(self.member, &engine, &mut counter, &mut sum, &mut last[..rest], dir);
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
        let engine = BitslicedEngine::new(self.member.layout(), &self.key, nonce);
        if ad.len() < GPU_AD_BYTES {
            return Ok(mode::authenticate(self.member, &engine, ad));
        }
        let layout = self.member.layout();
        let full = ad.len() / BLOCK;
        let mut dev = self.upload(&ad[..full * BLOCK])?;
        self.kernel.set_tweakey(&self.run_tweakey(nonce, D_AD))?;
        let mut auth =
            self.kernel.run_device_in_place(AeadOp::Authenticate, Lfsr::new(layout).value(), &mut dev, full as u64)?;
        let rest = &ad[full * BLOCK..];
        if !rest.is_empty() {
            let mut counter = counter_after(self.member, full as u64);
            let mut last = [[0u8; BLOCK]];
            last[0][..rest.len()].copy_from_slice(rest);
            last[0][rest.len()] = 0x80;
            engine.encrypt(&[self.member.tweak(&mut counter, D_AD_PARTIAL)], &mut last);
            xor_into(&mut auth, &last[0]);
        }
        Ok(auth)
    }
}
