"""Watch mode's latency: from a save to the output committed and reported.

    python3 benches/watch_latency.py KILN [SAVES] [JOBS,JOBS...]

Projects, each watched by `KILN watch --json` (20 ms debounce, the
default):

- the project of benches/gen_project.py (pose caches, one GLB each) with
  1,000 jobs (and any other job counts given: `1000,10000`), in
  benches/work/watch-1k (watch-10k, ...): one source saved SAVES times (100
  by default), alternating between two valid versions (the GLB's generator
  string differs), so each save rebuilds one job;
- a copy of the demo (benches/work/watch-demo), whose
  RobotExpressive.cc.glb feeds a pose cache and the level `forest` (a
  compiled-characters set of five models and three banks): each save
  rebuilds both.

Each save is written as editors do (a temporary file renamed over the
source); the latency is from just after the rename to the arrival of the
watch's "built" line that lists the changed outputs (which kiln prints after
committing them). Between saves the script waits 100 ms, so that saves do
not share a debounce window. Prints the median, p95 and max for each, and
the median of the build's own time (`totals.time_ms`), which is what is
left after the debounce and the watcher.
"""
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

kiln = sys.argv[1]
saves = int(sys.argv[2]) if len(sys.argv) > 2 else 100
job_counts = [int(n) for n in sys.argv[3].split(",")] if len(sys.argv) > 3 else [1000]
here = Path(__file__).resolve().parent
repo = here.parent
work = here / "work"


def project_jobs(jobs):
    p = work / f"watch-{jobs // 1000}k"
    if not (p / "manifests").exists():
        p.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, str(here / "gen_project.py"), "--jobs", str(jobs), "--out", str(p)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    name = sorted((p / "sources").iterdir())[4].name  # s0005.glb
    stem = name.removesuffix(".glb").encode()
    return p, f"sources/{name}", b"bench " + stem, b"bench X" + stem[1:]


def project_demo():
    p = work / "watch-demo"
    if p.exists():
        shutil.rmtree(p)
    p.mkdir(parents=True)
    for d in ["manifests", "sources"]:
        shutil.copytree(repo / d, p / d)
    return p, "sources/characters/RobotExpressive.cc.glb", b"gltfpack 1.3", b"gltfpack 1.4"


def measure(name, project):
    root, source, a, b = project
    shutil.rmtree(root / "out", ignore_errors=True)
    original = (root / source).read_bytes()
    assert a in original, f"{source} has no {a!r}"
    versions = [original, original.replace(a, b, 1)]
    watch = subprocess.Popen(
        [kiln, "watch", "--json", "--root", str(root), "--out", str(root / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    lines = queue.Queue()

    def read():
        for line in watch.stdout:
            lines.put((time.perf_counter(), json.loads(line)))

    threading.Thread(target=read, daemon=True).start()

    def built(changed):
        while True:
            t, v = lines.get(timeout=120)
            if v["event"] == "built" and (bool(v["changed"]) == changed or not changed):
                return t, v

    built(True)  # the first build
    latencies, engine = [], []
    path = root / source
    tmp = path.with_name(path.name + ".tmp")
    try:
        for i in range(saves):
            time.sleep(0.1)
            while not lines.empty():
                lines.get()
            tmp.write_bytes(versions[(i + 1) % 2])
            os.rename(tmp, path)
            t0 = time.perf_counter()
            t, v = built(True)
            latencies.append((t - t0) * 1e3)
            engine.append(v["totals"]["time_ms"])
    finally:
        watch.terminate()
        watch.wait()
        path.write_bytes(original)
    latencies.sort()
    p95 = latencies[max(0, int(round(0.95 * len(latencies))) - 1)]
    print(
        f"{name:28s} saves {len(latencies):4d}  median {statistics.median(latencies):6.1f} ms"
        f"  p95 {p95:6.1f} ms  max {latencies[-1]:6.1f} ms"
        f"  (build itself: median {statistics.median(engine):5.1f} ms)"
    )


for jobs in job_counts:
    measure(f"{jobs:,} jobs, one pose cache", project_jobs(jobs))
measure("demo, the level forest", project_demo())
