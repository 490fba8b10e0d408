"""The style conversions written with numpy and gguf-py's GGUFWriter: what
a user would write without kiln. Same selection, values and metadata as
kiln's `styles` kind (docs/manifest.md), so the bytes of each style match
kiln's up to float rounding in the forward kinematics.

    python3 styles_numpy.py official CLIPS.safetensors OUT_DIR
    python3 styles_numpy.py glb G1.glb OUT_DIR      # animation 0, 30 fps

The GLB path reads the JSON and BIN chunks with numpy, interpolates each
channel at k/30 s (linear for translations; normalized lerp for rotations,
exact at the keys this benchmark's file has), runs forward kinematics over
all frames at once per joint (einsum), and takes roots, positions and
headings as kiln does.
"""
import hashlib
import json
import struct
import sys

import numpy as np
from gguf import GGUFWriter
from safetensors.numpy import load_file

REV = "a0732b642c0333077e127a2f56ab0014c196bca4"
OFFICIAL = [("idle", 0.0, 6), ("slow_walk", 0.3, 6), ("walk", 1.0, 6), ("hand_crawling", 0.5, 6),
            ("walk_boxing", 1.0, 11), ("elbow_crawling", 0.8, 11), ("stealth_walk", 1.0, 6),
            ("injured_walk", 0.5, 6), ("walk_stealth", 0.7, 6), ("walk_happy_dance", 1.0, 6),
            ("walk_zombie", 0.6, 6), ("walk_gun", 0.6, 6), ("walk_scared", 0.6, 6),
            ("walk_left", 0.2, 4), ("walk_right", 0.2, 4)]
G1 = ["pelvis_skel", "left_hip_pitch_skel", "left_hip_roll_skel", "left_hip_yaw_skel", "left_knee_skel",
      "left_ankle_pitch_skel", "left_ankle_roll_skel", "left_toe_base", "right_hip_pitch_skel",
      "right_hip_roll_skel", "right_hip_yaw_skel", "right_knee_skel", "right_ankle_pitch_skel",
      "right_ankle_roll_skel", "right_toe_base", "waist_yaw_skel", "waist_roll_skel", "waist_pitch_skel",
      "left_shoulder_pitch_skel", "left_shoulder_roll_skel", "left_shoulder_yaw_skel", "left_elbow_skel",
      "left_wrist_roll_skel", "left_wrist_pitch_skel", "left_wrist_yaw_skel", "left_hand_roll_skel",
      "right_shoulder_pitch_skel", "right_shoulder_roll_skel", "right_shoulder_yaw_skel", "right_elbow_skel",
      "right_wrist_roll_skel", "right_wrist_pitch_skel", "right_wrist_yaw_skel", "right_hand_roll_skel"]
PARENTS = [-1, 0, 1, 2, 3, 4, 5, 6, 0, 8, 9, 10, 11, 12, 13, 0, 15, 16, 17, 18, 19, 20, 21, 22, 23,
           24, 17, 26, 27, 28, 29, 30, 31, 32]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_style(path, name, speed, index, count, sha, headings, positions, rotations, roots):
    frames = len(headings)
    mask = np.zeros(11, dtype=np.int32)
    mask[:count] = 1
    w = GGUFWriter(path, "motionbricks")
    w.add_name(name)
    w.add_uint32("general.alignment", 32)
    w.add_uint32("general.file_type", 0)
    w.add_uint32("motionbricks.format_version", 1)
    w.add_string("motionbricks.component", "style")
    w.add_string("motionbricks.skeleton", "g1skel34")
    w.add_string("motionbricks.upstream_revision", REV)
    w.add_string("motionbricks.source_sha256", sha)
    w.add_uint64("motionbricks.parameter_count", 412 * frames + 11)
    w.add_string("motionbricks.style_name", name)
    w.add_float32("motionbricks.style_speed", speed)
    w.add_uint32("motionbricks.style_frames", frames)
    w.add_uint32("motionbricks.style_index", index)
    w.add_tensor("allowed_tokens", mask)
    w.add_tensor("global_headings", np.ascontiguousarray(headings, dtype=np.float32))
    w.add_tensor("global_joint_positions", np.ascontiguousarray(positions, dtype=np.float32))
    w.add_tensor("global_joint_rotations", np.ascontiguousarray(rotations, dtype=np.float32).reshape(frames, 34, 9))
    w.add_tensor("global_root_positions", np.ascontiguousarray(roots, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def official(clips, out):
    sha = sha256(clips)
    t = load_file(clips)
    n = t["num_frames_per_clip"]
    for c, (name, speed, count) in enumerate(OFFICIAL):
        f = int(n[c])
        h = t["global_headings"][c, :f].copy()
        if c == 3:
            h[0] = 0.0
        if c == 5:
            h -= np.float32(0.95)
        write_style(f"{out}/{name}.mbstyle", name, speed, c, count, sha, h,
                    t["global_joint_positions"][c, :f], t["global_joint_rotations"][c, :f],
                    t["global_root_positions"][c, :f])


def quat_to_mat(q):
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    return np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                     2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                     2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1).reshape(q.shape[:-1] + (3, 3))


def sample(times, values, t, rotation):
    i = np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 2)
    a = np.clip((t - times[i]) / (times[i + 1] - times[i]), 0.0, 1.0)[:, None]
    v = values[i] * (1 - a) + values[i + 1] * a
    if rotation:
        v /= np.linalg.norm(v, axis=-1, keepdims=True)
    return v


