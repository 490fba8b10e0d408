//! SentencePiece's model file (`tokenizer.model`): golden bytes written by
//! hand from the protocol-buffer rules, round trips, the fields kiln skips
//! (a real model's normalizer map, self-test data, trainer settings),
//! every truncation, SentencePiece's own load rules, and the piece count
//! bounded by counting the allocator. The real file, made by Google's
//! `sentencepiece` trainer, is read in the full tier
//! (`tests/bake/llama_cpp.rs`).

use kiln::formats::sentencepiece::{
    self, Error, MAX_BYTES, MAX_PIECES, Model, ModelType, Piece, PieceType,
};

fn piece(text: &str, score: f32, kind: PieceType) -> Piece {
    Piece {
        piece: text.into(),
        score,
        kind,
    }
}

fn small() -> Model {
    Model {
        pieces: vec![
            piece("<unk>", 0.0, PieceType::Unknown),
            piece("<s>", 0.0, PieceType::Control),
            piece("</s>", 0.0, PieceType::Control),
            piece("<0x41>", 0.0, PieceType::Byte),
            piece("\u{2581}the", -1.5, PieceType::Normal),
            piece("é", -2.25, PieceType::UserDefined),
            piece("x", -3.0, PieceType::Unused),
        ],
        model_type: ModelType::Bpe,
        ..Model::default()
    }
}

/// One piece by hand: field 1 (pieces, key 0x0a), its length; inside,
/// field 1 (piece, 0x0a), field 2 (score, key 0x15: fixed32), field 3
/// (type, key 0x18). Then field 2 (trainer_spec, 0x12): model_type (key
/// 0x18) 2, unk_id (field 40: key c0 02) 0, bos_id (c8 02), eos_id
/// (d0 02) and pad_id (d8 02) each -1, as ten bytes.
fn golden() -> Vec<u8> {
    let mut p = vec![0x0a, 5];
    p.extend_from_slice(b"<unk>");
    p.push(0x15);
    p.extend_from_slice(&0f32.to_le_bytes());
    p.extend_from_slice(&[0x18, 2]);
    let mut out = vec![0x0a, p.len() as u8];
    out.extend_from_slice(&p);
    let minus_one = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    let mut t = vec![0x18, 2, 0xc0, 0x02, 0];
    for key in [0xc8, 0xd0, 0xd8] {
        t.extend_from_slice(&[key, 0x02]);
        t.extend_from_slice(&minus_one);
    }
    out.extend_from_slice(&[0x12, t.len() as u8]);
    out.extend_from_slice(&t);
    out
}

#[test]
fn kilns_model_file_is_the_protocol_buffer_encoding() {
    let one = Model {
        pieces: vec![piece("<unk>", 0.0, PieceType::Unknown)],
        model_type: ModelType::Bpe,
        unk_id: 0,
        bos_id: -1,
        eos_id: -1,
        pad_id: -1,
    };
    assert_eq!(sentencepiece::encode(&one), golden());
    assert_eq!(sentencepiece::decode(&golden()).unwrap(), one);
    let m = small();
    assert_eq!(
        sentencepiece::decode(&sentencepiece::encode(&m)).unwrap(),
        m
    );
    assert!(sentencepiece::validate(&m).is_empty());
}

#[test]
fn what_the_file_leaves_out_is_sentencepieces_default() {
    // A piece without a type is NORMAL and without a score 0; a file
    // without trainer settings is a unigram model with ids 0, 1, 2, -1.
    let entry = |body: &[u8]| [&[0x0a, body.len() as u8][..], body].concat();
    let a = entry(&[0x0a, 1, b'a']);
    let unk = entry(&[0x0a, 5, b'<', b'u', b'n', b'k', b'>', 0x18, 2]);
    let bos = entry(&[0x0a, 3, b'<', b's', b'>', 0x18, 3]);
    let m = sentencepiece::decode(&[a.clone(), unk.clone(), bos].concat()).unwrap();
    assert_eq!(m.pieces[0], piece("a", 0.0, PieceType::Normal));
    assert_eq!(m.model_type, ModelType::Unigram);
    assert_eq!((m.unk_id, m.bos_id, m.eos_id, m.pad_id), (0, 1, 2, -1));
    // Two pieces: the default eos 2 is past them, which SentencePiece
    // refuses on load, as kiln does.
    let e = sentencepiece::decode(&[a, unk].concat()).unwrap_err();
    assert!(
        e.to_string().contains("eos_id 2 is not a piece (0 to 1)"),
        "{e}"
    );
}

