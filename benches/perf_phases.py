#!/usr/bin/env python3
"""Attributes `perf` samples of kiln to the phases of a build.

    perf script -i perf.data --comms kiln -F comm,ip,sym | perf_phases.py

Reads `perf script` output recorded with `--call-graph dwarf` (so inlined
frames are named), and for each sample finds the outermost frame that names a
phase of `engine::build` (read manifests, plan, journal load, freshness...).
Samples whose stack was cut short before reaching one are classified by the
library they are in (YAML parser -> plan, serde_json -> state loading), and
samples with no kiln frame at all are either leaf functions perf could not
unwind from (memcpy, malloc/free, BLAKE3's assembly: named in the table) or
process start-up and exit. Prints each phase's share of the samples
and, inside the big phases, which inner step the samples were in.

Function names change as the code does: a phase that is no longer found just
shows up as "other kiln code"; update PHASES below.
"""

import collections
import re
import sys

# (label, substrings of a frame name); the first (outermost) frame matching
# any of a phase's substrings decides the sample's phase.
PHASES = [
    ("args (clap)", ["try_parse<kiln::cli::Cli", "clap_builder", "augment_args"]),
    ("read manifests", ["read_manifests"]),
    ("manifest cache load/save", ["ManifestCache::load", "ManifestCache::save"]),
    ("plan summary load (no-op path)", ["PlanSummary::load"]),
    ("plan: parse (or decode cached) manifests + resolve sources",
     ["kiln::pipeline::plan::plan", "plan::plan", "parse_cached", "manifest::parse"]),
    ("out dir + lock", ["prepare_out_dir", "out_folder::lock", "lock (inlined)"]),
    ("journal load", ["Journal::load", "Record::from_line", "from_line", "read_frame"]),
    ("hash cache load", ["HashCache::load", "FilesDoc", "decode_files"]),
    ("remove stale temps (readdir)", ["remove_stale_temps", "prepare_output_dirs"]),
    ("freshness checks", ["freshness", "try_noop", "freshness::decide"]),
    ("fresh reports", ["fresh_report", "output_reports"]),
    ("save state", ["HashCache::save", "compact_if_large", "Journal::rewrite", "save_state", "PlanSummary::save"]),
    ("drop (free) build state", ["drop_in_place<kiln::pipeline", "drop_in_place<alloc::vec::Vec<kiln::pipeline",
                                 "drop_in_place<kiln::pipeline::engine::Report"]),
    ("print report", ["print_report", "report_json"]),
]

# Within a phase, the first of these found anywhere inside it names the step.
STEPS = [
    ("resolve paths (lstat/canonicalize)", ["Resolver::resolve", "resolve (inlined)", "resolve_now", "lstat_in", "canonicalize"]),
    ("stat (metadata)", ["fs::metadata", "symlink_metadata", "try_statx", "statx", "statat"]),
    ("YAML parse", ["serde_saphyr", "granit_parser", "manifest::parse"]),
    ("decode cached manifest", ["decode_parsed"]),
    ("JSON parse", ["serde_json"]),
    ("binary state decode (wire)", ["wire::", "Record::decode", "decode (inlined)"]),
    ("hex decode", ["from_hex"]),
    ("cache key (BLAKE3)", ["KeyParts::key", "key (inlined)", "fingerprint::key", "digest", "blake3"]),
    ("key parts (settings text)", ["KeyParts::of", "settings"]),
    ("BTreeMap ops (lookup, insert, drop)", ["BTreeMap", "btree"]),
    ("file read", ["fs::read", "read::inner"]),
    ("malloc/free", ["malloc", "free", "realloc", "drop_in_place"]),
]

FALLBACK = [
    ("plan: parse (or decode cached) manifests + resolve sources", ["serde_saphyr", "granit_parser"]),
]


def frames_of(sample):
    lines = sample.strip().split("\n")[1:]
    out = []
    for line in lines:
        name = re.sub(r"^\s*[0-9a-f]+\s+", "", line.strip())
        out.append(name)
    return out[::-1]  # outermost first


def match(name, needles):
    return any(n in name for n in needles)


def classify(frames):
    has_kiln = any("kiln" in f for f in frames)
    for i, f in enumerate(frames):
        for label, needles in PHASES:
            if match(f, needles):
                return label, step_of(frames[i + 1:])
    for label, needles in FALLBACK:
        if any(match(f, needles) for f in frames):
            return label + " (cut stack)", step_of(frames)
    if not has_kiln:
        # Mostly leaf functions perf could not unwind from (memcpy,
        # malloc/free, BLAKE3's assembly), plus exec, loading and exit.
        leaf = re.sub(r" \(inlined\)$", "", frames[-1])[:40] if frames else "?"
        return "no kiln frame (un-unwound libc/asm leaf, or start-up/exit)", leaf
    return "other kiln code", frames[-1][:60] if frames else ""


def step_of(inner):
    for label, needles in STEPS:
        if any(match(f, needles) for f in inner):
            return label
    return "(own code)"


def main():
    text = sys.stdin.read()
    samples = [s for s in text.split("\n\n") if s.strip()]
    phases = collections.Counter()
    steps = collections.defaultdict(collections.Counter)
    for s in samples:
        phase, step = classify(frames_of(s))
        phases[phase] += 1
        steps[phase][step] += 1
    n = len(samples)
    print(f"{n} samples")
    print("| phase | share of samples | biggest inner steps |")
    print("|---|---|---|")
    for phase, c in phases.most_common():
        inner = ", ".join(f"{k} {v * 100 / c:.0f} %" for k, v in steps[phase].most_common(3) if k)
        print(f"| {phase} | {c * 100 / n:.1f} % | {inner} |")


if __name__ == "__main__":
    main()
