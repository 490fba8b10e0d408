//! SentencePiece's model file (`tokenizer.model`): the `ModelProto`
//! protocol-buffer message of `sentencepiece_model.proto` (sentencepiece
//! 0.2), the part kiln reads. Spec: `docs/formats/sentencepiece.md`.
//!
//! kiln reads the pieces (each its text, score and type) and, from the
//! trainer's settings, the model type and the special pieces' ids; every
//! other field (the normalizer's character map, self-test data, the
//! trainer's other settings) is skipped, of any wire type, on the shared
//! wire reader ([`super::protobuf`]). As protocol buffers say, a repeated
//! scalar field's last value wins and a repeated message field merges.
//!
//! Rejects what the wire reader rejects, a body over [`MAX_BYTES`], more
//! than [`MAX_PIECES`] pieces, and (`validate`, run by `decode`) a piece
//! that is empty or defined twice, a type SentencePiece does not define,
//! and a special id beyond the pieces.

use super::cursor::Cursor;
pub use super::problem::Problem;
pub use super::protobuf::Error;
use super::protobuf::{field, put_float, put_len, put_varint_field};

/// Largest model file kiln reads: 64 MiB (a 256,000-piece vocabulary with
/// its normalizer's map is under 5 MiB).
pub const MAX_BYTES: usize = 64 << 20;
/// Most pieces a model may hold: 1,048,576 (four times the largest
/// vocabularies in use, 256,000 pieces; each piece is 32 bytes in memory
/// besides its text, so a hostile file holds at most 32 MiB of them).
pub const MAX_PIECES: usize = 1 << 20;

/// A piece's type (`ModelProto.SentencePiece.Type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PieceType {
    #[default]
    Normal,
    Unknown,
    Control,
    UserDefined,
    Unused,
    Byte,
}

impl PieceType {
    /// Its number in the model file.
    pub fn code(self) -> u64 {
        match self {
            PieceType::Normal => 1,
            PieceType::Unknown => 2,
            PieceType::Control => 3,
            PieceType::UserDefined => 4,
            PieceType::Unused => 5,
            PieceType::Byte => 6,
        }
    }

    fn from_code(code: u64) -> Option<PieceType> {
        [
            PieceType::Normal,
            PieceType::Unknown,
            PieceType::Control,
            PieceType::UserDefined,
            PieceType::Unused,
            PieceType::Byte,
        ]
        .into_iter()
        .find(|t| t.code() == code)
    }
}

/// One vocabulary entry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Piece {
    pub piece: String,
    pub score: f32,
    pub kind: PieceType,
}

/// The trainer's model type (`TrainerSpec.ModelType`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModelType {
    #[default]
    Unigram,
    Bpe,
    Word,
    Char,
}

impl ModelType {
    pub fn code(self) -> u64 {
        match self {
            ModelType::Unigram => 1,
            ModelType::Bpe => 2,
            ModelType::Word => 3,
            ModelType::Char => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ModelType::Unigram => "unigram",
            ModelType::Bpe => "bpe",
            ModelType::Word => "word",
            ModelType::Char => "char",
        }
    }
}

/// What kiln reads of a model file. The special ids are SentencePiece's
/// defaults (0, 1, 2, -1) unless the file says otherwise; -1 is "none".
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub pieces: Vec<Piece>,
    pub model_type: ModelType,
    pub unk_id: i32,
    pub bos_id: i32,
    pub eos_id: i32,
    pub pad_id: i32,
}

impl Default for Model {
    fn default() -> Model {
        Model {
            pieces: Vec::new(),
            model_type: ModelType::Unigram,
            unk_id: 0,
            bos_id: 1,
            eos_id: 2,
            pad_id: -1,
        }
    }
}

/// Bytes of a model file: the pieces, then the trainer's settings kiln
/// reads (each written only when it is not the default, as proto2's
/// `optional` fields are written when set; these are always set).
pub fn encode(model: &Model) -> Vec<u8> {
    let mut out = Vec::new();
    for p in &model.pieces {
        let mut m = Vec::new();
        put_len(&mut m, 1, p.piece.as_bytes());
        put_float(&mut m, 2, p.score);
        put_varint_field(&mut m, 3, p.kind.code());
        put_len(&mut out, 1, &m);
    }
    let mut trainer = Vec::new();
    put_varint_field(&mut trainer, 3, model.model_type.code());
    for (number, id) in [
        (40, model.unk_id),
        (41, model.bos_id),
        (42, model.eos_id),
        (43, model.pad_id),
    ] {
        put_varint_field(&mut trainer, number, i64::from(id) as u64);
    }
    put_len(&mut out, 2, &trainer);
    out
}

