"""Ctrl-C in a long call: the work runs without the GIL, and the binding looks
for pending signals between batches, so that ``KeyboardInterrupt`` comes
within about a batch instead of when the call ends."""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

# Each script prints "started" and then makes one call that would run for
# minutes or more.
LONG_CALLS = {
    "lab": """
        from skinny import lab
        print("started", flush=True)
        lab.differential(cipher="skinny-64-64", rounds=3, dp="2000000000000000",
                         dc="0000000000000000", queries=2**40)
    """,
    "characteristic": """
        from skinny import lab
        print("started", flush=True)
        lab.characteristic_experiment("skinny-64-64", ["2000000000000000"] * 2 + ["0000000000000000"],
                                      queries=2**40, key_every=2**20)
    """,
}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_raises_keyboard_interrupt_within_a_batch(name):
    script = textwrap.dedent(LONG_CALLS[name])
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "started"
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        _, err = proc.communicate(timeout=10)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0
    assert "KeyboardInterrupt" in err, err
    assert waited < 5, f"KeyboardInterrupt came {waited:.1f} s after SIGINT"


def test_star_import_keeps_builtin_hash():
    namespace = {}
    exec("from skinny import *", namespace)
    assert "hash" not in namespace
    import builtins
    import skinny

    assert builtins.hash("x") == hash("x")
    assert callable(skinny.hash)
    assert skinny.hash(b"") == skinny.hash(b"")
