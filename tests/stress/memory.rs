//! Nothing aborts (issue 43): for each decoder, the worst input its limits
//! allow (the largest counts, the best-compressing payload), run through
//! `kiln verify`, `inspect` and a build under address-space caps, ends
//! with exit 0 or 1 and a message naming the byte, never a signal. A bound
//! says how much a file may ask for; the memory it asks for is still
//! allocated fallibly, since the machine may have less.

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Output};

use miniz_oxide::deflate::core::{
    CompressorOxide, TDEFLFlush, TDEFLStatus, compress, create_comp_flags_from_zip_params,
};

use kiln::formats::cgeo::{self, Header, Mesh, Sequence, Snapshot, Triangle};
use serde_json::json;

use crate::boundary::HANG;
use crate::cli_support::{KILN, Project, stderr};

/// What a zlib stream holds: bytes, or a run of zeros.
enum Piece {
    Bytes(Vec<u8>),
    Zeros(u64),
}

/// A zlib stream of `pieces`, compressed as it goes (a run of zeros is
/// never held whole).
fn zlib(pieces: &[Piece]) -> Vec<u8> {
    let flags = create_comp_flags_from_zip_params(9, 15, 0);
    let mut d = CompressorOxide::new(flags);
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    let zeros = vec![0u8; 1 << 20];
    let mut feed = |input: &[u8], flush: TDEFLFlush, out: &mut Vec<u8>| {
        let mut input = input;
        loop {
            let (status, used, made) = compress(&mut d, input, &mut buf, flush);
            out.extend_from_slice(&buf[..made]);
            input = &input[used..];
            match status {
                TDEFLStatus::Done => return,
                TDEFLStatus::Okay if input.is_empty() && made < buf.len() => return,
                TDEFLStatus::Okay => {}
                s => panic!("deflate: {s:?}"),
            }
        }
    };
    for piece in pieces {
        match piece {
            Piece::Bytes(b) => feed(b, TDEFLFlush::None, &mut out),
            Piece::Zeros(n) => {
                let mut left = *n;
                while left > 0 {
                    let k = left.min(zeros.len() as u64) as usize;
                    feed(&zeros[..k], TDEFLFlush::None, &mut out);
                    left -= k as u64;
                }
            }
        }
    }
    feed(&[], TDEFLFlush::Finish, &mut out);
    out
}

/// A mesh section's payload of `v` vertices, `n` normals and one map
/// channel of `m` coordinates for each entry of `channels`, every value
/// zero, no triangles.
fn mesh_pieces(v: u32, n: u32, channels: &[u32]) -> Vec<Piece> {
    let mut head = vec![1u8];
    for x in [v, n, channels.len() as u32, 0] {
        head.extend_from_slice(&x.to_le_bytes());
    }
    let mut pieces = vec![
        Piece::Bytes(head),
        Piece::Zeros(u64::from(v) * 12),
        Piece::Bytes(cgeo::TAG_MESH_VERTICES_END.to_le_bytes().to_vec()),
        Piece::Zeros(u64::from(n) * 12),
        Piece::Bytes(cgeo::TAG_MESH_NORMALS_END.to_le_bytes().to_vec()),
    ];
    for &m in channels {
        pieces.push(Piece::Bytes(m.to_le_bytes().to_vec()));
        pieces.push(Piece::Zeros(u64::from(m) * 12));
    }
    pieces.push(Piece::Bytes(
        cgeo::TAG_MESH_MAP_COORDS_END.to_le_bytes().to_vec(),
    ));
    pieces
}

/// A compressed CGeo of one snapshot whose mesh section is `stream`.
fn cgeo_with_mesh(stream: &[u8]) -> Vec<u8> {
    let seq = |mesh: Mesh| Sequence {
        header: Header {
            snapshots: 1,
            time_per_snapshot_us: 33_333,
            start_us: 0,
            scale: 1.0,
            material: "[none]".into(),
            object: "Bomb".into(),
            compressed: true,
            other: vec![],
        },
        topology_changing: false,
        snapshots: vec![Snapshot {
            complete: true,
            mesh,
            bounding_box: None,
            point_cloud: None,
            unknown: vec![],
            order: vec![],
        }],
    };
    let small = Mesh {
        vertices: vec![[0.0; 3]; 3],
        normals: vec![[0.0; 3]; 3],
        channels: vec![],
        triangles: vec![Triangle {
            vertices: [0, 1, 2],
            normals: [0, 1, 2],
            material: 0,
            edges: 7,
        }],
        map_indices: vec![],
    };
    let file = cgeo::encode(&seq(small)).unwrap();
    // The mesh section: its id, its u64 size, its payload (the only
    // section of the only snapshot).
    let id = cgeo::TAG_MESH_DATA.to_le_bytes();
    let at = file.windows(4).position(|w| w == id).unwrap() + 4;
    let size = u64::from_le_bytes(file[at..at + 8].try_into().unwrap()) as usize;
    let mut out = file[..at].to_vec();
    out.extend_from_slice(&(stream.len() as u64).to_le_bytes());
    out.extend_from_slice(stream);
    out.extend_from_slice(&file[at + 8 + size..]);
    out
}

