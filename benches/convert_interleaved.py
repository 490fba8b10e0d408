"""Model conversion against its floor and its peers, run by run
interleaved in a new order each round (a noisy machine disturbs every
command alike), medians:

    python3 benches/convert_interleaved.py KILN [ROUNDS]

Needs the project benches/convert.sh made (benches/work/convert/project:
the full-size synthetic MotionBricks extraction, 778 MB). Each round runs,
in turn, each into an empty folder after a `sync` (neither timed; see
`fresh`):
  cp     the four inputs copied (copy_file_range: the kernel copies);
  floor  what the bundle's rules cost at least: the copy, then the SHA-256
         of every input and of every output (the pins and the bundle's
         manifest need them), `openssl sha256` spread over the cores;
  kiln   `kiln build --force` of the motionbricks-g1 bundle;
  gguf-py  benches/gguf_py_bundle.py, the same conversion with gguf-py.
Prints the median and minimum of each, kiln / floor, gguf-py / kiln, and
each command's user and system CPU (medians).
"""
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

here = Path(__file__).parent
kiln = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
work = here / "work" / "convert"
project = work / "project"
src = sorted((project / "sources" / "weights").glob("*.safetensors"))
cores = os.cpu_count() or 1


def out(name):
    return work / f"{name}-out"


def floor_cmd():
    o = out("floor")
    files = " ".join(str(s) for s in src)
    outs = " ".join(str(o / s.name) for s in src)
    # The copy, then both hash passes at once, over the cores.
    return ["sh", "-c", f"cp --reflink=never {files} {o}/ && "
            f"(printf '%s\\n' {files} {outs} | xargs -P {cores} -n 1 openssl sha256 >/dev/null)"]


cmds = {
    "cp": ["cp", "--reflink=never", *map(str, src), str(out("cp")) + "/"],
    "floor": floor_cmd(),
    "kiln": [kiln, "build", "--root", str(project), "--out", str(out("kiln")), "--force", "--quiet"],
    "gguf-py": [sys.executable, str(here / "gguf_py_bundle.py"), str(project / "sources" / "weights"), str(out("gguf-py"))],
}


def fresh(name):
    # `sync` first, then the command's last output deleted just before it
    # runs: this machine is a VM whose free memory the host takes back
    # (virtio-balloon's free page reporting) a moment after it is freed,
    # and writing into pages it must hand back again cost cp 1.3-1.8 s
    # instead of 0.22 s (perf: copy_folio_from_iter_atomic). Each command
    # writes into the pages its own last output just gave up, alike.
    subprocess.run(["sync"], check=True)
    subprocess.run(["rm", "-rf", str(out(name))], check=True)
    out(name).mkdir(parents=True)


times = {k: [] for k in cmds}
cpu = {k: [] for k in cmds}
order = random.Random(27)  # a fixed seed: the same orders every run
for r in range(rounds + 1):  # round 0 warms the page cache
    # A new order each round: a command slowed by the one before it (here
    # a write just synced slows the next writer) is slowed in turn.
    names = list(cmds)
    order.shuffle(names)
    for name in names:
        cmd = cmds[name]
        fresh(name)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        dt = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r:
            times[name].append(dt * 1e3)
            cpu[name].append(((after.ru_utime - before.ru_utime) * 1e3, (after.ru_stime - before.ru_stime) * 1e3))
med = {k: statistics.median(v) for k, v in times.items()}
print(f"{rounds} rounds, {cores} cores, {sum(s.stat().st_size for s in src) / 1e6:.0f} MB in")
print(f"{'':10s} {'median':>9s} {'min':>9s} {'user':>8s} {'sys':>8s}")
for name, v in times.items():
    u = statistics.median(c[0] for c in cpu[name])
    s = statistics.median(c[1] for c in cpu[name])
    print(f"{name:10s} {med[name]:8.0f}  {min(v):8.0f}  {u:7.0f}  {s:7.0f}  ms")
print(f"kiln / floor {med['kiln'] / med['floor']:.2f} (goal <= 1.25), kiln / cp {med['kiln'] / med['cp']:.2f}, "
      f"gguf-py / kiln {med['gguf-py'] / med['kiln']:.2f} (goal >= 3)")
