"""A build after one source changed, kiln beside ninja, interleaved run by
run (so a noisy machine disturbs both alike).

    python3 benches/one_change.py KILN [JOBS] [ROUNDS] [PROJECT]

Makes (once) the JOBS-job project of benches/gen_project.py (10,000 by
default) in benches/work/change-JOBS, or uses PROJECT (one gen_project.py
made, e.g. with other `--manifests`), builds it with both, then for each
round writes one source anew with other bytes (the GLB's generator string
alternates, so the file stays valid and its pose cache really rebuilds) and
times `kiln build --quiet` and `ninja` (which re-runs that source's one
`cp`). Each tool sees its own change: the source is written again before
each. ninja is the pip wheel's (`pip install ninja`) or the system's.
Prints the medians and the ratio.
"""
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

kiln = sys.argv[1]
jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 30
here = Path(__file__).resolve().parent
project = Path(sys.argv[4]) if len(sys.argv) > 4 else here / "work" / f"change-{jobs}"
ninja = shutil.which("ninja") or str(Path.home() / ".local" / "bin" / "ninja")

if not (project / "build.ninja").exists():
    project.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, str(here / "gen_project.py"), "--jobs", str(jobs), "--out", str(project)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
source = sorted((project / "sources").iterdir())[4]
stem = source.name.removesuffix(".glb").encode()
original = source.read_bytes()
versions = [original, original.replace(b"bench " + stem, b"bench X" + stem[1:], 1)]
assert versions[0] != versions[1]

cmds = {
    "kiln": [kiln, "build", "--root", str(project), "--out", str(project / "out"), "--quiet"],
    "ninja": [ninja, "-C", str(project)],
}
for cmd in cmds.values():  # build, then settle
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
times = {k: [] for k in cmds}
try:
    for r in range(rounds):
        for name, cmd in cmds.items():
            source.write_bytes(versions[(r + 1) % 2])
            time.sleep(0.01)
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
            times[name].append((time.perf_counter() - t) * 1e3)
finally:
    source.write_bytes(original)
m = {k: statistics.median(v) for k, v in times.items()}
for name, v in times.items():
    print(f"{name:6s} one change, {jobs} jobs: median {m[name]:7.2f} ms   min {min(v):7.2f} ms")
print(f"kiln / ninja {m['kiln'] / m['ninja']:.2f}")