/// `kiln args` in `p` under an address-space cap of `cap` bytes, its
/// standard output to a file (`stdout.txt` in the project: a table of
/// millions of lines would fill a pipe nobody reads until the end).
fn capped(p: &Project, cap: u64, args: &[&str]) -> Output {
    let mut cmd = Command::new("prlimit");
    cmd.arg(format!("--as={cap}"))
        .args(["--", KILN])
        .args(args)
        .current_dir(p.root());
    run_to_file(p, cmd)
}

/// Runs `cmd` (within [`HANG`]) with its standard output in
/// `stdout.txt`; the output it returns has the standard error.
fn run_to_file(p: &Project, mut cmd: Command) -> Output {
    let out = std::fs::File::create(p.path("stdout.txt")).unwrap();
    let started = std::time::Instant::now();
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(std::process::Stdio::piped())
        .env_remove("CI")
        .spawn()
        .unwrap();
    // Standard error is small: read as it comes, so it never fills.
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut buf).unwrap();
        buf
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Output {
                status,
                stdout: Vec::new(),
                stderr: reader.join().unwrap(),
            };
        }
        assert!(
            started.elapsed() < HANG,
            "timeout: still running after {HANG:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Exit 0, or exit 1 with every error naming a byte; never a signal.
#[track_caller]
fn ends_well(what: &str, o: &Output) {
    let err = stderr(o);
    assert!(
        o.status.signal().is_none(),
        "{what}: killed by signal {:?}: {err}",
        o.status.signal()
    );
    eprintln!(
        "{what}: exit {:?}{}",
        o.status.code(),
        err.lines()
            .find(|l| l.starts_with("error:"))
            .map_or(String::new(), |l| format!(": {l}"))
    );
    match o.status.code() {
        Some(0) => {}
        // A file's byte, or (a build's job) the manifest's line and column.
        Some(1) => assert!(
            err.lines()
                .filter(|l| l.starts_with("error:"))
                .all(|l| l.contains("at byte") || l.starts_with("error: manifests/")),
            "{what}: an error without its place: {err}"
        ),
        code => panic!("{what}: exit {code:?}: {err}"),
    }
}

#[test]
fn the_generator_writes_what_the_encoder_writes() {
    // The stream's layout is the codec's: a small mesh made both ways
    // decodes to the same snapshot.
    let file = cgeo_with_mesh(&zlib(&mesh_pieces(3, 2, &[4])));
    let seq = cgeo::decode(&file).unwrap_or_else(|e| panic!("{e}"));
    let mesh = &seq.snapshots[0].mesh;
    assert_eq!(
        (
            mesh.vertices.len(),
            mesh.normals.len(),
            mesh.channels[0].len()
        ),
        (3, 2, 4)
    );
}

/// A 1 MB CGeo whose zlib mesh section claims 960 MiB (the most vertices,
/// normals and three map channels of the most coordinates: within the 1
/// GiB a section may decode to): `verify`, `inspect` and a pose cache
/// build of it under 512 MiB and 1 GiB end with exit 0 or an error naming
/// the byte. It aborted `verify` under 1 GiB ("memory allocation of …
/// failed", SIGABRT).
#[cfg(target_os = "linux")]
#[test]
fn a_cgeo_whose_section_claims_the_most_never_aborts() {
    let most = cgeo::MAX_ELEMENTS as u32;
    let stream = zlib(&mesh_pieces(most, most, &[most, most, most]));
    let claimed = 5 * u64::from(most) * 12;
    assert!(claimed < cgeo::MAX_SECTION_DECODED_BYTES);
    assert!(
        (stream.len() as u64 + 1) * cgeo::MAX_INFLATE_RATIO > claimed,
        "the stream can inflate to the claim"
    );
    let file = cgeo_with_mesh(&stream);
    assert!(file.len() < 2 << 20, "{}", file.len());
    let p = Project::empty();
    p.write_bytes("sources/bomb.cgeo", &file);
    p.write(
        "manifests/poses.yaml",
        "pose_caches:\n  - id: bomb\n    source: sources/bomb.cgeo\n    shape: point\n",
    );
    for cap in [512u64 << 20, 1 << 30] {
        for args in [
            &["verify", "sources/bomb.cgeo"][..],
            &["inspect", "sources/bomb.cgeo"],
            &["build", "--quiet"],
        ] {
            let o = capped(&p, cap, args);
            ends_well(&format!("{args:?} under {} MiB", cap >> 20), &o);
        }
    }
    // Uncapped, what it holds: snapshot 0's 960 MiB of values, once.
    let (ok, peak) = peak_rss(&p, &["verify", "sources/bomb.cgeo"]);
    assert!(ok);
    assert!(peak < claimed + (64 << 20), "{peak}");
}

/// Whether `kiln args` succeeded uncapped, and its peak RSS in bytes
/// (`/usr/bin/time`'s maximum resident set size).
fn peak_rss(p: &Project, args: &[&str]) -> (bool, u64) {
    let mut cmd = Command::new("/usr/bin/time");
    cmd.args(["-f", "peak RSS %M KiB", "--", KILN])
        .args(args)
        .current_dir(p.root());
    let o = run_to_file(p, cmd);
    let err = stderr(&o);
    let kib: u64 = err
        .lines()
        .filter_map(|l| l.strip_prefix("peak RSS "))
        .filter_map(|l| l.strip_suffix(" KiB"))
        .next_back()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no peak RSS in {err}"));
    eprintln!(
        "{args:?} uncapped: peak RSS {} MiB{}",
        kib >> 10,
        err.lines()
            .find(|l| l.starts_with("error:"))
            .map_or(String::new(), |l| format!(": {l}"))
    );
    (o.status.success(), kib << 10)
}

/// A CGeo of more sections than kiln indexes (8,388,609 empty unknown
/// sections in one snapshot: a 100 MB file) is refused at the first one
/// past the limit, its index of sections never more than 8,388,608
/// entries (201 MB) and allocated fallibly: under the 512 MiB cap, exit 1
/// naming the byte.
#[cfg(target_os = "linux")]
#[test]
fn a_cgeo_of_more_sections_than_kiln_indexes_is_refused() {
    let small = cgeo_with_mesh(&zlib(&mesh_pieces(3, 3, &[])));
    let seq = cgeo::decode(&small).unwrap();
    let plain = cgeo::encode(&Sequence {
        header: Header {
            compressed: false,
            ..seq.header.clone()
        },
        ..seq
    })
    .unwrap();
    let end = cgeo::TAG_ANIMATION_SNAPSHOT_END.to_le_bytes();
    let at = plain.windows(4).rposition(|w| w == end).unwrap();
    let n = cgeo::MAX_SECTIONS + 1;
    let mut file = Vec::with_capacity(plain.len() + 12 * n as usize);
    file.extend_from_slice(&plain[..at]);
    for k in 0..n as u32 {
        // Ids no known section has.
        file.extend_from_slice(&(0x1000_0000 + k).to_le_bytes());
        file.extend_from_slice(&0u64.to_le_bytes());
    }
    file.extend_from_slice(&plain[at..]);
    let p = Project::empty();
    p.write_bytes("sources/many.cgeo", &file);
    drop(file);
    let o = capped(&p, 512 << 20, &["verify", "sources/many.cgeo"]);
    ends_well("verify of 8,388,609 sections", &o);
    let err = stderr(&o);
    // The mesh section is the first: the inserted one past the limit is
    // number MAX_SECTIONS - 1 (from 0).
    let past = at + 12 * (cgeo::MAX_SECTIONS as usize - 1);
    assert!(
        err.contains(&format!(
            "at byte {past}, snapshot 0: the file has more than 8388608 sections"
        )),
        "{err}"
    );
}

/// A GGUF whose one metadata string is 900 MB (within the codec's 1 GiB
/// string limit; the bytes are all in the file) is refused by the limit
/// that applies, the 256 MiB kiln reads of a header, at its byte: it was
/// "need more than the 268435410 bytes left", a false reason. Under the
/// 512 MiB cap.
#[cfg(target_os = "linux")]
#[test]
fn a_gguf_header_past_what_kiln_reads_is_refused_by_that_limit() {
    use std::io::{Seek, SeekFrom, Write};
    let p = Project::empty();
    let path = p.path("long.gguf");
    let mut f = std::fs::File::create(&path).unwrap();
    let mut head = b"GGUF".to_vec();
    head.extend_from_slice(&3u32.to_le_bytes());
    head.extend_from_slice(&0u64.to_le_bytes()); // tensors
    head.extend_from_slice(&1u64.to_le_bytes()); // metadata entries
    head.extend_from_slice(&(b"long".len() as u64).to_le_bytes());
    head.extend_from_slice(b"long");
    head.extend_from_slice(&8u32.to_le_bytes()); // STRING
    let len: u64 = 900_000_000;
    head.extend_from_slice(&len.to_le_bytes());
    f.write_all(&head).unwrap();
    // The string's bytes: zeros, present (a sparse file).
    f.seek(SeekFrom::Start(head.len() as u64 + len - 1))
        .unwrap();
    f.write_all(&[0]).unwrap();
    drop(f);
    for args in [&["verify", "long.gguf"][..], &["inspect", "long.gguf"]] {
        let o = capped(&p, 512 << 20, args);
        ends_well(&format!("{args:?}"), &o);
        let err = stderr(&o);
        assert!(
            err.contains("invalid GGUF: at byte 268435456: the header (metadata and tensor descriptions) runs past the 268435456 bytes kiln reads of a GGUF header"),
            "{err}"
        );
    }
}

/// A safetensors file of `n` zero-size tensors (`t0000000`...): about 60
/// bytes of header each, no data.
fn zero_size_safetensors(n: usize) -> Vec<u8> {
    let mut json = String::with_capacity(n * 60 + 2);
    json.push('{');
    for i in 0..n {
        if i > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            "\"t{i:07}\":{{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}"
        ));
    }
    json.push('}');
    while !json.len().is_multiple_of(8) {
        json.push(' ');
    }
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(json.as_bytes());
    out
}

