//! Signal handlers, installed one way for every command that needs them.

use std::ffi::c_int;
use std::ptr;

/// Installs `handler` for each of `signals`. A signal that whoever started us
/// set to be ignored (`nohup`, a shell's background job) stays ignored. The
/// handler must be async-signal-safe; other signals wait while it runs.
pub(crate) fn catch(signals: &[c_int], handler: extern "C" fn(c_int)) {
    for &sig in signals {
        // SAFETY: plain sigaction calls on zero-initialised structs; the
        // handlers given here are async-signal-safe (their callers say why).
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                continue;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as libc::sighandler_t;
            libc::sigfillset(&mut action.sa_mask);
            libc::sigaction(sig, &action, ptr::null_mut());
        }
    }
}
