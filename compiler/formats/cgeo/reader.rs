//! [`Reader`]: the header, then each snapshot's sections walked and one
//! snapshot decoded at a time, from any [`Source`] of bytes at offsets.

use std::borrow::Cow;

use crate::formats::cursor::{self, Cursor};
use crate::memory;

use super::header::read_header;
use super::payload::{Payload, Stored, inflate_section};
use super::{
    Error, Header, MAX_ELEMENTS, MAX_FILE_BYTES, MAX_HEADER_BYTES, MAX_MAP_CHANNELS, MAX_SECTIONS,
    MAX_SNAPSHOTS, Mesh, Rule, Snapshot, TAG_ANIM_TABLE_END, TAG_ANIM_TABLE_START,
    TAG_ANIMATION_SNAPSHOT_END, TAG_ANIMATION_SNAPSHOT_START, TAG_BOUNDING_BOX, TAG_MESH_DATA,
    TAG_MESH_MAP_COORDS_END, TAG_MESH_NORMALS_END, TAG_MESH_VERTICES_END, TAG_POINTCLOUD,
    TOPOLOGY_CHANGING, Triangle,
};

/// Where a snapshot's sections are: (id, payload start, payload length).
#[derive(Clone, Debug)]
struct SectionAt {
    id: u32,
    start: usize,
    len: usize,
}

/// Where a [`Reader`] gets its bytes: a byte slice (a file held in
/// memory), or the pipeline's positional reads of a file (then a job's
/// memory is one snapshot's, whatever the file's size).
pub trait Source {
    /// The file's length in bytes.
    fn size(&self) -> u64;
    /// The `len` bytes at `offset`; the reader asks only for bytes inside
    /// the file.
    fn read(&mut self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, SourceFailed>;
    /// A hint: the reader will soon ask for bytes inside `len` bytes at
    /// `offset` (the next snapshot's sections, while it decodes this one).
    /// A source may start reading them; what `read` gives is the same.
    fn will_read(&mut self, _offset: u64, _len: usize) {}
}

/// A [`Source`] could not give its bytes; the source keeps its own error
/// (the reader's error says where it was reading: [`Rule::Source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceFailed;

impl<T: Source + ?Sized> Source for &mut T {
    fn size(&self) -> u64 {
        (**self).size()
    }

    fn read(&mut self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, SourceFailed> {
        (**self).read(offset, len)
    }

    fn will_read(&mut self, offset: u64, len: usize) {
        (**self).will_read(offset, len);
    }
}

impl Source for &[u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }

    fn read(&mut self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, SourceFailed> {
        let start = usize::try_from(offset).map_err(|_| SourceFailed)?;
        let end = start.checked_add(len).ok_or(SourceFailed)?;
        self.get(start..end).map(Cow::Borrowed).ok_or(SourceFailed)
    }
}

/// A CGeo file opened for reading, snapshot by snapshot.
pub struct Reader<S> {
    source: S,
    header: Header,
    topology_changing: bool,
    sections: Vec<Vec<SectionAt>>,
    /// Snapshot 0, decoded once.
    first: Snapshot,
    keep_unknown: bool,
}

impl<S: Source> Reader<S> {
    /// Reads the header, flags and offset table, walks every snapshot's
    /// sections (checking the table against them) and decodes snapshot 0.
    /// Reads from `source` only what that needs: the header and table, 12
    /// bytes per section, and snapshot 0's sections.
    pub fn new(source: S) -> Result<Reader<S>, Error> {
        Reader::open(source, true)
    }