/// 1.5 million zero-size tensors, a 90 MB header within the 100,000,000
/// bytes the format allows: verify, inspect (text and --json) and a
/// generic conversion of it under 512 MiB and 1 GiB end with exit 0 or an
/// error naming its place. They aborted (a build under 1 GiB, verify under
/// 512 MiB); uncapped, verify held 635 MB and inspect 3.7 GB.
#[cfg(target_os = "linux")]
#[test]
fn a_safetensors_header_of_a_million_tensors_never_aborts() {
    let file = zero_size_safetensors(1_500_000);
    assert!(file.len() as u64 <= 8 + kiln::formats::safetensors::MAX_HEADER_BYTES);
    let p = Project::empty();
    p.write_bytes("sources/zero.safetensors", &file);
    drop(file);
    p.write(
        "manifests/m.yaml",
        "model_bundles:\n  - id: z\n    profile: generic\n    source: sources/zero.safetensors\n    architecture: t\n",
    );
    for cap in [512u64 << 20, 1 << 30] {
        for args in [
            &["verify", "sources/zero.safetensors"][..],
            &["inspect", "sources/zero.safetensors"],
            &["inspect", "--json", "sources/zero.safetensors"],
            &["build", "--quiet"],
        ] {
            let o = capped(&p, cap, args);
            ends_well(&format!("{args:?} under {} MiB", cap >> 20), &o);
            if cap == 1 << 30 {
                assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            }
            let _ = std::fs::remove_dir_all(p.path("out"));
        }
    }
    for args in [
        &["verify", "sources/zero.safetensors"][..],
        &["inspect", "--json", "sources/zero.safetensors"],
        &["build", "--quiet"],
    ] {
        let (ok, peak) = peak_rss(&p, args);
        assert!(ok, "{args:?}");
        // The header's 90 MB is read whole; the table beside it is small.
        let most: u64 = if args[0] == "build" { 800 } else { 256 };
        assert!(peak < most << 20, "{args:?}: {peak}");
        let _ = std::fs::remove_dir_all(p.path("out"));
    }
}

