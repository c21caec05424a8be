//! Signal handlers, installed one way for every command that needs them.

use std::ffi::c_int;
use std::ptr;

/// Installs `handler` for each of `signals`. A signal that whoever started us
/// set to be ignored (`nohup`, a shell's background job) stays ignored. The
/// handler must be async-signal-safe; other signals wait while it runs.
pub(crate) fn catch(signals: &[c_int], handler: extern "C" fn(c_int)) {
    drop(catch_saving(signals, handler));
}

/// The signals whose default action ends the process and that a handler can
/// catch: what must remove a named temporary file before the process goes.
/// Left out: SIGKILL and SIGSTOP (no handler can run), SIGSEGV, SIGBUS, SIGFPE
/// and SIGILL (faults of this process; Rust's stack-overflow report owns the
/// first two), SIGTRAP (debuggers), SIGPIPE (Rust ignores it: a write returns
/// an error instead) and SIGXFSZ (ignored by `main`, for the same reason).
pub(crate) fn terminating() -> Vec<c_int> {
    let mut all = vec![
        libc::SIGHUP,
        libc::SIGINT,
        libc::SIGQUIT,
        libc::SIGABRT,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGTERM,
        libc::SIGXCPU,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGSYS,
    ];
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        all.extend([libc::SIGSTKFLT, libc::SIGPWR, libc::SIGIO]);
        all.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
    }
    all
}

/// The actions that [`catch_saving`] replaced, put back by [`Saved::restore`].
pub(crate) struct Saved(Vec<(c_int, libc::sigaction)>);

impl Saved {
    /// Puts the replaced actions back (another command's handler, or the
    /// default), in reverse order of installation.
    pub(crate) fn restore(self) {
        for (sig, old) in self.0.iter().rev() {
            // SAFETY: `old` is what sigaction itself returned for `sig`.
            unsafe {
                libc::sigaction(*sig, old, ptr::null_mut());
            }
        }
    }
}

/// As [`catch`], and returns what it replaced, so that a handler needed only
/// for a while (a named temporary file) can give the signals back.
pub(crate) fn catch_saving(signals: &[c_int], handler: extern "C" fn(c_int)) -> Saved {
    let mut saved = Vec::with_capacity(signals.len());
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
            if libc::sigaction(sig, &action, ptr::null_mut()) == 0 {
                saved.push((sig, old));
            }
        }
    }
    Saved(saved)
}

/// From within a handler: ends the process by `sig` itself, with its default
/// action (a core dump where that is the default and allowed), so whoever
/// waits sees the signal, not an exit code. Async-signal-safe: sigaction,
/// pthread_sigmask, raise and _exit only.
pub(crate) fn die_by(sig: c_int) -> ! {
    // SAFETY: async-signal-safe calls on local, zero-initialised structs.
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(sig, &default, ptr::null_mut());
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, ptr::null_mut());
        libc::raise(sig);
        // Only if the default action did not end the process.
        libc::_exit(128 + sig);
    }
}

/// Makes writing past `ulimit -f` an error (EFBIG) that the command reports
/// in one line and cleans up after, instead of a SIGXFSZ that ends the process
/// with its temporary file in place. An inherited disposition other than the
/// default is kept.
pub(crate) fn ignore_file_size_limit() {
    // SAFETY: sigaction on zero-initialised structs.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGXFSZ, ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_DFL {
            let mut ignore: libc::sigaction = std::mem::zeroed();
            ignore.sa_sigaction = libc::SIG_IGN;
            libc::sigaction(libc::SIGXFSZ, &ignore, ptr::null_mut());
        }
    }
}
