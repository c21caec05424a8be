//! The many-message kernels (`kernels/many.cu`, `many_aead.cu`, their entry
//! points in `many_entry.cu`; their texts in `skinny-cuda`): their sources
//! with this engine's launch bound, their entry points by scheme and pass
//! (checked against the source by a test), the modules with their round
//! constants, and one launch over a chunk already on the device.

use super::layout::{Chunk, Pass};
use super::GpuManyError;
use crate::Scheme;
use skinny::hazmat::spec::round::ROUND_CONSTANTS;
use skinny_cuda::constants::Symbol;
use skinny_cuda::cudarc::driver::sys::CUfunction_attribute;
use skinny_cuda::cudarc::driver::{CudaFunction, CudaModule, CudaStream, LaunchConfig, PushKernelArg};
use skinny_cuda::kernels::{KernelSource, MANY_AEAD_TEXTS, MANY_TEXT, MAX_ROUNDS};
use skinny_cuda::{upload_constants, Gpu, GpuError};
use std::sync::Arc;
use zeroize::Zeroizing;

/// Threads per block of the many-message kernels (`SKINNY_MANY_THREADS`,
/// their launch bound): four warps, each with 48 KiB of shared memory for its
/// lanes' three tweakey arrays (192 KiB a block, one block an SM).
const MANY_THREADS: u32 = 128;

/// Shared memory of one many-message block: three arrays of 128 words for
/// each of its [`MANY_THREADS`] threads (`MANY_WARP_BYTES` a warp in the
/// source).
const MANY_SHARED_BYTES: u32 = 3 * 128 * 4 * MANY_THREADS;

/// The `-D` options of every many-message module: the launch bound.
const MANY_DEFINES: &[(&str, u32)] = &[("SKINNY_MANY_THREADS", MANY_THREADS)];

/// The Romulus-N and -M kernels' module.
const MANY: KernelSource = KernelSource { name: "many", text: MANY_TEXT, defines: MANY_DEFINES };

/// The SKINNY-AEAD kernels' modules, one a member (M1..M6), so that the
/// modules compile side by side and a batch loads only its own.
const MANY_AEAD: [KernelSource; 6] = [
    KernelSource { name: "many_aead_m1", text: MANY_AEAD_TEXTS[0], defines: MANY_DEFINES },
    KernelSource { name: "many_aead_m2", text: MANY_AEAD_TEXTS[1], defines: MANY_DEFINES },
    KernelSource { name: "many_aead_m3", text: MANY_AEAD_TEXTS[2], defines: MANY_DEFINES },
    KernelSource { name: "many_aead_m4", text: MANY_AEAD_TEXTS[3], defines: MANY_DEFINES },
    KernelSource { name: "many_aead_m5", text: MANY_AEAD_TEXTS[4], defines: MANY_DEFINES },
    KernelSource { name: "many_aead_m6", text: MANY_AEAD_TEXTS[5], defines: MANY_DEFINES },
];

/// The entry point of `scheme`'s `pass` (`many_entry.cu`).
pub(crate) fn entry_point(scheme: Scheme, pass: Pass) -> &'static str {
    const NAMES: [[&str; 2]; 8] = [
        ["many_romulus_n_seal", "many_romulus_n_open"],
        ["many_romulus_m_seal", "many_romulus_m_open"],
        ["many_aead_m1_seal", "many_aead_m1_open"],
        ["many_aead_m2_seal", "many_aead_m2_open"],
        ["many_aead_m3_seal", "many_aead_m3_open"],
        ["many_aead_m4_seal", "many_aead_m4_open"],
        ["many_aead_m5_seal", "many_aead_m5_open"],
        ["many_aead_m6_seal", "many_aead_m6_open"],
    ];
    NAMES[scheme_index(scheme)][usize::from(pass == Pass::Open)]
}

/// `scheme`'s place in [`Scheme::ALL`] (and in the kernels' numbering).
fn scheme_index(scheme: Scheme) -> usize {
    Scheme::ALL.iter().position(|&s| s == scheme).unwrap_or_else(|| unreachable!("every scheme is in ALL"))
}
const PASSES: [Pass; 2] = [Pass::Seal, Pass::Open];