/// A GGUF header of `n` zero-size F32 tensors named by number.
fn zero_size_gguf(n: u64) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend_from_slice(&3u32.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    for i in 0..n {
        let name = format!("{i:07}");
        out.extend_from_slice(&(name.len() as u64).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
    }
    while !out.len().is_multiple_of(32) {
        out.push(0);
    }
    out
}

/// 3 million zero-size tensors (a 117 MB header) are read, held compactly
/// (names in one string, dimensions inline): verify, inspect and inspect
/// --json under 512 MiB succeed (they aborted, and 6.5 million took 1.64
/// GB uncapped); more than `gguf::MAX_TENSORS` is refused at the count.
#[cfg(target_os = "linux")]
#[test]
fn a_gguf_of_millions_of_tensors_never_aborts() {
    let p = Project::empty();
    p.write_bytes("three.gguf", &zero_size_gguf(3_000_000));
    for args in [
        &["verify", "three.gguf"][..],
        &["inspect", "three.gguf"],
        &["inspect", "--json", "three.gguf"],
    ] {
        let o = capped(&p, 512 << 20, args);
        ends_well(&format!("{args:?}"), &o);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    let (ok, peak) = peak_rss(&p, &["verify", "three.gguf"]);
    assert!(ok && peak < 512 << 20, "{peak}");
    let over = kiln::formats::gguf::MAX_TENSORS + 1;
    let mut head = zero_size_gguf(0);
    head.truncate(24);
    head[8..16].copy_from_slice(&over.to_le_bytes());
    p.write_bytes("over.gguf", &head);
    let o = capped(&p, 512 << 20, &["verify", "over.gguf"]);
    ends_well("too many tensors", &o);
    assert!(
        stderr(&o).contains(&format!(
            "at byte 8: {over} tensors, more than the 4194304 kiln reads"
        )),
        "{}",
        stderr(&o)
    );
}

/// The largest QOI the format allows (400 million pixels) from the fewest
/// bytes (runs of 62: 6.5 MB): verify and inspect under 512 MiB end with
/// an error naming the byte (the pixels need 1.6 GB) or succeed, never an
/// abort; the same under 1 GiB.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_qoi_from_the_fewest_bytes_never_aborts() {
    let (w, h) = (20_000u32, 20_000u32);
    let total = u64::from(w) * u64::from(h);
    assert_eq!(total, kiln::formats::qoi::MAX_PIXELS);
    let mut file = b"qoif".to_vec();
    file.extend_from_slice(&w.to_be_bytes());
    file.extend_from_slice(&h.to_be_bytes());
    file.extend_from_slice(&[4, 0]);
    let full = total / 62;
    file.extend(std::iter::repeat_n(0xfdu8, full as usize));
    let rest = total - full * 62;
    if rest > 0 {
        file.push(0xc0 + (rest - 1) as u8);
    }
    file.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1]);
    let p = Project::empty();
    p.write_bytes("big.qoi", &file);
    for cap in [512u64 << 20, 1 << 30] {
        for args in [&["verify", "big.qoi"][..], &["inspect", "big.qoi"]] {
            let o = capped(&p, cap, args);
            ends_well(&format!("{args:?} under {} MiB", cap >> 20), &o);
        }
    }
}