    /// The same, keeping unknown sections' payloads in
    /// [`Snapshot::unknown`] or not: without, they are skipped unread (in a
    /// compressed file, but for the two bytes of their zlib header).
    pub fn open(mut source: S, keep_unknown: bool) -> Result<Reader<S>, Error> {
        let total = source.size();
        if total > MAX_FILE_BYTES {
            return Err(Error::at(0, Rule::FileTooLarge(total)));
        }
        let (header, flags, table, data) = read_prefix(&mut source, total)?;
        let n = table.len();
        let table_at = data + 8;
        let mut c = Walk {
            source: &mut source,
            pos: table_at as u64 + 8 * n as u64,
            total,
        };
        c.tag("TAG_ANIM_TABLE_END", TAG_ANIM_TABLE_END)?;
        // (At most MAX_SNAPSHOTS entries: read_prefix checked the count.)
        let mut sections = Vec::with_capacity(n);
        let mut total = 0u64;
        for (k, &entry) in table.iter().enumerate() {
            let start = c.pos as usize;
            c.tag("TAG_ANIMATION_SNAPSHOT_START", TAG_ANIMATION_SNAPSHOT_START)
                .map_err(|e| e.in_snapshot(k))?;
            if entry != c.pos {
                return Err(Error::at(
                    table_at + 8 * k,
                    Rule::OffsetTable {
                        entry: k,
                        found: entry,
                        want: c.pos,
                    },
                ));
            }
            let list = walk_sections(&mut c, &mut total).map_err(|e| e.in_snapshot(k))?;
            if !list.iter().any(|s| s.id == TAG_MESH_DATA) {
                return Err(Error::at(start, Rule::NoMeshData).in_snapshot(k));
            }
            sections.push(list);
        }
        c.finish("CGeo file")?;
        let topology_changing = flags & TOPOLOGY_CHANGING != 0;
        let mut reader = Reader {
            source,
            header,
            topology_changing,
            sections,
            first: Snapshot::default(),
            keep_unknown,
        };
        reader.first = reader.snapshot(0)?;
        Ok(reader)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn topology_changing(&self) -> bool {
        self.topology_changing
    }

    pub fn len(&self) -> usize {
        self.sections.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sections.is_empty()
    }

    /// Snapshot 0's mesh (whose topology difference snapshots share).
    pub fn first(&self) -> &Mesh {
        &self.first.mesh
    }

    /// Snapshot 0 whole (its bounds, cloud and sections too), as
    /// `snapshot(0)` gives it.
    pub fn first_snapshot(&self) -> &Snapshot {
        &self.first
    }

    /// The source, given back.
    pub fn into_source(self) -> S {
        self.source
    }

    /// Decodes snapshot `k` (absolute values), reading its sections.
    pub fn snapshot(&mut self, k: usize) -> Result<Snapshot, Error> {
        let Reader {
            source,
            header,
            topology_changing,
            sections,
            first,
            keep_unknown,
        } = self;
        let Some(list) = sections.get(k) else {
            return Err(Error::at(
                source.size() as usize,
                Rule::Invalid(format!("no snapshot {k} ({} snapshots)", sections.len())),
            ));
        };
        // The next snapshot's sections, one span, for a source that can
        // read them while this one is decoded.
        if let Some(next) = sections.get(k + 1)
            && let (Some(a), Some(b)) = (
                next.iter().map(|s| s.start).min(),
                next.iter().map(|s| s.start + s.len).max(),
            )
        {
            source.will_read(a as u64, b - a);
        }
        let mut snap = Snapshot {
            order: list.iter().map(|s| s.id).collect(),
            ..Snapshot::default()
        };
        for s in list {
            let fail = |rule: Rule, at: (usize, Option<usize>)| Error {
                offset: (s.start + if header.compressed { 0 } else { at.0 }) as u64,
                snapshot: Some(k),
                section: Some(s.id),
                inflated: at.1,
                rule,
            };
            let known = matches!(s.id, TAG_MESH_DATA | TAG_BOUNDING_BOX | TAG_POINTCLOUD);
            let want = if known || *keep_unknown {
                s.len
            } else if header.compressed {
                s.len.min(2)
            } else {
                0
            };
            let stored = source
                .read(s.start as u64, want)
                .map_err(|_| fail(Rule::Source, (0, None)))?;
            if !known {
                // Kept as stored; not inflated (nothing bounds what it
                // holds), but a compressed file's must be a zlib stream.
                if header.compressed {
                    inflate_section(&stored).map_err(|r| fail(r, (0, None)))?;
                }
                if *keep_unknown {
                    snap.unknown.push((s.id, stored.into_owned()));
                }
                continue;
            }
            let mut p = if header.compressed {
                inflate_section(&stored).map_err(|r| fail(r, (0, None)))?
            } else {
                Payload::of(Stored::Plain {
                    bytes: &stored,
                    pos: 0,
                })
            };
            let result = match s.id {
                TAG_MESH_DATA => {
                    mesh(k, *topology_changing, &first.mesh, &mut p).map(|(complete, mesh)| {
                        snap.complete = complete;
                        snap.mesh = mesh;
                    })
                }
                TAG_BOUNDING_BOX => bounding_box(&mut p).map(|b| snap.bounding_box = Some(b)),
                _ => point_cloud(&mut p).map(|c| snap.point_cloud = Some(c)),
            };
            result
                .and_then(|()| p.finish())
                .map_err(|r| fail(r, p.pos()))?;
        }
        Ok(snap)
    }
}

impl<S: Source> Walk<'_, S> {
    fn take<const N: usize>(&mut self, what: &str) -> Result<[u8; N], Error> {
        let have = self.total - self.pos;
        if (N as u64) > have {
            return Err(cursor::Error::Truncated {
                offset: (self.pos as usize) as u64,
                what: what.to_string(),
                need: N as u64,
                have: have as usize,
            }
            .into());
        }
        let at = self.pos as usize;
        let bytes = self
            .source
            .read(self.pos, N)
            .map_err(|_| Error::at(at, Rule::Source))?;
        let out: [u8; N] = bytes
            .as_ref()
            .try_into()
            .map_err(|_| Error::at(at, Rule::Source))?;
        self.pos += N as u64;
        Ok(out)
    }