/// The modules of the schemes, in the order of [`Scheme::ALL`]: Romulus-N
/// and -M share the first.
fn module_of(scheme: Scheme) -> usize {
    scheme_index(scheme).saturating_sub(1)
}

/// The loaded modules (their `lab_rc` filled) and their kernels.
pub(crate) struct ManyKernels {
    // Kept alive for the functions.
    _modules: Vec<Arc<CudaModule>>,
    /// By scheme then pass, as [`Scheme::ALL`] and [`PASSES`].
    funcs: Vec<CudaFunction>,
}

impl ManyKernels {
    /// Compiles (or finds in the cache) and loads the kernels: the seven
    /// modules side by side, one thread each (NVRTC takes minutes for the
    /// whole engine on one thread).
    pub(crate) fn load(gpu: &Gpu, stream: &Arc<CudaStream>) -> Result<Self, GpuManyError> {
        let sources: Vec<&KernelSource> = core::iter::once(&MANY).chain(MANY_AEAD.iter()).collect();
        let modules = std::thread::scope(|scope| {
            let jobs: Vec<_> = sources.iter().map(|&src| scope.spawn(move || gpu.load_module(src))).collect();
            jobs.into_iter()
                // A panic there is passed on as if it had happened here.
                .map(|j| j.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect::<Result<Vec<_>, _>>()
        })?;
        let rc = round_constant_masks();
        for module in &modules {
            upload_constants(module, stream, &[Symbol { name: "lab_rc", words: rc.clone() }])?;
        }
        let mut funcs = Vec::new();
        for scheme in Scheme::ALL {
            for pass in PASSES {
                let module = &modules[module_of(scheme)];
                let f = module
                    .load_function(entry_point(scheme, pass))
                    .map_err(GpuError::driver("loading a many-message kernel"))?;
                f.set_attribute(
                    CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    MANY_SHARED_BYTES as i32,
                )
                .map_err(GpuError::driver("allowing the many-message kernel its shared memory"))?;
                funcs.push(f);
            }
        }
        Ok(Self { _modules: modules, funcs })
    }

    /// Each kernel's name, registers a thread and local (spill) bytes a thread.
    pub(crate) fn resources(&self) -> Vec<(&'static str, i32, i32)> {
        let mut v = Vec::new();
        for (k, f) in self.funcs.iter().enumerate() {
            let name = entry_point(Scheme::ALL[k / PASSES.len()], PASSES[k % PASSES.len()]);
            v.push((name, f.num_regs().unwrap_or(-1), f.local_size_bytes().unwrap_or(-1)));
        }
        v
    }

    /// The kernel of `scheme`'s `pass`.
    fn function(&self, scheme: Scheme, pass: Pass) -> &CudaFunction {
        &self.funcs[scheme_index(scheme) * PASSES.len() + usize::from(pass == Pass::Open)]
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
        let f = self.function(scheme, pass);
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
        // SAFETY: the arguments match every many_*(lanes, ad_ends, data_ends,
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
        for (k, scheme) in Scheme::ALL.into_iter().enumerate() {
            for pass in [Pass::Seal, Pass::Open] {
                let name = entry_point(scheme, pass);
                // The kernels number the schemes as Scheme::ALL does.
                let open = pass == Pass::Open;
                assert!(MANY.text.contains(&format!("MANY_ENTRY({name}, {k}, {open})")), "{name}");
                let module = if k < 2 { &MANY } else { &MANY_AEAD[k - 2] };
                assert_eq!(module_of(scheme), k.saturating_sub(1));
                assert!(module.text.starts_with(&format!("#define MANY_MODULE {}\n", k.saturating_sub(1))), "{name}");
            }
        }
        assert!(MANY.text.contains("__launch_bounds__(SKINNY_MANY_THREADS, 1)"));
        assert!(MANY.text.contains("#define MANY_WARP_BYTES"), "the source sizes a warp's share");
        let rc = round_constant_masks();
        assert_eq!(rc.len(), MAX_ROUNDS * 6);
        // Round 0's constant is 1: c0 bit 0 only.
        assert_eq!(&rc[..6], &[u32::MAX, 0, 0, 0, 0, 0]);
    }
}
