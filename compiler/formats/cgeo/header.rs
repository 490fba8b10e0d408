//! The header: its fixed fields, its key-value flags and the offset table.

use crate::formats::cursor::Cursor;

use super::{
    Error, Header, Line, MAGIC, MANDATORY, MAX_FILE_BYTES, MAX_HEADER_BYTES, MAX_SNAPSHOTS, Rule,
    VERSION,
};

/// The header and where the data section starts.
pub(super) fn read_header(bytes: &[u8]) -> Result<(Header, usize), Error> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::at(0, Rule::FileTooLarge(bytes.len() as u64)));
    }
    let mut c = Cursor::new(bytes);
    let magic = c.u8("the magic byte")?;
    if magic != MAGIC {
        return Err(Error::at(0, Rule::Magic(magic)));
    }
    let len = c.u32("the header length")?;
    if len == 0 || len > MAX_HEADER_BYTES {
        return Err(Error::at(1, Rule::HeaderLength(len)));
    }
    let text = c.take(len as usize, "the header")?;
    let text =
        std::str::from_utf8(text).map_err(|e| Error::at(5 + e.valid_up_to(), Rule::HeaderUtf8))?;
    Ok((parse_header(text)?, c.offset()))
}

fn parse_header(text: &str) -> Result<Header, Error> {
    let mut found: [Option<(usize, &str)>; 8] = [None; 8];
    let mut other = Vec::new();
    let mut at = 5;
    for line in text.split('\n') {
        let here = at;
        at += line.len() + 1;
        match line.split_once(':') {
            None => {
                let t = line.trim();
                if !t.is_empty() {
                    other.push(Line::Text(t.to_string()));
                }
            }
            Some((k, v)) => {
                let (k, v) = (k.trim(), v.trim());
                match MANDATORY.iter().position(|m| *m == k) {
                    Some(i) if found[i].is_some() => {
                        return Err(Error::at(here, Rule::DuplicateKey(k.to_string())));
                    }
                    Some(i) => found[i] = Some((here, v)),
                    None => {
                        if other
                            .iter()
                            .any(|l| matches!(l, Line::Property(o, _) if o == k))
                        {
                            return Err(Error::at(here, Rule::DuplicateKey(k.to_string())));
                        }
                        other.push(Line::Property(k.to_string(), v.to_string()));
                    }
                }
            }
        }
    }
    let get = |i: usize| found[i].ok_or(Error::at(5, Rule::MissingKey(MANDATORY[i])));
    let bad = |i: usize, want: &'static str| {
        let (at, v) = found[i].expect("present");
        Error::at(
            at,
            Rule::BadValue {
                key: MANDATORY[i],
                value: v.to_string(),
                want,
            },
        )
    };
    let (_, version) = get(0)?;
    if version.parse::<u32>().ok() != Some(VERSION) {
        return Err(bad(0, "kiln reads version 7 (Corona v2 and later) only"));
    }
    let snapshots = get(1)?
        .1
        .parse::<u32>()
        .ok()
        .filter(|&n| n >= 1 && u64::from(n) <= MAX_SNAPSHOTS);
    let Some(snapshots) = snapshots else {
        return Err(bad(1, "a whole number from 1 to 1000000"));
    };
    let time = get(2)?
        .1
        .parse::<u64>()
        .ok()
        .filter(|&t| t >= 1 || snapshots == 1);
    let Some(time_per_snapshot_us) = time else {
        return Err(bad(
            2,
            "a whole number of microseconds, 1 or more (0 only for one snapshot)",
        ));
    };
    let Some(start_us) = get(3)?.1.parse::<i64>().ok() else {
        return Err(bad(3, "a whole number of microseconds"));
    };
    let scale = get(4)?
        .1
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0);
    let Some(scale) = scale else {
        return Err(bad(
            4,
            "a finite number, 0 or more (relative to millimetres; 0 is unknown)",
        ));
    };
    let material = get(5)?.1.to_string();
    let object = get(6)?.1.to_string();
    // Added in version 5, and True when missing (seed 004).
    let compressed = match found[7].map(|(_, v)| v.to_ascii_lowercase()).as_deref() {
        None | Some("true") => true,
        Some("false") => false,
        Some(_) => return Err(bad(7, "True or False")),
    };
    Ok(Header {
        snapshots,
        time_per_snapshot_us,
        start_us,
        scale,
        material,
        object,
        compressed,
        other,
    })
}

// ------------------------------------------------------------ payloads
