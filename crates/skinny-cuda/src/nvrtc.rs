//! NVRTC, the run-time CUDA compiler, behind an owner that destroys its
//! program however the compilation ends.

use crate::device::guarded;
use crate::kernels::KernelSource;
use crate::GpuError;
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

/// Compiles `source` with `options` to machine code (CUBIN) for the real
/// architecture the options name.
pub(crate) fn compile_cubin(source: &KernelSource, options: &[String]) -> Result<Vec<u8>, GpuError> {
    guarded("NVRTC", || {
        let program = Program::new(source)?;
        program.compile(options)?;
        program.cubin()
    })?
}