/// A pose cache as large as the format allows (about 256 MiB: 65,536 entities,
/// 145 frames): `verify` and `inspect` under 512 MiB hold the file and its
/// poses (twice the file) and end with exit 0 or an error at the byte where
/// the poses begin, never an abort; under 1 GiB, read.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_pose_cache_never_aborts() {
    use kiln::formats::ospc::{self, Entity, Pose, PoseCache, Shape};
    let entities = ospc::MAX_ENTITIES as usize;
    let frames = 145;
    let cache = PoseCache {
        dimensions: 3,
        start_step: 0,
        metres_per_unit: 1.0,
        unit_name: "metre".into(),
        module_id: "kiln".into(),
        library_version: "test".into(),
        scene: "s".into(),
        replay: String::new(),
        label: "largest".into(),
        entities: (0..entities)
            .map(|e| Entity {
                id: e as u64 + 1,
                shape: Shape::Point,
                size: [0.0; 3],
                name: format!("e{e}"),
            })
            .collect(),
        poses: vec![
            Pose {
                position: [1.0, 2.0, 3.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
            };
            entities * frames
        ],
    };
    let bytes = ospc::encode(&cache).unwrap();
    drop(cache);
    assert!(bytes.len() <= ospc::MAX_FILE_BYTES && bytes.len() > ospc::MAX_FILE_BYTES - (8 << 20));
    let p = Project::empty();
    p.write_bytes("big.ospc", &bytes);
    drop(bytes);
    for cap in [512u64 << 20, 1 << 30] {
        for args in [&["verify", "big.ospc"][..], &["inspect", "big.ospc"]] {
            let o = capped(&p, cap, args);
            ends_well(&format!("{args:?} under {} MiB", cap >> 20), &o);
            if cap == 1 << 30 {
                assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            }
        }
    }
}

/// A MotionBricks replay near the format's 256 MiB (256 joints, 1,024
/// qpos values, 37,000 frames) under 512 MiB and 1 GiB: exit 0, or an
/// error at the byte of the values that could not be held, never an abort.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_replay_never_aborts() {
    use kiln::formats::mbreplay::{self, Replay};
    let (frames, joints, qpos) = (37_000usize, 256usize, 1024u32);
    let replay = Replay {
        fps: 30,
        parents: (0..joints as i32).map(|j| j - 1).collect(),
        modes: vec![0; frames],
        active_plan: vec![-1; frames],
        qpos_count: qpos,
        qpos: vec![0.5; frames * qpos as usize],
        positions: vec![[0.0, 1.0, 0.0]; frames * joints],
        plans: vec![],
    };
    let bytes = mbreplay::encode(&replay).unwrap_or_else(|e| panic!("{e}"));
    drop(replay);
    assert!(bytes.len() <= mbreplay::MAX_FILE_BYTES && bytes.len() > 200 << 20);
    let p = Project::empty();
    p.write_bytes("big.mbreplay", &bytes);
    drop(bytes);
    for cap in [512u64 << 20, 1 << 30] {
        for args in [
            &["verify", "big.mbreplay"][..],
            &["inspect", "big.mbreplay"],
        ] {
            let o = capped(&p, cap, args);
            ends_well(&format!("{args:?} under {} MiB", cap >> 20), &o);
        }
    }
}

/// The largest style the runtime allows (100,000 frames, 165 MB) under
/// 512 MiB and 1 GiB: exit 0, or an error naming its byte, never an abort.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_style_never_aborts() {
    let style = crate::synth::style("long", kiln::formats::mbstyle::MAX_FRAMES, (6, 11));
    let bytes = kiln::formats::mbstyle::encode(&style).unwrap();
    drop(style);
    let p = Project::empty();
    p.write_bytes("long.mbstyle", &bytes);
    drop(bytes);
    for cap in [512u64 << 20, 1 << 30] {
        for args in [
            &["verify", "long.mbstyle"][..],
            &["inspect", "long.mbstyle"],
        ] {
            let o = capped(&p, cap, args);
            ends_well(&format!("{args:?} under {} MiB", cap >> 20), &o);
        }
    }
}

