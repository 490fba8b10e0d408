"""Compiled characters against native gltfpack, run by run interleaved, so
a noisy machine disturbs every command alike (hyperfine in
benches/characters.sh runs each command's runs back to back).

    python3 benches/characters_interleaved.py KILN [OLD_KILN] [ROUNDS]

Needs the projects benches/characters.sh made (benches/work/characters).
Each round runs, in turn: `kiln build --force` of each character's project
(and OLD_KILN's, when given, into its own output folder), `gltfpack -cc` of
the same file, and `true` (what starting a process costs here). Prints the
median and minimum of each, and kiln / gltfpack of the medians.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

here = Path(__file__).parent
kiln = sys.argv[1]
old = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].isdigit() else None
rounds = int(sys.argv[-1]) if sys.argv[-1].isdigit() else 40
work = here / "work" / "characters"
corpus = here.parent / "tests" / "corpus" / "glb"
names = ["SimpleSkin", "RiggedSimple-blender", "RobotExpressive", "MorphStressTest", "Fox", "CesiumMan-blender"]
cmds = {"true": ["true"]}
for n in names:
    p = work / n
    cmds[f"kiln {n}"] = [kiln, "build", "--root", str(p), "--force", "--quiet"]
    if old:
        cmds[f"old {n}"] = [old, "build", "--root", str(p), "--out", str(p / "out-old"), "--force", "--quiet"]
        subprocess.run(cmds[f"old {n}"][:-2] + ["--quiet"], stderr=subprocess.DEVNULL, check=True)
    cmds[f"gltfpack {n}"] = ["gltfpack", "-i", str(corpus / f"{n}.glb"), "-o", str(work / "out" / f"{n}.glb"), "-cc"]
for cmd in cmds.values():  # warm up
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
times = {k: [] for k in cmds}
for _ in range(rounds):
    for name, cmd in cmds.items():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append((time.perf_counter() - t) * 1e3)
med = {k: statistics.median(v) for k, v in times.items()}
print(f"{'':32s} {'median':>8s} {'min':>8s}")
for name, v in times.items():
    print(f"{name:32s} {med[name]:7.2f}  {min(v):7.2f}  ms")
print()
for n in names:
    line = f"{n:22s} kiln / gltfpack {med[f'kiln {n}'] / med[f'gltfpack {n}']:.2f}"
    if old:
        line += f"   old / gltfpack {med[f'old {n}'] / med[f'gltfpack {n}']:.2f}"
    print(line)