/// Fields kiln does not read, of every wire type, in each message: a real
/// model's normalizer spec (with its precompiled map), self-test data,
/// and trainer settings, and unknown fields inside a piece.
#[test]
fn fields_kiln_does_not_read_are_skipped() {
    let plain = sentencepiece::encode(&small());
    let mut noisy = Vec::new();
    // normalizer_spec (3): name "nmt_nfkc", a 300-byte map, flags.
    let mut norm = vec![0x0a, 8];
    norm.extend_from_slice(b"nmt_nfkc");
    norm.extend_from_slice(&[0x12, 0xac, 0x02]);
    norm.extend_from_slice(&[7u8; 300]);
    norm.extend_from_slice(&[0x18, 1, 0x20, 1, 0x28, 1]);
    noisy.extend_from_slice(&[0x1a, 0xbf, 0x02]);
    assert_eq!(norm.len(), 0x13f);
    noisy.extend_from_slice(&norm);
    // A 64-bit and a 32-bit field at the top.
    noisy.extend_from_slice(&[0x39, 1, 2, 3, 4, 5, 6, 7, 8, 0x45, 9, 9, 9, 9]);
    noisy.extend_from_slice(&plain);
    // self_test_data (4), after the pieces.
    noisy.extend_from_slice(&[0x22, 4, 0x0a, 2, b'h', b'i']);
    let m = sentencepiece::decode(&noisy).unwrap();
    assert_eq!(m, small());
    // Inside a piece: an unknown varint field 9 and a string field 10.
    let mut p = vec![0x0a, 1, b'q', 0x48, 5, 0x52, 2, b'z', b'z', 0x18, 1];
    let mut bytes = plain.clone();
    bytes.push(0x0a);
    bytes.push(p.len() as u8);
    bytes.append(&mut p);
    let m = sentencepiece::decode(&bytes).unwrap();
    assert_eq!(
        m.pieces.last().unwrap(),
        &piece("q", 0.0, PieceType::Normal)
    );
}

#[test]
fn every_truncation_is_a_model_or_an_error_at_a_byte_inside_it() {
    let bytes = sentencepiece::encode(&small());
    for n in 0..bytes.len() {
        match sentencepiece::decode(&bytes[..n]) {
            // Cut at a field's end: the pieces so far, the settings left
            // at their defaults.
            Ok(m) => assert_eq!(m.pieces[..], small().pieces[..m.pieces.len()], "cut at {n}"),
            Err(e) => assert!(
                e.offset() <= n as u64,
                "cut at {n}: {e} (offset {})",
                e.offset()
            ),
        }
    }
}

#[test]
fn sentencepieces_load_rules_are_refused_at_the_piece() {
    let at = |m: &Model| {
        let bytes = sentencepiece::encode(m);
        let e = sentencepiece::decode(&bytes).unwrap_err();
        (e.offset(), e.to_string())
    };
    // The piece's offset: after each earlier piece's key, length and body.
    let piece_offset = |m: &Model, i: usize| {
        let mut before = m.clone();
        before.pieces.truncate(i);
        let head = sentencepiece::encode(&before);
        head.len() - trainer_len(&before) + 2
    };
    let mut twice = small();
    twice
        .pieces
        .push(piece("\u{2581}the", -9.0, PieceType::Normal));
    let (offset, message) = at(&twice);
    assert_eq!(offset, piece_offset(&twice, 7) as u64, "{message}");
    assert!(
        message.contains("piece 7 (\"▁the\") is already piece 4"),
        "{message}"
    );

    let mut empty = small();
    empty.pieces[5].piece.clear();
    let (offset, message) = at(&empty);
    assert_eq!(offset, piece_offset(&empty, 5) as u64, "{message}");
    assert!(message.contains("piece 5 is empty"), "{message}");

    let mut two_unk = small();
    two_unk.pieces[6].kind = PieceType::Unknown;
    assert!(
        at(&two_unk)
            .1
            .contains("pieces 0 and 6 are both of type unknown")
    );

    let mut no_unk = small();
    no_unk.pieces[0].kind = PieceType::Control;
    assert!(at(&no_unk).1.contains("no piece is of type unknown"));

    let mut bos = small();
    bos.bos_id = 7;
    assert!(
        at(&bos)
            .1
            .contains("trainer_spec: bos_id 7 is not a piece (0 to 6) or -1")
    );
    bos.bos_id = -2;
    assert!(at(&bos).1.contains("bos_id -2"));
}

/// Bytes of `m`'s trainer settings, key and length included.
fn trainer_len(m: &Model) -> usize {
    let mut none = m.clone();
    none.pieces.clear();
    sentencepiece::encode(&none).len()
}

