//! NVRTC, the run-time CUDA compiler: its options for a chip, its version (part
//! of the kernel cache's key), and each compilation behind an owner that
//! destroys its program however the compilation ends.

use crate::driver::{find_library, guarded};
use crate::error::GpuError;
use crate::kernels::{nvrtc_defines, KernelSource};
use cudarc::nvrtc::sys as nv;
use std::ffi::{CStr, CString};

/// One NVRTC program, destroyed on drop.
struct Program {
    raw: nv::nvrtcProgram,
    kernels: &'static str,
}

impl Program {
    fn new(source: &KernelSource) -> Result<Self, GpuError> {
        let src = CString::new(source.text).map_err(|_| GpuError::BadSource("a NUL byte in the kernel source"))?;
        let name = CString::new(format!("{}.cu", source.name))
            .map_err(|_| GpuError::BadSource("a NUL byte in the kernel name"))?;
        let mut raw: nv::nvrtcProgram = std::ptr::null_mut();
        // SAFETY: valid C strings for the call; NVRTC copies the source; no
        // headers are passed.
        let r = unsafe {
            nv::nvrtcCreateProgram(&mut raw, src.as_ptr(), name.as_ptr(), 0, std::ptr::null(), std::ptr::null())
        };
        let program = Self { raw, kernels: source.name };
        program.check(r, "create")?;
        Ok(program)
    }

    fn check(&self, r: nv::nvrtcResult, what: &'static str) -> Result<(), GpuError> {
        if r == nv::nvrtcResult::NVRTC_SUCCESS {
            Ok(())
        } else {
            Err(GpuError::Nvrtc { what, kernels: self.kernels, code: r })
        }
    }

    /// Compiles; on failure the error carries the compiler's log.
    fn compile(&self, options: &[String]) -> Result<(), GpuError> {
        let opts: Vec<CString> = options
            .iter()
            .map(|o| CString::new(o.as_str()))
            .collect::<Result<_, _>>()
            .map_err(|_| GpuError::BadSource("a NUL byte in an NVRTC option"))?;
        let ptrs: Vec<*const std::ffi::c_char> = opts.iter().map(|o| o.as_ptr()).collect();
        let n = i32::try_from(ptrs.len()).map_err(|_| GpuError::BadSource("too many NVRTC options"))?;
        // SAFETY: a live program; the option strings outlive the call.
        let r = unsafe { nv::nvrtcCompileProgram(self.raw, n, ptrs.as_ptr()) };
        if r == nv::nvrtcResult::NVRTC_SUCCESS {
            Ok(())
        } else {
            Err(GpuError::Compile { kernels: self.kernels, code: r, log: self.log().trim().to_string() })
        }
    }

    /// The compilation log (empty when NVRTC gives none).
    fn log(&self) -> String {
        let mut size = 0usize;
        // SAFETY: a live program; an out-parameter.
        if unsafe { nv::nvrtcGetProgramLogSize(self.raw, &mut size) } != nv::nvrtcResult::NVRTC_SUCCESS || size <= 1 {
            return String::new();
        }
        let mut buf = vec![0u8; size];
        // SAFETY: `buf` holds the size NVRTC asked for.
        if unsafe { nv::nvrtcGetProgramLog(self.raw, buf.as_mut_ptr().cast()) } != nv::nvrtcResult::NVRTC_SUCCESS {
            return String::new();
        }
        CStr::from_bytes_until_nul(&buf).map(|c| c.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The machine code (CUBIN) of a compiled program.
    fn cubin(&self) -> Result<Vec<u8>, GpuError> {
        let mut size = 0usize;
        // SAFETY: a live, compiled program; an out-parameter.
        self.check(unsafe { nv::nvrtcGetCUBINSize(self.raw, &mut size) }, "size")?;
        let mut buf = vec![0u8; size];
        // SAFETY: `buf` holds the size NVRTC gave.
        self.check(unsafe { nv::nvrtcGetCUBIN(self.raw, buf.as_mut_ptr().cast()) }, "output")?;
        Ok(buf)
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: created by nvrtcCreateProgram and destroyed only here.
        let _ = unsafe { nv::nvrtcDestroyProgram(&mut self.raw) };
    }
}

/// Compiles `source` with `options`, then the source's own `-D` options,
/// to machine code (CUBIN) for the real architecture the options name.
pub(crate) fn compile_cubin(source: &KernelSource, options: &[String]) -> Result<Vec<u8>, GpuError> {
    let mut options = options.to_vec();
    options.extend(source.define_options());
    guarded("NVRTC", || {
        let program = Program::new(source)?;
        program.compile(&options)?;
        program.cubin()
    })?
}

/// The NVRTC options for compute capability `cc`: machine code for that chip,
/// the constants shared with the Rust side, then `extra` (part of the cache key).
pub(crate) fn nvrtc_options(cc: (i32, i32), extra: &[String]) -> Vec<String> {
    let mut o = vec![format!("--gpu-architecture=sm_{}{}", cc.0, cc.1), "--std=c++17".into(), "-default-device".into()];
    o.extend(nvrtc_defines());
    o.extend(extra.iter().cloned());
    o
}

/// NVRTC's version (major, minor).
pub(crate) fn nvrtc_version() -> Result<(i32, i32), GpuError> {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: plain out-parameters.
    let r = guarded("nvrtcVersion", || unsafe { nv::nvrtcVersion(&mut major, &mut minor) })?;
    if r != nv::nvrtcResult::NVRTC_SUCCESS {
        return Err(GpuError::Nvrtc { what: "version query", kernels: "(none)", code: r });
    }
    Ok((major, minor))
}

/// Compiles `source` to machine code for compute capability `cc` without a GPU
/// (NVRTC only), as [`Gpu::load_module`](crate::Gpu::load_module) would: for
/// reading the machine code (registers, spills, instruction mix) on a machine
/// without a GPU.
///
/// # Errors
/// NVRTC missing or compilation failed.
pub fn compile_offline(source: &KernelSource, cc: (i32, i32)) -> Result<Vec<u8>, GpuError> {
    if find_library("nvrtc").is_none() {
        return Err(GpuError::NoNvrtc);
    }
    compile_cubin(source, &nvrtc_options(cc, &[]))
}
