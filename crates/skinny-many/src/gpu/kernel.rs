//! The many-message kernels (`kernels/many.cu`, registered in `skinny-cuda` as
//! `kernels::MANY`): their entry points by scheme and pass (checked against
//! the source by a test), the module with its round constants, and one
//! launch over a chunk already on the device.

use super::layout::{Chunk, Pass};
use super::GpuManyError;
use crate::Scheme;
use skinny::hazmat::spec::round::ROUND_CONSTANTS;
use skinny_cuda::constants::Symbol;
use skinny_cuda::cudarc::driver::sys::CUfunction_attribute;
use skinny_cuda::cudarc::driver::{CudaFunction, CudaModule, CudaStream, LaunchConfig, PushKernelArg};
use skinny_cuda::kernels::{MANY, MANY_SHARED_BYTES, MANY_THREADS, MAX_ROUNDS};
use skinny_cuda::{upload_constants, Gpu, GpuError};
use std::sync::Arc;
use zeroize::Zeroizing;

/// The entry point of `scheme`'s `pass`, if the GPU runs the scheme.
pub(crate) fn entry_point(scheme: Scheme, pass: Pass) -> Option<&'static str> {
    Some(match (scheme, pass) {
        (Scheme::RomulusN, Pass::Seal) => "many_romulus_n_seal",
        (Scheme::RomulusN, Pass::Open) => "many_romulus_n_open",
        (Scheme::RomulusM, Pass::Seal) => "many_romulus_m_seal",
        (Scheme::RomulusM, Pass::Open) => "many_romulus_m_open",
        (Scheme::SkinnyAead(_), _) => return None,
    })
}

/// The schemes with GPU kernels, in the order of [`ManyKernels`]' functions.
const SCHEMES: [Scheme; 2] = [Scheme::RomulusN, Scheme::RomulusM];
const PASSES: [Pass; 2] = [Pass::Seal, Pass::Open];

/// The loaded module (its `lab_rc` filled) and its kernels.
pub(crate) struct ManyKernels {
    // Kept alive for the functions.
    _module: Arc<CudaModule>,
    /// By scheme then pass, as [`SCHEMES`] and [`PASSES`].
    funcs: Vec<CudaFunction>,
}

impl ManyKernels {
    /// Compiles (or finds in the cache) and loads the kernels.
    pub(crate) fn load(gpu: &Gpu, stream: &Arc<CudaStream>) -> Result<Self, GpuManyError> {
        let module = gpu.load_module(&MANY)?;
        let function = |name: &str| -> Result<CudaFunction, GpuError> {
            let f = module.load_function(name).map_err(GpuError::driver("loading a many-message kernel"))?;
            f.set_attribute(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                MANY_SHARED_BYTES as i32,
            )
            .map_err(GpuError::driver("allowing the many-message kernel its shared memory"))?;
            Ok(f)
        };
        let mut funcs = Vec::new();
        for scheme in SCHEMES {
            for pass in PASSES {
                funcs.push(function(entry_point(scheme, pass).expect("Romulus runs on the GPU"))?);
            }
        }
        upload_constants(&module, stream, &[Symbol { name: "lab_rc", words: round_constant_masks() }])?;
        Ok(Self { _module: module, funcs })
    }

    /// Each kernel's name, registers a thread and local (spill) bytes a thread.
    pub(crate) fn resources(&self) -> Vec<(&'static str, i32, i32)> {
        let mut v = Vec::new();
        for (k, f) in self.funcs.iter().enumerate() {
            let name = entry_point(SCHEMES[k / PASSES.len()], PASSES[k % PASSES.len()]).unwrap_or("?");
            v.push((name, f.num_regs().unwrap_or(-1), f.local_size_bytes().unwrap_or(-1)));
        }
        v
    }

    /// The kernel of `scheme`'s `pass`.
    fn function(&self, scheme: Scheme, pass: Pass) -> Result<&CudaFunction, GpuManyError> {
        let s = SCHEMES.iter().position(|&x| x == scheme).ok_or(GpuManyError::Scheme { scheme })?;
        let p = PASSES.iter().position(|&x| x == pass).unwrap_or(0);
        Ok(&self.funcs[s * PASSES.len() + p])
    }

    /// Runs `pass` over chunk `c`, whose input image is at device address
    /// `input` and whose output image goes to `output` (both at least the
    /// chunk's image lengths), queued on `stream`.
    pub(crate) fn launch(
        &self,
        stream: &Arc<CudaStream>,
        scheme: Scheme,
        pass: Pass,
        c: &Chunk,
        input: u64,
        output: u64,
    ) -> Result<(), GpuManyError> {
        let groups = c.groups();
        if groups == 0 {
            return Ok(());
        }
        let s = &c.sections;
        let at = |off: usize| input + off as u64;
        let (lanes, ad_ends, data_ends, out_ends) = (at(s.lanes), at(s.ad_ends), at(s.data_ends), at(s.out_ends));
        let (keys, nonces, ad, data) = (at(s.keys), at(s.nonces), at(s.ad), at(s.data));
        let (out, status) = (output + s.out as u64, output + s.status as u64);
        let f = self.function(scheme, pass)?;
        let cfg = LaunchConfig {
            grid_dim: (groups.div_ceil(MANY_THREADS), 1, 1),
            block_dim: (MANY_THREADS, 1, 1),
            shared_mem_bytes: MANY_SHARED_BYTES,
        };
        let mut b = stream.launch_builder(f);
        b.arg(&lanes)
            .arg(&ad_ends)
            .arg(&data_ends)
            .arg(&out_ends)
            .arg(&keys)
            .arg(&nonces)
            .arg(&ad)
            .arg(&data)
            .arg(&out)
            .arg(&status)
            .arg(&groups);
        // SAFETY: the arguments match many_romulus_*(lanes, ad_ends, data_ends,
        // out_ends, keys, nonces, ad, data, out, status, ngroups); the caller's
        // buffers hold the chunk's images, whose sections `plan` laid out for
        // exactly these messages (every offset the kernel reads or writes lies
        // inside them).
        unsafe { b.launch(cfg) }.map_err(GpuError::driver("many-message kernel launch"))?;
        Ok(())
    }
}

/// `lab_rc`: each round's constant as 0/~0 words, bits 0-3 (c0) then 4-5 (c1).
fn round_constant_masks() -> Zeroizing<Vec<u32>> {
    let mut rc = vec![0u32; MAX_ROUNDS * 6];
    for (r, c) in ROUND_CONSTANTS.iter().take(MAX_ROUNDS).enumerate() {
        for b in 0..6 {
            rc[r * 6 + b] = 0u32.wrapping_sub(u32::from((c >> b) & 1));
        }
    }
    Zeroizing::new(rc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_points_are_in_the_source() {
        for scheme in [Scheme::RomulusN, Scheme::RomulusM] {
            for pass in [Pass::Seal, Pass::Open] {
                let name = entry_point(scheme, pass).expect("Romulus runs on the GPU");
                assert!(MANY.text.contains(&format!("MANY_ENTRY({name},")), "{name}");
            }
        }
        assert_eq!(entry_point(Scheme::SkinnyAead(skinny_aead::Member::M1), Pass::Seal), None);
        let rc = round_constant_masks();
        assert_eq!(rc.len(), MAX_ROUNDS * 6);
        // Round 0's constant is 1: c0 bit 0 only.
        assert_eq!(&rc[..6], &[u32::MAX, 0, 0, 0, 0, 0]);
    }
}
