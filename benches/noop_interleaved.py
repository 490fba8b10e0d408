"""The no-op of two kiln binaries and ninja, interleaved run by run, so a
noisy machine disturbs all three alike (benches/run.sh runs each command's
runs back to back). Needs the project benches/run.sh generated.

    python3 benches/noop_interleaved.py OLD_KILN NEW_KILN [ROUNDS]

Each kiln keeps its own output folder (out-old, out-new), built first.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

old, new = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 60
project = Path(__file__).parent / "work" / "project"
cmds = {
    "kiln (old)": [old, "build", "--root", str(project), "--out", str(project / "out-old"), "--quiet"],
    "kiln (new)": [new, "build", "--root", str(project), "--out", str(project / "out-new"), "--quiet"],
    "ninja": ["ninja", "-C", str(project)],
}
for cmd in cmds.values():  # build, then settle
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
times = {k: [] for k in cmds}
for _ in range(rounds):
    for name, cmd in cmds.items():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times[name].append((time.perf_counter() - t) * 1e3)
for name, v in times.items():
    print(f"{name:12s} median {statistics.median(v):6.2f} ms   min {min(v):6.2f} ms")
m = {k: statistics.median(v) for k, v in times.items()}
print(f"new / ninja {m['kiln (new)'] / m['ninja']:.2f}   old / ninja {m['kiln (old)'] / m['ninja']:.2f}")
