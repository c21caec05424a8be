//! [`HostPath::Pageable`](super::HostPath::Pageable): one piece after the
//! other, plain copies straight from and to the caller's memory.

use crate::gpu::chain::{block_words, counter_plus};
use crate::gpu::kernels::Op;
use crate::gpu::launch::Launcher;
use skinny_cuda::cudarc::driver::CudaSlice;
use skinny_cuda::GpuError;
use zeroize::Zeroizing;

/// The plain path's device input and output buffers, grown on demand up to a
/// piece.
#[derive(Default)]
pub(super) struct Buffers(Option<(CudaSlice<u8>, CudaSlice<u8>)>);

impl Buffers {
    /// Gives the buffers back to the device.
    pub(super) fn free(&mut self) {
        self.0 = None;
    }

    fn ensure(&mut self, l: &Launcher, bytes: usize) -> Result<(), GpuError> {
        if self.0.as_ref().is_some_and(|(i, _)| i.len() >= bytes) {
            return Ok(());
        }
        self.0 = None;
        let stream = l.stream();
        // SAFETY: the buffers are written before they are read.
        let input = unsafe { stream.alloc::<u8>(bytes) }.map_err(GpuError::driver("allocating the input buffer"))?;
        let output = unsafe { stream.alloc::<u8>(bytes) }.map_err(GpuError::driver("allocating the output buffer"))?;
        self.0 = Some((input, output));
        Ok(())
    }

    /// `op` over `data` in pieces of at most `piece_max` bytes, one after the
    /// other on the cipher's stream; `chain` is the first piece's chaining
    /// block.
    pub(super) fn run(
        &mut self,
        l: &Launcher,
        piece_max: usize,
        op: Op,
        mut chain: Zeroizing<Vec<u8>>,
        data: &mut [u8],
    ) -> Result<(), GpuError> {
        let bs = l.block();
        let stream = l.stream();
        for piece in data.chunks_mut(piece_max) {
            let len = piece.len();
            let nblocks = len.div_ceil(bs);
            let padded = nblocks * bs;
            self.ensure(l, padded)?;
            let next_chain = match op {
                Op::Ctr => counter_plus(&chain, nblocks as u64),
                Op::CbcDecrypt | Op::CfbDecrypt => piece[len - bs..].to_vec(),
                _ => Vec::new(),
            };
            let (mut input, mut output) = self.0.take().ok_or(GpuError::Internal("device buffers missing"))?;
            let result = (|| {
                let whole = len / bs * bs;
                if whole > 0 {
                    stream
                        .memcpy_htod(&piece[..whole], &mut input.slice_mut(..whole))
                        .map_err(GpuError::driver("copy to GPU"))?;
                }
                if padded > whole {
                    // The last partial block of CTR, zero-padded.
                    let mut last = Zeroizing::new(vec![0u8; bs]);
                    last[..len - whole].copy_from_slice(&piece[whole..]);
                    stream
                        .memcpy_htod(&last[..], &mut input.slice_mut(whole..padded))
                        .map_err(GpuError::driver("copy to GPU"))?;
                }
                l.launch(stream, op, &input, &mut output, nblocks as u64, block_words(&chain))?;
                stream.memcpy_dtoh(&output.slice(..len), piece).map_err(GpuError::driver("copy from GPU"))?;
                stream.synchronize().map_err(GpuError::driver("kernel run"))
            })();
            self.0 = Some((input, output));
            result?;
            *chain = next_chain;
        }
        Ok(())
    }
}
