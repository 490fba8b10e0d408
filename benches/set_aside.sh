#!/usr/bin/env bash
# set_aside.sh TRASH PATH...: moves each PATH that exists into the folder
# TRASH under a unique name, so the next build starts from a clean output
# folder without deleting anything. benches/run.sh leaves TRASH in place
# (BENCH_DELETE_TRASH=1 deletes it at the end).
#
# Why not `rm -rf`: on an ext4 file system without a journal (this machine's
# root, see BENCHMARKS.md) the inode allocator skips inodes freed in the last
# 60 to 360 seconds, checking each one, so creating 1,000 files right after
# deleting 1,000 costs hundreds of milliseconds of kernel time and serializes
# parallel writers. That measures the file system, not the build tool.
set -eu
trash="$1"
shift
mkdir -p "$trash"
stamp="$(date +%s%N)"
for p in "$@"; do
    if [ -e "$p" ]; then
        mv "$p" "$trash/$(basename "$p").$stamp"
    fi
done