/// The largest compiled characters the format allows, near its 64 MiB:
/// eight models of the most vertices and indices, eight banks of the most
/// keys, and an atlas of noise (QOI's worst bytes a pixel), through
/// `verify` and `inspect` (text and JSON) under 512 MiB and 1 GiB: exit 0,
/// or an error naming its byte, never an abort.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_compiled_characters_never_abort() {
    use kiln::formats::kchr::{self, Bank, Clip, Document, Image, Model, Node, Path, Track};
    use kiln::formats::qoi;
    let node = |name: &str, parent: Option<u32>| Node {
        name: name.into(),
        parent,
        translation: [0.0, 0.5, 0.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    };
    let mut identity = [0.0f32; 16];
    for i in 0..4 {
        identity[5 * i] = 1.0;
    }
    let image = |width: u32, height: u32, seed: u32| {
        // An xorshift's bytes: no run, no index hit, no small difference.
        let mut s = seed | 1;
        let mut rgba = Vec::with_capacity((width * height * 4) as usize);
        for _ in 0..width * height {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let [r, g, b, _] = s.to_le_bytes();
            rgba.extend_from_slice(&[r, g, b, 255]);
        }
        let header = qoi::Header {
            width,
            height,
            channels: qoi::Channels::Rgba,
            colorspace: qoi::Colorspace::Srgb,
        };
        Image {
            width,
            height,
            qoi: qoi::encode(&qoi::Image { header, rgba }).unwrap(),
        }
    };
    let vertices = kchr::MAX_VERTICES;
    let models = (0..kchr::MAX_MODELS as u32)
        .map(|m| Model {
            id: format!("m{m}"),
            bank: m,
            nodes: vec![node("root", None), node("hip", Some(0))],
            mesh_node: 0,
            joints: vec![1],
            inverse_bind: vec![identity],
            vertices: (0..vertices)
                .map(|v| {
                    let (x, y) = ((v % 256) as f32 / 256.0, (v / 256) as f32 / 256.0);
                    [
                        x, y, 0.0, 0.0, 0.0, 1.0, x, y, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0,
                    ]
                })
                .collect(),
            indices: (0..kchr::MAX_INDICES)
                .map(|i| ((i / 3 + i % 3) % vertices) as u16)
                .collect(),
            image: if m == 0 {
                image(2048, 1024, 7)
            } else {
                image(2, 2, m)
            },
        })
        .collect();
    let keys = kchr::MAX_KEYS;
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let banks = (0..kchr::MAX_BANKS)
        .map(|b| Bank {
            id: format!("b{b}"),
            clips: vec![Clip {
                name: "walk".into(),
                duration_s: keys as f32 / 1000.0,
                tracks: vec![Track {
                    node: "hip".into(),
                    path: Path::Rotation,
                    step: false,
                    times_s: (0..keys).map(|k| k as f32 / 1000.0).collect(),
                    values: (0..keys)
                        .flat_map(|k| {
                            if k % 2 == 0 {
                                [0.0, 0.0, 0.0, 1.0]
                            } else {
                                [0.0, 0.0, half, half]
                            }
                        })
                        .collect(),
                }],
            }],
        })
        .collect();
    let doc = Document { models, banks };
    let problems = kchr::validate(&doc);
    assert!(problems.is_empty(), "{problems:?}");
    let bytes = kchr::encode(&doc).unwrap();
    drop(doc);
    assert!(
        bytes.len() > 60 << 20 && bytes.len() <= kchr::MAX_BYTES,
        "{} bytes",
        bytes.len()
    );
    let p = Project::empty();
    p.write_bytes("levels/big/@world/characters", &bytes);
    drop(bytes);
    let entry = "levels/big/@world/characters";
    for cap in [512u64 << 20, 1 << 30] {
        for args in [
            &["verify", entry][..],
            &["inspect", entry],
            &["inspect", "--json", entry],
        ] {
            let o = capped(&p, cap, args);
            ends_well(&format!("{args:?} under {} MiB", cap >> 20), &o);
        }
    }
    let (ok, peak) = peak_rss(&p, &["verify", entry]);
    assert!(ok && peak < 256 << 20, "{peak}");
}

