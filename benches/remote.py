"""A fresh clone served by a shared cache, against local builds (issue 28):

    python3 benches/remote.py KILN [ROUNDS] [PROJECT [FLAG...]]

Needs nginx with its WebDAV module on the PATH (Debian's; tests/full.sh
installs it) and the 1,000-job project (`python3 benches/gen_project.py
--jobs 1000 --manifests 10 --out benches/work/project`). Starts nginx on
127.0.0.1 with a generated config and an access log, fills the cache with
one build (`--remote-cache`), then, in turn each round, each into a folder
it owns:
  clean    a clean local build (no cache);
  restore  a fresh output folder restored from the cache
           (`--remote-cache URL --remote-cache-read-only`);
  noop     the local no-op build after it.
Prints medians and minimums, and the restore's requests (from nginx's log:
each job's) and bytes. PROJECT (default: that 1,000-job project) may be
any project root, such as the repository's own demo (`.`): its textured
characters restored, its model conversion rebuilt (the per-kind policy),
each job's time in the clean build and the restore printed. FLAGs go to
every build that uses the cache: `--remote-cache-conversions` shares the
model conversions too (the bundle of benches/convert.sh's project,
benches/work/convert/project, restored against converted).
"""
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

here = Path(__file__).parent
kiln = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
project = Path(sys.argv[3]).resolve() if len(sys.argv) > 3 else here / "work" / "project"
flags = sys.argv[4:]
work = Path(tempfile.mkdtemp(prefix="kiln-remote-bench-"))
nginx_dir = work / "nginx"
(nginx_dir / "www" / "cache").mkdir(parents=True)
(nginx_dir / "tmp").mkdir()
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
d = nginx_dir
(d / "nginx.conf").write_text(f"""daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{}}
http {{
  access_log {d}/access.log;
  client_body_temp_path {d}/tmp;
  proxy_temp_path {d}/tmp;
  fastcgi_temp_path {d}/tmp;
  uwsgi_temp_path {d}/tmp;
  scgi_temp_path {d}/tmp;
  server {{
    listen 127.0.0.1:{port};
    root {d}/www;
    client_max_body_size 0;
    location /cache/ {{
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw;
    }}
  }}
}}
""")
nginx = subprocess.Popen(["nginx", "-p", str(d), "-c", str(d / "nginx.conf")], stderr=subprocess.DEVNULL)
url = f"http://127.0.0.1:{port}/cache"
for _ in range(500):
    try:
        socket.create_connection(("127.0.0.1", port)).close()
        break
    except OSError:
        time.sleep(0.01)


def build(out, *extra):
    t = time.perf_counter()
    r = subprocess.run([kiln, "build", "--root", str(project), "--out", str(out), "--json", *extra],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return (time.perf_counter() - t) * 1e3, json.loads(r.stdout)


def fresh(out):
    shutil.rmtree(out, ignore_errors=True)


try:
    fill = work / "fill-out"
    ms, report = build(fill, "--remote-cache", url, *flags)
    jobs = report["totals"]["jobs"]
    print(f"{jobs} jobs; filling the cache (a clean build that stores every job): {ms:.0f} ms")
    stored = sum(f.stat().st_size for f in (d / "www").rglob("*") if f.is_file())
    times = {"clean": [], "restore": [], "noop": []}
    requests = None
    for r in range(rounds + 1):
        out = work / "clean-out"
        fresh(out)
        ms, clean_report = build(out)
        if r:
            times["clean"].append(ms)
        out = work / "restore-out"
        fresh(out)
        (d / "access.log").write_text("")
        os.kill(nginx.pid, 10)  # SIGUSR1: reopen the log
        time.sleep(0.05)
        ms, report = build(out, "--remote-cache", url, "--remote-cache-read-only", *flags)
        t = report["totals"]
        assert t["restored"] + t["built"] == jobs and t["restored"] > 0, t
        shared_all = "--remote-cache-conversions" in flags
        assert all(j["status"] == "restored" or (j["kind"] == "model_bundle" and not shared_all)
                   for j in report["jobs"]), t
        restored_report = report
        if r:
            times["restore"].append(ms)
        time.sleep(0.05)
        log = (d / "access.log").read_text().splitlines()
        requests = (len(log), sum(int(line.split('" ')[1].split()[1]) for line in log))
        ms, report = build(out)
        assert report["totals"]["fresh"] == jobs
        if r:
            times["noop"].append(ms)
    print(f"{rounds} rounds; the cache holds {stored / 1e6:.1f} MB")
    for k, v in times.items():
        print(f"{k:8s} median {statistics.median(v):7.0f} ms   min {min(v):7.0f} ms")
    t = restored_report["totals"]
    print(f"restore: {t['restored']} jobs restored, {t['built']} built (rebuilt by policy); "
          f"{requests[0]} requests ({requests[0] / max(t['restored'], 1):.2f} a restored job), "
          f"{requests[1] / 1e6:.2f} MB sent by nginx")
    if jobs <= 20:
        print("last round, each job: clean build ms / restore ms (status)")
        times_of = lambda rep: {j["id"]: (j.get("time_ms"), j["status"], j["kind"]) for j in rep["jobs"]}
        a, b = times_of(clean_report), times_of(restored_report)
        for k in sorted(a):
            print(f"  {a[k][2]:14s} {k:28s} {a[k][0]} / {b[k][0]} ({b[k][1]})")
finally:
    nginx.terminate()
    nginx.wait()
    shutil.rmtree(work, ignore_errors=True)
