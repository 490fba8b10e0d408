//! The manifest schema read off the types that parse it, so the docs test
//! and the key test list exactly the fields serde accepts.
//!
//! `fields_of::<T>()` asks `T`'s derived `Deserialize` for the field names
//! it passes to `deserialize_struct` (serde hands every derived struct's
//! field list to the deserializer), with a deserializer that only records
//! them.

use serde::Deserialize;
use serde::de::{self, Visitor};

/// The field names of the struct `T`, in declaration order (empty if `T`
/// is not a struct with named fields).
pub fn fields_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut seen = FieldNames(&[]);
    let _ = T::deserialize(&mut seen);
    seen.0
}

struct FieldNames(&'static [&'static str]);

/// The error that stops the walk once the names are known.
#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("schema walk")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<M: std::fmt::Display>(_: M) -> Stop {
        Stop
    }
}

impl<'de> de::Deserializer<'de> for &mut FieldNames {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        self.0 = fields;
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Two {
        first: u8,
        #[serde(default)]
        second: Option<String>,
    }

    #[test]
    fn reads_the_field_names_of_a_derived_struct() {
        assert_eq!(fields_of::<Two>(), ["first", "second"]);
        assert!(fields_of::<u32>().is_empty());
    }
}