def glb(path, out):
    sha = sha256(path)
    data = open(path, "rb").read()
    (jlen,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + jlen])
    bin_ = data[20 + jlen + 8:]

    def accessor(i):
        a = doc["accessors"][i]
        v = doc["bufferViews"][a["bufferView"]]
        n = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
        arr = np.frombuffer(bin_, np.float32, a["count"] * n, v.get("byteOffset", 0) + a.get("byteOffset", 0))
        return arr.reshape(a["count"], n) if n > 1 else arr

    names = [n.get("name") for n in doc["nodes"]]
    node_of = [names.index(j) for j in G1]
    anim = doc["animations"][0]
    duration = max(float(accessor(s["input"])[-1]) for s in anim["samplers"])
    frames = int(np.floor(duration * 30 + 1e-6)) + 1
    t = np.arange(frames) / 30.0
    local_t = {j: np.tile(np.array(doc["nodes"][node_of[j]].get("translation", [0, 0, 0]), np.float64), (frames, 1)) for j in range(34)}
    local_r = {j: np.tile(np.array(doc["nodes"][node_of[j]].get("rotation", [0, 0, 0, 1]), np.float64), (frames, 1)) for j in range(34)}
    for ch in anim["channels"]:
        s = anim["samplers"][ch["sampler"]]
        j = node_of.index(ch["target"]["node"])
        v = sample(accessor(s["input"]).astype(np.float64), accessor(s["output"]).astype(np.float64), t,
                   ch["target"]["path"] == "rotation")
        (local_r if ch["target"]["path"] == "rotation" else local_t)[j] = v
    rot = np.zeros((frames, 34, 3, 3))
    pos = np.zeros((frames, 34, 3))
    for j in range(34):
        r = quat_to_mat(local_r[j])
        p = PARENTS[j]
        if p < 0:
            rot[:, j], pos[:, j] = r, local_t[j]
        else:
            rot[:, j] = np.einsum("fab,fbc->fac", rot[:, p], r)
            pos[:, j] = pos[:, p] + np.einsum("fab,fb->fa", rot[:, p], local_t[j])
    root = pos[:, 0].copy()
    root[:, 1] = 0.0
    rel = pos - root[:, None, :]
    heading = np.arctan2(rot[:, 0, 0, 2], rot[:, 0, 2, 2])
    step = np.linalg.norm(np.diff(root[:, [0, 2]], axis=0), axis=1).sum()
    speed = float(step / ((frames - 1) / 30.0))
    write_style(f"{out}/walk_long.mbstyle", "walk_long", speed, 0, 7, sha, heading, rel, rot, root)


if __name__ == "__main__":
    {"official": official, "glb": glb}[sys.argv[1]](sys.argv[2], sys.argv[3])