    fn u32(&mut self, what: &str) -> Result<u32, Error> {
        self.take::<4>(what).map(u32::from_le_bytes)
    }

    fn u64(&mut self, what: &str) -> Result<u64, Error> {
        self.take::<8>(what).map(u64::from_le_bytes)
    }

    fn tag(&mut self, what: &'static str, want: u32) -> Result<(), Error> {
        let at = self.pos as usize;
        let found = self.u32(what)?;
        if found == want {
            Ok(())
        } else {
            Err(Error::at(at, Rule::Tag { what, want, found }))
        }
    }

    /// Steps over `n` bytes of `what`, which must be in the file.
    fn skip(&mut self, n: u64, what: &str) -> Result<(), Error> {
        let have = self.total - self.pos;
        if n > have {
            return Err(cursor::Error::Truncated {
                offset: (self.pos as usize) as u64,
                what: what.to_string(),
                need: n,
                have: have as usize,
            }
            .into());
        }
        self.pos += n;
        Ok(())
    }

    fn finish(&self, what: &str) -> Result<(), Error> {
        if self.pos == self.total {
            Ok(())
        } else {
            Err(cursor::Error::Trailing {
                offset: (self.pos as usize) as u64,
                what: what.to_string(),
                extra: (self.total - self.pos) as usize,
            }
            .into())
        }
    }
}

/// A snapshot's TAG_MESH_DATA: complete or a difference, as its place
/// requires.
pub(super) fn mesh(
    k: usize,
    topology_changing: bool,
    first: &Mesh,
    p: &mut Payload,
) -> Result<(bool, Mesh), Rule> {
    let kind = p.u8()?;
    let want_complete = k == 0 || topology_changing;
    match (kind, want_complete) {
        (1, true) => complete_mesh(p).map(|m| (true, m)),
        (0, false) => difference_mesh(p, first).map(|m| (false, m)),
        (found, true) => Err(Rule::SnapshotKind {
            found,
            want: if k == 0 {
                "snapshot 0 is complete (1)"
            } else {
                "with the topology flag every snapshot is complete (1)"
            },
        }),
        (found, false) => Err(Rule::SnapshotKind {
            found,
            want: "without the topology flag a later snapshot is a difference (0)",
        }),
    }
}

/// The header, the flags, the offset table (up to its end tag, which the
/// caller reads) and where the data section starts: read from the start
/// of the file in as few reads as the lengths allow, each no longer than
/// the file, and parsed as one slice (so a short file fails as a slice of
/// it would).
fn read_prefix<S: Source>(
    source: &mut S,
    total: u64,
) -> Result<(Header, u32, Vec<u64>, usize), Error> {
    let failed = |_| Error::at(0, Rule::Source);
    let head = source.read(0, 5.min(total) as usize).map_err(failed)?;
    let header_len = match head.get(1..5) {
        Some(b) => u32::from_le_bytes(b.try_into().expect("4 bytes")).min(MAX_HEADER_BYTES),
        None => 0,
    };
    let through_header = 5 + u64::from(header_len);
    let head = source
        .read(0, through_header.min(total) as usize)
        .map_err(failed)?;
    // A header that does not parse fails again below, on the same bytes.
    let n = read_header(&head).map_or(0, |(h, _)| u64::from(h.snapshots));
    let prefix_len = (through_header + 8 + 8 * n).min(total);
    let bytes = source.read(0, prefix_len as usize).map_err(failed)?;
    let (header, data) = read_header(&bytes)?;
    let mut c = Cursor::at(&bytes, data);
    let flags = c.u32("the flags")?;
    if flags & !TOPOLOGY_CHANGING != 0 {
        return Err(Error::at(data, Rule::Flags(flags)));
    }
    expect_tag(&mut c, "TAG_ANIM_TABLE_START", TAG_ANIM_TABLE_START)?;
    let n = header.snapshots as usize;
    let table_at = c.offset();
    c.count(
        table_at as u64,
        n as u64,
        8,
        MAX_SNAPSHOTS,
        "offset table entries",
    )?;
    let table: Vec<u64> = (0..n)
        .map(|_| c.u64("an offset"))
        .collect::<Result<_, _>>()?;
    Ok((header, flags, table, data))
}

/// A position in a [`Source`], for walking section headers: reads of a
/// few bytes, checked against the file's length, errors at file offsets.
struct Walk<'a, S> {
    source: &'a mut S,
    pos: u64,
    total: u64,
}

fn expect_tag(c: &mut Cursor, what: &'static str, want: u32) -> Result<(), Error> {
    let at = c.offset();
    let found = c.u32(what)?;
    if found == want {
        Ok(())
    } else {
        Err(Error::at(at, Rule::Tag { what, want, found }))
    }
}

/// The sections up to and including the snapshot's end tag.
/// `total` counts the file's sections so far, held to [`MAX_SECTIONS`].
fn walk_sections<S: Source>(c: &mut Walk<S>, total: &mut u64) -> Result<Vec<SectionAt>, Error> {
    let mut list: Vec<SectionAt> = Vec::new();
    // Ids met: a duplicate is one lookup, not a scan of every section.
    let mut ids = std::collections::BTreeSet::new();
    loop {
        let at = c.pos as usize;
        let id = c.u32("a section id or TAG_ANIMATION_SNAPSHOT_END")?;
        if id == TAG_ANIMATION_SNAPSHOT_END {
            return Ok(list);
        }
        if !ids.insert(id) {
            return Err(Error::at(at, Rule::DuplicateSection(id)));
        }
        *total += 1;
        if *total > MAX_SECTIONS {
            return Err(Error::at(at, Rule::TooManySections));
        }
        let len = c.u64("a section size")?;
        let start = c.pos as usize;
        c.skip(len, "a section's payload")?;
        memory::reserve(&mut list, 1).map_err(|e| {
            Error::at(
                at,
                Rule::NoMemory {
                    what: "section index",
                    bytes: e.bytes,
                },
            )
        })?;
        list.push(SectionAt {
            id,
            start,
            len: len as usize,
        });
    }
}

fn complete_mesh(p: &mut Payload) -> Result<Mesh, Rule> {
    let v = p.u32()?;
    let n = p.u32()?;
    let c = p.u32()?;
    let t = p.u32()?;
    let v = p.count(v.into(), 12, MAX_ELEMENTS, "vertices")?;
    let n = p.count(n.into(), 12, MAX_ELEMENTS, "normals")?;
    let c = p.count(c.into(), 4, MAX_MAP_CHANNELS, "map channels")?;
    let triangle_bytes = 27 + 12 * c as u64;
    let t = p.count(t.into(), triangle_bytes, MAX_ELEMENTS, "triangles")?;
    let vertices = p.vec3s(v, "vertex")?;
    p.tag("TAG_MESH_VERTICES_END", TAG_MESH_VERTICES_END)?;
    let normals = p.vec3s(n, "normal")?;
    p.tag("TAG_MESH_NORMALS_END", TAG_MESH_NORMALS_END)?;
    let mut channels = Vec::with_capacity(c);
    for _ in 0..c {
        let m = p.u32()?;
        let m = p.count(m.into(), 12, MAX_ELEMENTS, "map coordinates")?;
        channels.push(p.vec3s(m, "map coordinate")?);
    }
    p.tag("TAG_MESH_MAP_COORDS_END", TAG_MESH_MAP_COORDS_END)?;
    let no_memory = |what| {
        move |e: memory::NoMemory| Rule::NoMemory {
            what,
            bytes: e.bytes,
        }
    };
    let mut triangles = memory::with_capacity(t).map_err(no_memory("triangle"))?;
    let mut map_indices = memory::with_capacity(t * c).map_err(no_memory("triangle map index"))?;
    // One triangle at a time (27 bytes and 12 a map channel: at most 219).
    let mut raw = [0u8; 27 + 12 * MAX_MAP_CHANNELS as usize];
    let raw = &mut raw[..triangle_bytes as usize];
    for i in 0..t {
        p.fill(raw)?;
        let mut r = Cursor::new(raw);
        let mut three =
            || -> [u32; 3] { std::array::from_fn(|_| r.u32("an index").expect("sized above")) };
        let vertices_i = three();
        let normals_i = three();
        for (what, idx, len) in [("vertex", vertices_i, v), ("normal", normals_i, n)] {
            if let Some(&bad) = idx.iter().find(|&&x| x as usize >= len) {
                return Err(Rule::Index {
                    what,
                    triangle: i,
                    index: bad,
                    len,
                });
            }
        }
        for channel in &channels {
            let m = three();
            if let Some(&bad) = m.iter().find(|&&x| x as usize >= channel.len()) {
                return Err(Rule::Index {
                    what: "map coordinate",
                    triangle: i,
                    index: bad,
                    len: channel.len(),
                });
            }
            map_indices.push(m);
        }
        let material = r.u16("a material id").expect("sized above");
        let edges = r.u8("edge visibility").expect("sized above");
        if edges & !7 != 0 {
            return Err(Rule::EdgeBits {
                triangle: i,
                bits: edges,
            });
        }
        triangles.push(Triangle {
            vertices: vertices_i,
            normals: normals_i,
            material,
            edges,
        });
    }
    Ok(Mesh {
        vertices,
        normals,
        channels,
        triangles,
        map_indices,
    })
}

fn difference_mesh(p: &mut Payload, first: &Mesh) -> Result<Mesh, Rule> {
    let vertices = p.sums(&first.vertices, ["vertex difference", "vertex"])?;
    p.tag("TAG_MESH_VERTICES_END", TAG_MESH_VERTICES_END)?;
    let normals = p.sums(&first.normals, ["normal difference", "normal"])?;
    p.tag("TAG_MESH_NORMALS_END", TAG_MESH_NORMALS_END)?;
    let mut channels = Vec::with_capacity(first.channels.len());
    for ch in &first.channels {
        channels.push(p.sums(ch, ["map coordinate difference", "map coordinate"])?);
    }
    p.tag("TAG_MESH_MAP_COORDS_END", TAG_MESH_MAP_COORDS_END)?;
    Ok(Mesh {
        vertices,
        normals,
        channels,
        triangles: Vec::new(),
        map_indices: Vec::new(),
    })
}

pub(super) fn bounding_box(p: &mut Payload) -> Result<[f32; 6], Rule> {
    let mut raw = [0u8; 24];
    p.fill(&mut raw)?;
    let b: [f32; 6] = std::array::from_fn(|i| {
        f32::from_le_bytes([raw[4 * i], raw[4 * i + 1], raw[4 * i + 2], raw[4 * i + 3]])
    });
    if b.iter().all(|x| x.is_finite()) && (0..3).all(|i| b[i] <= b[i + 3]) {
        Ok(b)
    } else {
        Err(Rule::BoundingBox)
    }
}

pub(super) fn point_cloud(p: &mut Payload) -> Result<Vec<[f32; 3]>, Rule> {
    let n = p.u64()?;
    let n = p.count(n, 12, MAX_ELEMENTS, "points")?;
    p.vec3s(n, "point")
}