/// The model in `bytes`, validated.
pub fn decode(bytes: &[u8]) -> Result<Model, Error> {
    if bytes.len() > MAX_BYTES {
        return Err(Error::TooLarge {
            len: bytes.len(),
            max: MAX_BYTES,
        });
    }
    let mut c = Cursor::new(bytes);
    let mut model = Model::default();
    let mut piece_at = Vec::new();
    let mut trainer_at = 0;
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            1 => {
                if model.pieces.len() == MAX_PIECES {
                    return Err(Error::TooMany {
                        offset: f.at as u64,
                        what: "pieces",
                        max: MAX_PIECES,
                    });
                }
                let mut piece = Piece::default();
                read_piece(f.bytes("pieces")?, &mut piece)?;
                model.pieces.push(piece);
                piece_at.push(f.at);
            }
            2 => {
                trainer_at = f.at;
                read_trainer(f.bytes("trainer_spec")?, &mut model)?;
            }
            _ => {}
        }
    }
    match indexed_problems(&model).into_iter().next() {
        None => Ok(model),
        Some((index, rule)) => Err(Error::Value {
            offset: index.map_or(trainer_at, |i| piece_at[i]) as u64,
            field: if index.is_some() {
                "pieces"
            } else {
                "trainer_spec"
            },
            rule,
        }),
    }
}

fn read_piece(mut c: Cursor<'_>, piece: &mut Piece) -> Result<(), Error> {
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            1 => piece.piece = f.string("pieces.piece")?,
            2 => piece.score = f.float("pieces.score")?,
            3 => {
                let code = f.varint("pieces.type")?;
                piece.kind = PieceType::from_code(code).ok_or_else(|| Error::Value {
                    offset: f.at as u64,
                    field: "pieces.type",
                    rule: format!("{code} is not a type (1 to 6: normal, unknown, control, user-defined, unused, byte)"),
                })?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn read_trainer(mut c: Cursor<'_>, model: &mut Model) -> Result<(), Error> {
    while !c.is_empty() {
        let f = field(&mut c)?;
        match f.number {
            3 => {
                let code = f.varint("trainer_spec.model_type")?;
                model.model_type = [
                    ModelType::Unigram,
                    ModelType::Bpe,
                    ModelType::Word,
                    ModelType::Char,
                ]
                .into_iter()
                .find(|t| t.code() == code)
                .ok_or_else(|| Error::Value {
                    offset: f.at as u64,
                    field: "trainer_spec.model_type",
                    rule: format!("{code} is not a model type (1 to 4: unigram, bpe, word, char)"),
                })?;
            }
            40 => model.unk_id = f.int32("trainer_spec.unk_id")?,
            41 => model.bos_id = f.int32("trainer_spec.bos_id")?,
            42 => model.eos_id = f.int32("trainer_spec.eos_id")?,
            43 => model.pad_id = f.int32("trainer_spec.pad_id")?,
            _ => {}
        }
    }
    Ok(())
}

/// What SentencePiece itself requires when it loads a model: pieces
/// non-empty and each defined once, exactly one of type unknown, and each
/// special id -1 or a piece. Each problem's path is the piece it is about
/// (`pieces[7]`) or `trainer_spec`.
pub fn validate(model: &Model) -> Vec<Problem> {
    indexed_problems(model)
        .into_iter()
        .map(|(index, rule)| match index {
            Some(i) => Problem::of(format!("pieces[{i}]"), rule),
            None => Problem::of("trainer_spec", rule),
        })
        .collect()
}

/// [`validate`]'s problems, each with the index of the piece it is about
/// (`None`: the trainer's settings), for [`decode`] to place at its byte.
fn indexed_problems(model: &Model) -> Vec<(Option<usize>, String)> {
    let mut problems = Vec::new();
    let mut order: Vec<usize> = (0..model.pieces.len()).collect();
    order.sort_by(|&a, &b| {
        model.pieces[a]
            .piece
            .cmp(&model.pieces[b].piece)
            .then(a.cmp(&b))
    });
    for pair in order.windows(2) {
        let (a, b) = (&model.pieces[pair[0]], &model.pieces[pair[1]]);
        if a.piece == b.piece {
            problems.push((
                Some(pair[1]),
                format!(
                    "piece {} ({:?}) is already piece {}",
                    pair[1], b.piece, pair[0]
                ),
            ));
        }
    }
    for (i, p) in model.pieces.iter().enumerate() {
        if p.piece.is_empty() {
            problems.push((Some(i), format!("piece {i} is empty")));
        }
    }
    let unknown: Vec<usize> = (0..model.pieces.len())
        .filter(|&i| model.pieces[i].kind == PieceType::Unknown)
        .collect();
    match unknown[..] {
        [] => problems.push((
            None,
            "no piece is of type unknown (SentencePiece needs one)".into(),
        )),
        [_] => {}
        [first, second, ..] => problems.push((
            Some(second),
            format!("pieces {first} and {second} are both of type unknown"),
        )),
    }
    let n = model.pieces.len();
    for (name, id) in [
        ("unk_id", model.unk_id),
        ("bos_id", model.bos_id),
        ("eos_id", model.eos_id),
        ("pad_id", model.pad_id),
    ] {
        if id < -1 || (id >= 0 && id as usize >= n) {
            problems.push((
                None,
                format!(
                    "{name} {id} is not a piece (0 to {}) or -1",
                    n.saturating_sub(1)
                ),
            ));
        }
    }
    problems.sort_by_key(|(i, _)| i.map_or(0, |i| i + 1));
    problems
}
