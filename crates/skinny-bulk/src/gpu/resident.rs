//! Data already on the device: [`GpuCipher::run_device`] and
//! [`GpuCipher::run_device_in_place`], for GPU applications, and
//! [`GpuCipher::run_at`] on memory given by its device addresses (another
//! library's tensor, a face's [`skinny_cuda::DeviceBytes`]).

use super::chain::block_words;
use super::cipher::GpuCipher;
use super::kernels::Op;
use skinny_cuda::cudarc::driver::{CudaSlice, CudaStream, DevicePtrMut};
use skinny_cuda::{DeviceQueue, GpuError};
use std::sync::Arc;

impl GpuCipher {
    /// Runs `op` on data already on the device: `nblocks` whole blocks from
    /// `input` into `output`, on `stream` (this cipher's own when `None`),
    /// asynchronously: the work is queued on the stream and this returns; the
    /// caller synchronizes the stream before it reads `output` on the host.
    /// `iv` is the counter (CTR), the IV (CBC, CFB) or empty (ECB). The buffers
    /// must belong to this cipher's GPU context ([`GpuCipher::gpu`]).
    ///
    /// # Errors
    /// Buffers shorter than `nblocks` blocks, a wrong IV length, no kernel for
    /// `op`, a launch failure.
    pub fn run_device(
        &self,
        op: Op,
        iv: &[u8],
        input: &CudaSlice<u8>,
        output: &mut CudaSlice<u8>,
        nblocks: u64,
        stream: Option<&Arc<CudaStream>>,
    ) -> Result<(), GpuError> {
        let need = self.device_bytes(op, iv, nblocks)?;
        if input.len() < need || output.len() < need {
            return Err(GpuError::NotWholeBlocks {
                operation: op.label(),
                block: self.launcher.block(),
                len: input.len().min(output.len()),
            });
        }
        let stream = stream.unwrap_or(self.launcher.stream());
        self.launcher.launch(stream, op, input, output, nblocks, block_words(&self.chain_block(iv)))
    }

    /// [`GpuCipher::run_device`] in place: `data` holds `nblocks` whole blocks
    /// and gets their encryption or decryption. ECB and CTR run in place (every
    /// block is read and written by the same thread, the read first); CBC and
    /// CFB decryption read each block's neighbour, so they go through a device
    /// copy of the input.
    ///
    /// # Errors
    /// As [`GpuCipher::run_device`]; out of device memory for the copy.
    pub fn run_device_in_place(
        &self,
        op: Op,
        iv: &[u8],
        data: &mut CudaSlice<u8>,
        nblocks: u64,
        stream: Option<&Arc<CudaStream>>,
    ) -> Result<(), GpuError> {
        let need = self.device_bytes(op, iv, nblocks)?;
        if data.len() < need {
            return Err(GpuError::NotWholeBlocks {
                operation: op.label(),
                block: self.launcher.block(),
                len: data.len(),
            });
        }
        let stream = stream.unwrap_or(self.launcher.stream());
        let words = block_words(&self.chain_block(iv));
        match op {
            Op::EcbEncrypt | Op::EcbDecrypt | Op::Ctr => {
                let (ptr, _sync) = data.device_ptr_mut(stream);
                // SAFETY: the buffer holds nblocks blocks (checked above) of this
                // cipher's GPU and stays borrowed until the launch is queued; in
                // and out are the same address, which ECB and CTR allow.
                unsafe { self.launcher.launch_at(stream, op, ptr, ptr, nblocks, words) }
            }
            Op::CbcDecrypt | Op::CfbDecrypt => {
                let copy = stream.clone_dtod(&data.slice(..need)).map_err(GpuError::driver("copying on the device"))?;
                self.launcher.launch(stream, op, &copy, data, nblocks, words)
            }
        }
    }

    /// [`GpuCipher::run_device`] on memory given by its device addresses:
    /// `nblocks` whole blocks at `input` into `output` (the same address: in
    /// place, for ECB and CTR), queued on `queue`; the caller synchronizes
    /// the queue before the memory is read or freed.
    ///
    /// # Errors
    /// As [`GpuCipher::run_device`]; CBC or CFB decryption in place
    /// ([`GpuError::Internal`]: their threads read a neighbour's block).
    ///
    /// # Safety
    /// `input` and `output` must each address `nblocks` blocks of device
    /// memory of this cipher's GPU (its primary context), equal or not
    /// overlapping, allocated until `queue` has finished this work, and
    /// `output` written by nothing else meanwhile.
    #[allow(unsafe_code)]
    pub unsafe fn run_at(
        &self,
        op: Op,
        iv: &[u8],
        input: u64,
        output: u64,
        nblocks: u64,
        queue: &DeviceQueue,
    ) -> Result<(), GpuError> {
        self.device_bytes(op, iv, nblocks)?;
        if input == output && matches!(op, Op::CbcDecrypt | Op::CfbDecrypt) {
            return Err(GpuError::Internal("CBC and CFB decryption do not run in place on device addresses"));
        }
        // SAFETY: as the caller promises.
        unsafe {
            self.launcher.launch_at(queue.stream(), op, input, output, nblocks, block_words(&self.chain_block(iv)))
        }
    }

    /// Bytes of `nblocks` blocks, after checking the IV for `op`.
    fn device_bytes(&self, op: Op, iv: &[u8], nblocks: u64) -> Result<usize, GpuError> {
        self.launcher.func(op)?;
        let block = self.launcher.block();
        let ecb = matches!(op, Op::EcbEncrypt | Op::EcbDecrypt);
        if (ecb && !iv.is_empty()) || (!ecb && iv.len() != block) {
            return Err(GpuError::IvLength { operation: op.label(), block, got: iv.len() });
        }
        usize::try_from(nblocks).ok().and_then(|n| n.checked_mul(block)).ok_or(GpuError::LaunchTooLarge)
    }

    /// The chaining block for the kernels: the IV, or zeros for ECB.
    fn chain_block(&self, iv: &[u8]) -> Vec<u8> {
        if iv.len() == self.launcher.block() {
            iv.to_vec()
        } else {
            vec![0; self.launcher.block()]
        }
    }
}
