//! Removing a named temporary file when a signal stops the command.
//!
//! A signal whose default action ends the process would end it without
//! running destructors and leave `.skinny-*.tmp` beside the output. While a
//! [`Guard`] lives, every such signal that can be caught (see
//! [`crate::signals::terminating`]) runs a handler that unlinks the registered
//! path and then ends the process by the same signal's default action, so the
//! parent sees what stopped it. The handler only swaps an atomic pointer and
//! calls `unlink` and the calls of [`crate::signals::die_by`], all
//! async-signal-safe; the path is prepared (allocated) before registration.
//! Dropping the guard gives the signals back to whatever handled them before
//! (another command's handler, or the default).
//!
//! One named temporary file at a time: the commands write their outputs one
//! after another.

use std::ffi::{c_char, c_int, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

/// The temporary file to remove, or null.
static TEMP: AtomicPtr<c_char> = AtomicPtr::new(ptr::null_mut());

/// Registration of one temporary file; dropping it forgets the file and
/// restores the signals' previous actions.
pub struct Guard {
    saved: Option<crate::signals::Saved>,
}

impl Guard {
    pub fn new(path: &Path) -> Self {
        if let Ok(c) = CString::new(path.as_os_str().as_bytes()) {
            // Leaked on purpose: the handler may still be reading it when
            // another thread moves on; one short path per file.
            TEMP.store(c.into_raw(), Ordering::SeqCst);
        }
        // Registered first, then caught: a signal in between finds the path.
        let saved = crate::signals::catch_saving(&crate::signals::terminating(), on_signal);
        Guard { saved: Some(saved) }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(saved) = self.saved.take() {
            saved.restore();
        }
        TEMP.store(ptr::null_mut(), Ordering::SeqCst);
    }
}

extern "C" fn on_signal(sig: c_int) {
    let path = TEMP.swap(ptr::null_mut(), Ordering::SeqCst);
    if !path.is_null() {
        // SAFETY: `path` is a leaked, never-freed NUL-terminated string;
        // unlink is async-signal-safe.
        unsafe {
            libc::unlink(path);
        }
    }
    crate::signals::die_by(sig);
}
