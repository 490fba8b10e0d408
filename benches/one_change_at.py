"""A build after one source changed, kiln beside ninja, interleaved, on a
project already made and built (benches/gen_project.py; e.g. the
100,000-job one of the scale figures in BENCHMARKS.md):

    python3 benches/one_change_at.py KILN PROJECT ROUNDS

Each round writes the fifth source anew with other bytes (its generator
string alternates) before each tool's run, as benches/one_change.py does.
"""
import shutil, subprocess, sys, time, statistics
from pathlib import Path
kiln, project, rounds = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
ninja = shutil.which("ninja") or str(Path.home() / ".local" / "bin" / "ninja")
source = sorted((project / "sources").iterdir())[4]
stem = source.name.removesuffix(".glb").encode()
orig = source.read_bytes()
versions = [orig, orig.replace(b"bench " + stem, b"bench X" + stem[1:], 1)]
assert versions[0] != versions[1]
t = {"kiln": [], "ninja": []}
v = 0
for r in range(rounds):
    for tool, cmd in (("kiln", [kiln, "build", "--quiet"]), ("ninja", [ninja])):
        v ^= 1
        source.write_bytes(versions[v])
        s = time.perf_counter()
        subprocess.run(cmd, cwd=project, check=True, stdout=subprocess.DEVNULL)
        t[tool].append(time.perf_counter() - s)
source.write_bytes(orig)
for k, x in t.items():
    print(f"{k} one change: median {statistics.median(x)*1e3:.1f} ms min {min(x)*1e3:.1f}")
print("ratio %.2f" % (statistics.median(t["kiln"]) / statistics.median(t["ninja"])))