/// The most a meshopt-compressed glTF may ask for: one `ATTRIBUTES` view
/// decoding to `meshopt::MAX_DECODED_BYTES` (1 GiB of positions, 89 million
/// vertices) from zeros, the payload meshoptimizer compresses best, through
/// `verify` and `inspect` under 512 MiB and 1 GiB: exit 0, or an error
/// naming the file and the view, never an abort.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_meshopt_view_never_aborts() {
    use kiln::import::gltf::MAX_DECODED_BYTES;
    let stride = 12usize;
    // Whole triangles: the view a little under the limit.
    let count = MAX_DECODED_BYTES / stride / 3 * 3;
    let stream = {
        // Zeroed (calloc'd) pages: a GiB the test never touches but reads.
        let zeros = vec![[0.0f32; 3]; count];
        meshopt::encode_vertex_buffer(&zeros).unwrap()
    };
    let length = count * stride;
    eprintln!("{} compressed bytes for {length}", stream.len());
    let json = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["EXT_meshopt_compression"],
        "extensionsRequired": ["EXT_meshopt_compression"],
        "buffers": [
            {"byteLength": stream.len()},
            {"byteLength": length, "extensions": {"EXT_meshopt_compression": {"fallback": true}}}
        ],
        "bufferViews": [{
            "buffer": 1, "byteLength": length, "byteStride": stride,
            "extensions": {"EXT_meshopt_compression": {
                "buffer": 0, "byteLength": stream.len(), "byteStride": stride,
                "count": count, "mode": "ATTRIBUTES"
            }}
        }],
        "accessors": [{
            "bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3",
            "min": [0, 0, 0], "max": [0, 0, 0]
        }],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    });
    let p = Project::empty();
    p.write_bytes("big.glb", &crate::gltf_support::make_glb(&json, &stream));
    drop(stream);
    for cap in [512u64 << 20, 1 << 30] {
        for args in [&["verify", "big.glb"][..], &["inspect", "big.glb"]] {
            let what = format!("{args:?} under {} MiB", cap >> 20);
            let o = capped(&p, cap, args);
            let err = stderr(&o);
            assert!(o.status.signal().is_none(), "{what}: {err}");
            eprintln!("{what}: exit {:?}: {}", o.status.code(), err.trim());
            match o.status.code() {
                Some(0) => {}
                Some(1) => assert!(
                    err.contains("big.glb") && err.contains("bufferViews[0]"),
                    "{what}: an error without its place: {err}"
                ),
                code => panic!("{what}: exit {code:?}: {err}"),
            }
        }
    }
    // Uncapped, the view is decoded and its accessor read once; reading
    // it again passes the asset's sum of accessor values, refused.
    let (ok, peak) = peak_rss(&p, &["verify", "big.glb"]);
    assert!(!ok && peak < 5 << 29, "{peak}");
}

