#!/usr/bin/env python3
"""Process helpers for scripts/hostile/run.sh (black-box cases against `skinny`).

Each mode starts the command with every signal at its default disposition
(a shell's background job would ignore SIGINT, nohup SIGHUP: then a signal
case would show nothing), no core dumps, and prints one line of `key=value`
facts for run.sh to judge. Never judges by a fixed sleep alone: it waits for
what it needs to see (an output held open, CPU time used) with a deadline.

  proc.py midstream DIR SIG INPUT NBYTES -- CMD...
      CMD runs in DIR reading from a pipe fed the first NBYTES of INPUT (the
      pipe kept open), until it holds a file in DIR open with some bytes in
      it; then SIG (a number or name); prints how it ended.
  proc.py stop SIG CPU_S -- CMD...
      CMD runs until it has used CPU_S seconds of CPU, then SIG; prints the
      seconds from the signal to its exit (killed after 30 s) and how it ended.
  proc.py waitfor GLOB SIG MAX_S -- CMD...
      CMD runs until GLOB matches (or MAX_S seconds), then SIG; prints how it
      ended.
"""
import glob
import os
import resource
import signal
import subprocess
import sys
import time


def defaults():
    for s in range(1, signal.NSIG):
        if s in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            signal.signal(s, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def signum(text):
    if text.isdigit():
        return int(text)
    if text.startswith("RTMIN+"):
        return signal.SIGRTMIN + int(text[6:])
    return getattr(signal, "SIG" + text if not text.startswith("SIG") else text)


def ended(p):
    rc = p.returncode
    return f"signal={-rc}" if rc < 0 else f"code={rc}"


def cpu_seconds(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
        return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def held_in(pid, folder):
    """Bytes in the largest file of `folder` that `pid` holds open, or -1."""
    best = -1
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return -1
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith(folder + "/"):
                best = max(best, os.stat(f"/proc/{pid}/fd/{fd}").st_size)
        except OSError:
            pass
    return best


def split(argv):
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


def midstream(args, cmd):
    folder, sig, src, nbytes = os.path.realpath(args[0]), signum(args[1]), args[2], int(args[3])
    with open(src, "rb") as f:
        data = f.read(nbytes)
    p = subprocess.Popen(cmd, cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=defaults)
    try:
        p.stdin.write(data)
        p.stdin.flush()
    except BrokenPipeError:
        p.wait()
        print(f"result=stopped-reading {ended(p)} err={p.stderr.read()[:200]!r}")
        return
    start, size = time.time(), -1
    while time.time() - start < 120:
        if p.poll() is not None:
            break
        size = held_in(p.pid, folder)
        if size > 0:
            break
        time.sleep(0.01)
    if p.poll() is not None:
        print(f"result=ended-early {ended(p)} err={p.stderr.read()[:200]!r}")
        return
    time.sleep(0.05)
    os.kill(p.pid, sig)
    p.wait(timeout=60)
    p.stdin.close()
    print(f"result=ran held={size} {ended(p)}")


def stop(args, cmd):
    sig, cpu = signum(args[0]), float(args[1])
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=defaults)
    start = time.time()
    while cpu_seconds(p.pid) < cpu and p.poll() is None and time.time() - start < 60:
        time.sleep(0.02)
    if p.poll() is not None:
        print(f"result=ended-early {ended(p)} err={p.stderr.read()[:200]!r}")
        return
    sent = time.time()
    os.kill(p.pid, sig)
    try:
        p.wait(timeout=30)
        latency = time.time() - sent
        print(f"result=ran latency={latency:.3f} {ended(p)}")
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        print(f"result=still-running-30s latency=30+ killed")


def waitfor(args, cmd):
    pattern, sig, most = args[0], signum(args[1]), float(args[2])
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, preexec_fn=defaults)
    start, seen = time.time(), False
    while time.time() - start < most and p.poll() is None:
        if glob.glob(pattern):
            seen = True
            time.sleep(0.3)
            break
        time.sleep(0.02)
    if p.poll() is not None:
        print(f"result=ended-early {ended(p)} err={p.stderr.read()[:200]!r}")
        return
    os.kill(p.pid, sig)
    try:
        p.wait(timeout=30)
        print(f"result=ran seen={int(seen)} {ended(p)}")
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        print(f"result=still-running-30s seen={int(seen)}")


if __name__ == "__main__":
    mode = sys.argv[1]
    args, cmd = split(sys.argv[2:])
    {"midstream": midstream, "stop": stop, "waitfor": waitfor}[mode](args, cmd)
