//! Hooks for the constant-time check (`checks/ct` in the repository, run by
//! `scripts/checks/ct-valgrind.sh`): valgrind's memcheck is told that the key and
//! the data are *undefined*, so every branch or memory index computed from
//! them is reported; values that are public by design are *declassified*
//! (told defined again) where they become public.
//!
//! [`declassify`] is the one hook the schemes call (on a tag comparison's
//! verdict, which the caller learns anyway). It is the identity, and without
//! the `ct-check` feature it compiles to nothing. With the feature (only the
//! check turns it on) it and `mark_secret`, `mark_public` and
//! `running_on_valgrind` (present only with the feature) issue valgrind client requests: on x86-64 the
//! "special instruction" sequence of valgrind's `valgrind.h`
//! (`VALGRIND_DO_CLIENT_REQUEST_EXPR` for `PLAT_amd64_linux`): `rol rdi` by 3,
//! 13, 61 and 51 (128 bits in all, so `rdi` comes back unchanged), then
//! `xchg rbx, rbx`, with `rax` pointing at six words (the request code and
//! five arguments) and `rdx` holding the default result, where the result
//! comes back. On a real CPU the sequence does nothing and `rdx` keeps the
//! default; under valgrind the core recognises it and serves the request.
//! The request codes are those of `memcheck.h` (`VG_USERREQ_TOOL_BASE('M',
//! 'C')` = 0x4d43_0000, then `MAKE_MEM_NOACCESS`, `MAKE_MEM_UNDEFINED`,
//! `MAKE_MEM_DEFINED`) and `valgrind.h` (`RUNNING_ON_VALGRIND` = 0x1001).
//! Other targets get no-ops.

/// The verdict of a comparison whose result is public (a tag check: the
/// caller learns it from the `Result`), declassified for the constant-time
/// check so that the branches on it are not reported. The identity.
#[inline(always)]
pub fn declassify(verdict: bool) -> bool {
    #[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
    return client_request::declassify(verdict);
    #[cfg(not(all(feature = "ct-check", target_arch = "x86_64")))]
    verdict
}

/// Tells memcheck that `bytes` are secret (undefined): any branch or memory
/// index computed from them is then reported. Their values do not change.
#[cfg(feature = "ct-check")]
pub fn mark_secret(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    client_request::request(0, [client_request::MAKE_MEM_UNDEFINED, bytes.as_ptr() as usize, bytes.len(), 0, 0, 0]);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}

/// Tells memcheck that `bytes` are public (defined) from here on: a
/// result that is released anyway (a ciphertext, a tag, a digest).
#[cfg(feature = "ct-check")]
pub fn mark_public(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    client_request::request(0, [client_request::MAKE_MEM_DEFINED, bytes.as_ptr() as usize, bytes.len(), 0, 0, 0]);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}

/// Whether this process runs under valgrind (0 layers on a real CPU, and
/// always `false` off x86-64).
#[cfg(feature = "ct-check")]
pub fn running_on_valgrind() -> bool {
    #[cfg(target_arch = "x86_64")]
    return client_request::request(0, [client_request::RUNNING_ON_VALGRIND, 0, 0, 0, 0, 0]) != 0;
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
mod client_request {
    #![allow(unsafe_code)]

    /// `VG_USERREQ__RUNNING_ON_VALGRIND` (valgrind.h).
    pub(super) const RUNNING_ON_VALGRIND: usize = 0x1001;
    /// `VG_USERREQ__MAKE_MEM_UNDEFINED` (memcheck.h): tool base 'M','C' + 1.
    pub(super) const MAKE_MEM_UNDEFINED: usize = 0x4d43_0001;
    /// `VG_USERREQ__MAKE_MEM_DEFINED` (memcheck.h): tool base 'M','C' + 2.
    pub(super) const MAKE_MEM_DEFINED: usize = 0x4d43_0002;

    /// [`super::declassify`]: the verdict through memory, told defined there.
    #[inline(always)]
    pub(super) fn declassify(verdict: bool) -> bool {
        let byte = u8::from(verdict);
        request(0, [MAKE_MEM_DEFINED, core::ptr::addr_of!(byte) as usize, 1, 0, 0, 0]);
        // SAFETY: `byte` is a live local. The volatile read takes the value
        // from memory after the request (whose shadow it changed).
        unsafe { core::ptr::read_volatile(&byte) != 0 }
    }

    /// One client request (`args`: the code and five arguments); `default`
    /// comes back when not under valgrind.
    #[inline(always)]
    pub(super) fn request(default: usize, args: [usize; 6]) -> usize {
        let result;
        // SAFETY: the rotations add up to 128 bits, so `rdi` ends as it
        // started; `xchg rbx, rbx` changes nothing; only the flags (not
        // marked preserved) and `rdx` (an output) change. The asm may read
        // memory (`args`, and under valgrind the range named in it), which
        // the compiler assumes since `nomem` is not given.
        unsafe {
            core::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") default => result,
                options(nostack),
            );
        }
        result
    }
}
