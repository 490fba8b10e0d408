#!/usr/bin/env python3
"""Google's protocol-buffer runtime (the `protobuf` package) reading and
writing REAPI v2 `ActionResult`s, for tests/formats/action_result.rs to
check kiln's codec against. The message types are built here from a
descriptor of the fields as remote-apis' remote_execution.proto declares
them (commit becdd8f), plus two kiln never reads: `stdout_raw` and
`execution_metadata.worker` (what bazel-remote adds when it re-marshals).

Usage:
  action_result.py encode   JSON on stdin ({"files": [{"path", "hash",
                            "size", "executable"}], "exit_code", "worker",
                            "stdout"}) -> the message's bytes on stdout
  action_result.py decode   bytes on stdin -> that JSON on stdout
"""
import json
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto
PACKAGE = "build.bazel.remote.execution.v2"


def message(file, name, fields):
    m = file.message_type.add(name=name)
    for fname, number, kind, label, type_name in fields:
        f = m.field.add(name=fname, number=number, type=kind, label=label)
        if type_name:
            f.type_name = f".{PACKAGE}.{type_name}"


def classes():
    file = descriptor_pb2.FileDescriptorProto(
        name="remote_execution_subset.proto", package=PACKAGE, syntax="proto3"
    )
    opt = F.LABEL_OPTIONAL
    message(file, "Digest", [("hash", 1, F.TYPE_STRING, opt, None), ("size_bytes", 2, F.TYPE_INT64, opt, None)])
    message(
        file,
        "OutputFile",
        [
            ("path", 1, F.TYPE_STRING, opt, None),
            ("digest", 2, F.TYPE_MESSAGE, opt, "Digest"),
            ("is_executable", 4, F.TYPE_BOOL, opt, None),
            ("contents", 5, F.TYPE_BYTES, opt, None),
        ],
    )
    message(file, "ExecutedActionMetadata", [("worker", 1, F.TYPE_STRING, opt, None)])
    message(
        file,
        "ActionResult",
        [
            ("output_files", 2, F.TYPE_MESSAGE, F.LABEL_REPEATED, "OutputFile"),
            ("exit_code", 4, F.TYPE_INT32, opt, None),
            ("stdout_raw", 5, F.TYPE_BYTES, opt, None),
            ("execution_metadata", 9, F.TYPE_MESSAGE, opt, "ExecutedActionMetadata"),
        ],
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.ActionResult"))


def main():
    ActionResult = classes()
    if sys.argv[1] == "encode":
        spec = json.load(sys.stdin)
        r = ActionResult()
        for f in spec["files"]:
            of = r.output_files.add(path=f["path"], is_executable=f["executable"])
            if f["contents"]:
                of.contents = bytes.fromhex(f["contents"])
            of.digest.hash = f["hash"]
            of.digest.size_bytes = f["size"]
        r.exit_code = spec["exit_code"]
        # Only what is given: an empty execution_metadata would still be
        # written (a message field set is present).
        if spec["stdout"]:
            r.stdout_raw = spec["stdout"].encode()
        if spec["worker"]:
            r.execution_metadata.worker = spec["worker"]
        sys.stdout.buffer.write(r.SerializeToString())
    else:
        r = ActionResult()
        r.ParseFromString(sys.stdin.buffer.read())
        json.dump(
            {
                "files": [
                    {"path": f.path, "hash": f.digest.hash, "size": f.digest.size_bytes, "executable": f.is_executable, "contents": f.contents.hex()}
                    for f in r.output_files
                ],
                "exit_code": r.exit_code,
                "worker": r.execution_metadata.worker,
                "stdout": r.stdout_raw.decode(),
            },
            sys.stdout,
        )


main()