#[test]
fn a_type_or_wire_type_sentencepiece_does_not_define_is_refused_at_its_byte() {
    // A type of 7: the piece's field 3 at byte 5.
    let bytes = [0x0a, 5, 0x0a, 1, b'a', 0x18, 7];
    let e = sentencepiece::decode(&bytes).unwrap_err();
    assert_eq!(e.offset(), 6, "{e}");
    assert!(
        e.to_string().contains("pieces.type: 7 is not a type"),
        "{e}"
    );
    // A score written as a varint: the key's byte, the own type named.
    let bytes = [0x0a, 5, 0x0a, 1, b'a', 0x10, 1];
    let e = sentencepiece::decode(&bytes).unwrap_err();
    assert!(
        matches!(
            e,
            Error::WireType {
                offset: 5,
                want: 5,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("pieces.score has wire type 0, not its own (5, 32-bit)"),
        "{e}"
    );
    // A model type of 9.
    let bytes = [0x12, 2, 0x18, 9];
    let e = sentencepiece::decode(&bytes).unwrap_err();
    assert!(
        e.to_string()
            .contains("at byte 3: trainer_spec.model_type: 9 is not a model type"),
        "{e}"
    );
    // A piece that is not UTF-8.
    let bytes = [0x0a, 4, 0x0a, 2, b'a', 0xff];
    let e = sentencepiece::decode(&bytes).unwrap_err();
    assert!(
        e.to_string().contains("at byte 5: pieces.piece: not UTF-8"),
        "{e}"
    );
}

#[test]
fn the_piece_count_and_the_size_are_bounded_before_they_cost_memory() {
    // MAX_PIECES + 1 empty pieces (two bytes each): refused at the piece
    // past the limit, having held at most the limit's pieces.
    let bytes: Vec<u8> = [0x0a, 0].repeat(MAX_PIECES + 1);
    let (result, peak) = crate::alloc_support::peak_live_in(|| {
        sentencepiece::decode(&bytes).map(|m| m.pieces.len())
    });
    let e = result.unwrap_err();
    assert_eq!(e.offset(), (2 * MAX_PIECES + 2) as u64, "{e}");
    assert!(
        e.to_string()
            .contains(&format!("more than {MAX_PIECES} pieces")),
        "{e}"
    );
    // 32 bytes a piece, and a vector's doubling: under 80 bytes a piece.
    assert!(peak < 80 * MAX_PIECES, "peak {peak} bytes");
    let big = vec![0u8; MAX_BYTES + 1];
    let e = sentencepiece::decode(&big).unwrap_err();
    assert!(matches!(e, Error::TooLarge { .. }), "{e}");
}

/// A model Google's trainer made (`tests/corpus/sentencepiece/bpe400.model`)
/// reads as Google's own runtime read it (`bpe400.json`, recorded by
/// `tests/oracles/sentencepiece_model.py read`): every piece, score and
/// type, the model type and the special ids. The full tier re-reads it live.
#[test]
fn googles_model_file_reads_as_google_reads_it() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/sentencepiece");
    let bytes = std::fs::read(dir.join("bpe400.model")).unwrap();
    let want: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("bpe400.json")).unwrap()).unwrap();
    let m = sentencepiece::decode(&bytes).unwrap();
    let pieces = want["pieces"].as_array().unwrap();
    assert_eq!(m.pieces.len(), pieces.len());
    assert_eq!(m.pieces.len(), 400);
    for (got, want) in m.pieces.iter().zip(pieces) {
        assert_eq!(got.piece, want[0].as_str().unwrap());
        assert_eq!(got.score, want[1].as_f64().unwrap() as f32, "{}", got.piece);
        assert_eq!(got.kind.code(), want[2].as_u64().unwrap(), "{}", got.piece);
    }
    assert_eq!(m.model_type.code(), want["model_type"].as_u64().unwrap());
    let ids = &want["ids"];
    assert_eq!(
        (m.unk_id, m.bos_id, m.eos_id, m.pad_id),
        (
            ids["unk"].as_i64().unwrap() as i32,
            ids["bos"].as_i64().unwrap() as i32,
            ids["eos"].as_i64().unwrap() as i32,
            ids["pad"].as_i64().unwrap() as i32
        )
    );
    let count = |k: PieceType| m.pieces.iter().filter(|p| p.kind == k).count();
    assert_eq!(
        [
            PieceType::Unknown,
            PieceType::Control,
            PieceType::UserDefined,
            PieceType::Byte
        ]
        .map(count),
        [1, 2, 1, 256]
    );
}
