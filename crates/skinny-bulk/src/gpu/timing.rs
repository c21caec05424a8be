//! Kernel-only timing for benchmarks: random data made on the device, each run
//! timed with CUDA events. Apart from the data paths, which it does not use.

use super::cipher::GpuCipher;
use super::kernels::Op;
use skinny_cuda::cudarc::driver::{sys, CudaSlice, LaunchConfig, PushKernelArg};
use skinny_cuda::GpuError;

impl GpuCipher {
    /// Times `op`'s kernel over `bytes` of random data resident on the device
    /// (rounded down to whole blocks, at least one): `warmup` untimed runs, then
    /// `runs` runs each timed with CUDA events. Milliseconds.
    ///
    /// # Errors
    /// Out of device memory, kernel failure, or no kernel for `op`.
    pub fn time_kernel(&mut self, op: Op, bytes: usize, warmup: usize, runs: usize) -> Result<Vec<f64>, GpuError> {
        self.launcher.func(op)?;
        let block = self.launcher.block();
        let nblocks = (bytes / block).max(1);
        let len = nblocks * block;
        self.transfers.free_buffers();
        let stream = self.launcher.stream().clone();
        // SAFETY: the input is filled by the fill kernel before use; the output
        // is written by the kernel under test.
        let mut input =
            unsafe { stream.alloc::<u8>(len) }.map_err(GpuError::driver("allocating the benchmark input"))?;
        let mut output =
            unsafe { stream.alloc::<u8>(len) }.map_err(GpuError::driver("allocating the benchmark output"))?;
        self.fill_random(&mut input, 0x5eed_0000 + len as u64)?;
        let iv = [0x0123_4567, 0x89ab_cdef, 0xfedc_ba98, 0x7654_3210];
        let ctx = self.launcher.gpu().context();
        let start =
            ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT)).map_err(GpuError::driver("creating an event"))?;
        let end =
            ctx.new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT)).map_err(GpuError::driver("creating an event"))?;
        let mut times = Vec::with_capacity(runs);
        for i in 0..warmup + runs {
            start.record(&stream).map_err(GpuError::driver("recording an event"))?;
            self.launcher.launch(&stream, op, &input, &mut output, nblocks as u64, iv)?;
            end.record(&stream).map_err(GpuError::driver("recording an event"))?;
            end.synchronize().map_err(GpuError::driver("kernel run"))?;
            if i >= warmup {
                times.push(f64::from(start.elapsed_ms(&end).map_err(GpuError::driver("reading an event"))?));
            }
        }
        stream.synchronize().map_err(GpuError::driver("kernel run"))?;
        Ok(times)
    }

    fn fill_random(&self, buf: &mut CudaSlice<u8>, seed: u64) -> Result<(), GpuError> {
        let words = (buf.len() / 4) as u64;
        let cfg = LaunchConfig {
            grid_dim: (self.launcher.gpu().sm_count().max(1) as u32 * 8, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = self.launcher.stream().launch_builder(&self.fill);
        b.arg(buf).arg(&words).arg(&seed);
        // SAFETY: (pointer, word count, seed) as the kernel declares; the buffer holds `words` words.
        unsafe { b.launch(cfg) }.map_err(GpuError::driver("fill kernel launch"))?;
        Ok(())
    }
}
