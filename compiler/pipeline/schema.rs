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

/// Every struct below `T` and its fields, by the path of field names
/// that reaches it (`["banks"]`, `["banks", "tolerance"]`; `T`'s own
/// fields are [`fields_of`]'s), through options, lists, maps' values
/// and the manifest's positions (`At`). A field whose type reads itself
/// (an untagged choice such as a name or an index) ends its path.
pub fn nested_fields<'de, T: Deserialize<'de>>() -> Vec<(Vec<&'static str>, &'static [&'static str])>
{
    let mut out = Vec::new();
    let mut routes: Vec<Vec<&'static str>> = fields_of::<T>().iter().map(|&f| vec![f]).collect();
    while let Some(route) = routes.pop() {
        let found = std::cell::Cell::new(None);
        let probe = Probe {
            route: &route,
            found: &found,
            spanned: false,
            any_as_list: true,
        };
        let _ = T::deserialize(probe);
        if let Some(fields) = found.get() {
            // (The manifest's types nest a few levels; a type that holds
            // itself would not end.)
            if route.len() < MAX_DEPTH {
                for &f in fields {
                    let mut next = route.clone();
                    next.push(f);
                    routes.push(next);
                }
            }
            out.push((route, fields));
        }
    }
    out.sort();
    out
}

/// Deepest path [`nested_fields`] follows.
const MAX_DEPTH: usize = 8;

/// Drives a derived `Deserialize` down `route`, one field at a time, and
/// records the fields of the struct at its end.
#[derive(Clone, Copy)]
struct Probe<'a> {
    route: &'a [&'static str],
    found: &'a std::cell::Cell<Option<&'static [&'static str]>>,
    /// Inside serde-saphyr's `Spanned` (the manifest's `At`), which reads
    /// its value from a map's `value` entry.
    spanned: bool,
    /// Whether a type that reads itself (`deserialize_any`) may still be
    /// offered a list (a style's `table`: a name or a list of rows); once,
    /// so a buffering untagged choice does not recurse.
    any_as_list: bool,
}

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        if !self.spanned {
            if !self.any_as_list {
                return Err(Stop);
            }
            return v.visit_seq(OneElement(Some(Probe {
                any_as_list: false,
                ..self
            })));
        }
        // serde-saphyr's private mark of its own span map (pinned with
        // the crate's version; the walk's test fails if it changes), then
        // the value.
        v.visit_map(Entries {
            keys: [Some("__serde_saphyr_private_spanned"), Some("value")],
            value: Probe {
                spanned: false,
                ..self
            },
        })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Stop> {
        let Some((&first, rest)) = self.route.split_first() else {
            self.found.set(Some(fields));
            return Err(Stop);
        };
        if !fields.contains(&first) {
            return Err(Stop);
        }
        v.visit_map(Entries {
            keys: [Some(first), None],
            value: Probe {
                route: rest,
                ..self
            },
        })
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        v.visit_some(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        v.visit_seq(OneElement(Some(self)))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        v.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value, Stop> {
        v.visit_newtype_struct(Probe {
            spanned: name == "__yaml_spanned",
            ..self
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct tuple
        tuple_struct map enum identifier
    }
}

/// A map of one or two entries: `keys`, each with the probe as its value.
struct Entries<'a> {
    keys: [Option<&'static str>; 2],
    value: Probe<'a>,
}

impl<'de> de::MapAccess<'de> for Entries<'_> {
    type Error = Stop;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        match self.keys.iter_mut().find_map(Option::take) {
            Some(key) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(key))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<S: de::DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Stop> {
        seed.deserialize(self.value)
    }
}

/// A list of one element: the probe.
struct OneElement<'a>(Option<Probe<'a>>);

impl<'de> de::SeqAccess<'de> for OneElement<'_> {
    type Error = Stop;

    fn next_element_seed<S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Stop> {
        match self.0.take() {
            Some(probe) => seed.deserialize(probe).map(Some),
            None => Ok(None),
        }
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

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        name: String,
        inner: Option<Vec<crate::pipeline::manifest::At<Two>>>,
        pair: crate::pipeline::manifest::At<Pair>,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Pair {
        left: Two,
        right: u8,
    }

    #[test]
    fn walks_into_options_lists_and_positions() {
        assert_eq!(
            nested_fields::<Outer>(),
            [
                (vec!["inner"], &["first", "second"][..]),
                (vec!["pair"], &["left", "right"][..]),
                (vec!["pair", "left"], &["first", "second"][..]),
            ]
        );
        assert!(nested_fields::<Two>().is_empty());
    }

    /// A name or a list of rows, read as a style's `table` reads itself:
    /// `deserialize_any`, a string or a sequence.
    #[allow(dead_code)]
    enum NameOrRows {
        Name(String),
        Rows(Vec<Two>),
    }

    impl<'de> Deserialize<'de> for NameOrRows {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<NameOrRows, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = NameOrRows;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a name or rows")
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<NameOrRows, E> {
                    Ok(NameOrRows::Name(v.to_string()))
                }
                fn visit_seq<A: de::SeqAccess<'de>>(
                    self,
                    mut seq: A,
                ) -> Result<NameOrRows, A::Error> {
                    let mut rows = Vec::new();
                    while let Some(row) = seq.next_element()? {
                        rows.push(row);
                    }
                    Ok(NameOrRows::Rows(rows))
                }
            }
            d.deserialize_any(V)
        }
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Table {
        table: NameOrRows,
    }

    #[test]
    fn a_field_that_reads_itself_is_offered_one_list() {
        assert_eq!(
            nested_fields::<Table>(),
            [(vec!["table"], &["first", "second"][..])]
        );
    }

    /// A type that holds itself.
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Node {
        name: String,
        child: Option<Box<Node>>,
    }

    #[test]
    fn a_type_that_holds_itself_is_followed_to_the_deepest_path() {
        let found = nested_fields::<Node>();
        let deepest = found.iter().map(|(route, _)| route.len()).max();
        assert_eq!(deepest, Some(MAX_DEPTH));
        assert_eq!(found.len(), MAX_DEPTH);
        // The walk's error has words, as every error must.
        assert_eq!(Stop.to_string(), "schema walk");
    }
}