/// A 300-byte GLB whose positions (12 million VEC3 zeros without a buffer
/// view, 144 MB) each copy the import makes of them could abort: the
/// accessor's bytes and their floats fit under these caps, the vertices
/// made of them did not (an abort at 300 to 400 MiB before; the mesh's
/// own copies, colours, joints, strips and fans are asked for fallibly
/// now). Exit 0, or an error naming the attribute's byte, never a signal.
#[cfg(target_os = "linux")]
#[test]
fn the_mesh_importers_copies_never_abort() {
    let n = 12_000_000u64;
    let json = json!({
        "asset": {"version": "2.0"},
        "accessors": [{"componentType": 5126, "count": n, "type": "VEC3", "min": [0, 0, 0], "max": [0, 0, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    });
    let p = Project::empty();
    p.write_bytes("big.glb", &crate::gltf_support::make_glb(&json, &[]));
    for cap in [300u64 << 20, 350 << 20, 400 << 20, 512 << 20] {
        let o = capped(&p, cap, &["verify", "big.glb"]);
        ends_well(&format!("verify under {} MiB", cap >> 20), &o);
    }
}

/// A Draco stream made by DracoPy (`tests/oracles/draco_streams.py`):
/// its bytes, and the points and triangles it decodes to.
fn draco_stream(p: &Project, kind: &str, count: u32) -> (Vec<u8>, u64, u64) {
    let out = p.path(&format!("{kind}.drc"));
    let o = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/oracles/draco_streams.py"
        ))
        .args([kind, &count.to_string()])
        .arg(&out)
        .output()
        .expect("python3 (the full tier puts its venv, with DracoPy, first on the PATH)");
    assert!(o.status.success(), "draco_streams.py: {}", stderr(&o));
    let counts = String::from_utf8(o.stdout).unwrap();
    let mut counts = counts.split_whitespace().map(|n| n.parse().unwrap());
    let (points, faces) = (counts.next().unwrap(), counts.next().unwrap());
    (std::fs::read(&out).unwrap(), points, faces)
}

/// A GLB of one Draco primitive (positions and triangles) over `stream`,
/// its accessors declaring `points` and `faces`.
fn draco_glb(stream: &[u8], points: u64, faces: u64) -> Vec<u8> {
    let mut json = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_draco_mesh_compression"],
        "extensionsRequired": ["KHR_draco_mesh_compression"],
        "buffers": [{"byteLength": stream.len()}],
        "bufferViews": [{"buffer": 0, "byteLength": stream.len()}],
        "accessors": [
            {"componentType": 5126, "count": points, "type": "VEC3", "min": [0, 0, 0], "max": [1000, 1000, 0]},
            {"componentType": 5125, "count": faces * 3, "type": "SCALAR"}
        ],
        "meshes": [{"primitives": [{
            "attributes": {"POSITION": 0}, "indices": 1,
            "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 0}}}
        }]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    });
    if faces == 0 {
        // No indices accessor: nothing in the JSON counts the triangles.
        json["meshes"][0]["primitives"][0]
            .as_object_mut()
            .unwrap()
            .remove("indices");
        json["accessors"].as_array_mut().unwrap().pop();
    }
    crate::gltf_support::make_glb(&json, stream)
}

/// draco-core allocates inside itself with allocations that abort; kiln
/// asks for more than its measured peak first (`memory::probe`). The
/// best-compressing streams DracoPy makes, a flat grid (267 KB: 1,000,000
/// points, 1,996,002 triangles: the most triangles a byte) and a triangle
/// soup (19 KB: 999,999 points: the most points a triangle), under every
/// cap from 16 MiB to 200 MiB in 4 MiB steps: exit 0, or an error naming
/// the byte, never a signal (before the probe, aborts inside draco-core
/// from 72 to 136 MiB). Then the grid's stream under JSON that declares
/// the most the asset's sum of values allows, and without an indices
/// accessor: refused by the probe or by the counts, never decoded whole.
#[cfg(target_os = "linux")]
#[test]
fn the_best_compressing_draco_streams_never_abort() {
    let p = Project::empty();
    for (kind, count) in [("grid", 1000), ("soup", 333_333)] {
        let (stream, points, faces) = draco_stream(&p, kind, count);
        eprintln!(
            "{kind}: {} bytes, {points} points, {faces} triangles",
            stream.len()
        );
        let name = format!("{kind}.glb");
        p.write_bytes(&name, &draco_glb(&stream, points, faces));
        let mut decoded = false;
        for cap in (16u64..=200).step_by(4) {
            let o = capped(&p, cap << 20, &["verify", &name]);
            ends_well(&format!("{kind}: verify under {cap} MiB"), &o);
            decoded |= o.status.success();
        }
        assert!(decoded, "{kind}: never decoded under 200 MiB");
        let o = capped(&p, 64 << 20, &["inspect", &name]);
        ends_well(&format!("{kind}: inspect under 64 MiB"), &o);
        let (ok, peak) = peak_rss(&p, &["verify", &name]);
        assert!(ok && peak < 200 << 20, "{kind}: {peak}");
        if kind == "grid" {
            // The JSON claims the most the asset's 2^28 values allow
            // (3 a point, 6 a point in triangles).
            let claimed = (kiln::import::gltf::MAX_ASSET_VALUES / 9) as u64;
            p.write_bytes("claims.glb", &draco_glb(&stream, claimed, claimed * 2));
            for cap in [256u64 << 20, 1 << 30] {
                let o = capped(&p, cap, &["verify", "claims.glb"]);
                ends_well(&format!("claims: verify under {} MiB", cap >> 20), &o);
                assert_eq!(o.status.code(), Some(1));
            }
            let (ok, peak) = peak_rss(&p, &["verify", "claims.glb"]);
            assert!(!ok && peak < 200 << 20, "claims: {peak}");
            // Without an indices accessor, what is left of the asset's sum
            // bounds the triangles, and the probe asks for that many.
            p.write_bytes("unindexed.glb", &draco_glb(&stream, points, 0));
            for cap in [256u64 << 20, 1 << 30] {
                let o = capped(&p, cap, &["verify", "unindexed.glb"]);
                ends_well(&format!("unindexed: verify under {} MiB", cap >> 20), &o);
            }
        }
    }
}

/// zune-jpeg allocates its working memory inside itself (a progressive
/// JPEG's every coefficient), and the atlas filter holds a region's width
/// by the image's height: 8192² JPEGs of a solid colour as Pillow writes
/// them (baseline 1 MB, progressive 394 KB), painted into an atlas by
/// `inspect --atlas-png` under every cap from 64 to 520 MiB in 16 MiB
/// steps (1 MiB steps by hand): exit 0, or an error at the image's byte,
/// never a signal (before, aborts inside zune-jpeg from 288 to 448 MiB and
/// in the atlas filter from 288 to 320).
#[cfg(target_os = "linux")]
#[test]
fn the_largest_jpegs_never_abort_decoding_or_painting() {
    let p = Project::empty();
    for mode in ["baseline", "progressive"] {
        let out = p.path(&format!("{mode}.jpg"));
        let o = Command::new("python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/oracles/solid_jpeg.py"
            ))
            .args(["8192", mode])
            .arg(&out)
            .output()
            .expect("python3 (the full tier puts its venv, with Pillow, first on the PATH)");
        assert!(o.status.success(), "solid_jpeg.py: {}", stderr(&o));
        let name = format!("{mode}.glb");
        p.write_bytes(
            &name,
            &crate::budgets::textured_glb(&[std::fs::read(&out).unwrap()]),
        );
        let mut painted = false;
        for cap in (64u64..=520).step_by(16) {
            let o = capped(
                &p,
                cap << 20,
                &["inspect", "--atlas-png", "atlas.png", &name],
            );
            ends_well(&format!("{mode}: inspect --atlas-png under {cap} MiB"), &o);
            painted |= o.status.success();
        }
        assert!(painted, "{mode}: never painted under 520 MiB");
        let (ok, peak) = peak_rss(&p, &["inspect", "--atlas-png", "atlas.png", &name]);
        assert!(ok && peak < 520 << 20, "{mode}: {peak}");
    }
}
