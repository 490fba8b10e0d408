//! Job kinds. Each kind is one module that owns its whole vertical:
//!
//! - `KIND` (its name in reports and keys), `VERSION` (goes into its
//!   key; bumped whenever its output bytes would change) and `FOLDER` (of
//!   the output folder, where its jobs write);
//! - `Entry`: its manifest entry, one `At<T>` field per setting (serde, with
//!   positions), defaults written next to the field that takes them. The
//!   entry is also the job's settings: serialized, it is the key's text, so
//!   a new field cannot be left out of the key;
//! - `plan(&Entry, &mut Planner) -> Option<Outputs>`: every check that can
//!   be made without running, the declared inputs (through the planner) and
//!   the declared outputs;
//! - `run(&Entry, &mut JobIo) -> Result<(), JobError>`: reads through
//!   `JobIo`, writes exactly the declared outputs, blames a setting by its
//!   field's position.
//!
//! Adding a kind is its module, one line in the `kinds!` list below, its
//! codecs, its docs and its tests (ARCHITECTURE.md, "Adding a job kind").
//! The list is a closed enum; dispatch is a `match` the macro writes.

use serde::Deserialize;

use super::job::{JobError, JobIo, Outputs};
use super::manifest::{self, At, ParseError};
use super::planner::Planner;

macro_rules! kinds {
    ($($section:ident => $variant:ident($module:ident)),* $(,)?) => {
        $(pub mod $module;)*

        /// A manifest: one list of entries per job kind.
        #[derive(Clone, Debug, Default, PartialEq, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Sections {
            $(
                #[serde(default)]
                pub $section: Vec<At<$module::Entry>>,
            )*
        }

        /// A job's kind and its settings (boxed: entries differ in size
        /// by hundreds of bytes, and a plan holds one per job).
        #[derive(Clone, Debug, PartialEq)]
        pub enum Spec {
            $($variant(Box<$module::Entry>),)*
        }

        impl Spec {
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Spec::$variant(_) => $module::KIND,)*
                }
            }

            pub fn version(&self) -> u32 {
                match self {
                    $(Spec::$variant(_) => $module::VERSION,)*
                }
            }

            /// The entry, serialized: every setting in declaration order.
            pub fn settings(&self) -> serde_json::Value {
                let value = match self {
                    $(Spec::$variant(e) => serde_json::to_value(e),)*
                };
                value.expect("entries serialize to JSON")
            }

            pub fn run(&self, io: &mut JobIo) -> Result<(), JobError> {
                match self {
                    $(Spec::$variant(e) => $module::run(e, io),)*
                }
            }
        }

        /// Plans every entry of every section, kinds in the order listed,
        /// entries in file order; `add` receives each planned job.
        pub fn plan_sections(
            sections: Sections,
            planner: &mut Planner,
            add: &mut dyn FnMut(&mut Planner, At<String>, Outputs, Spec),
        ) {
            $(
                for entry in sections.$section {
                    planner.start_entry(entry.pos);
                    if let Some(outputs) = $module::plan(&entry.value, planner) {
                        let id = entry.value.id.clone();
                        add(planner, id, outputs, Spec::$variant(Box::new(entry.value)));
                    }
                }
            )*
        }

        /// Every entry's settings, unplanned, in plan order (for tests of
        /// the keys).
        pub fn for_each_spec(sections: Sections, each: &mut dyn FnMut(Spec)) {
            $(
                for entry in sections.$section {
                    each(Spec::$variant(Box::new(entry.value)));
                }
            )*
        }

        /// The fields of `section`'s entries (empty for an unknown section).
        pub fn entry_fields(section: &str) -> &'static [&'static str] {
            match section {
                $(stringify!($section) => super::schema::fields_of::<$module::Entry>(),)*
                _ => &[],
            }
        }

        /// The structs below `section`'s entries and their fields, by the
        /// path of field names that reaches each (empty for an unknown
        /// section).
        pub fn entry_nested(section: &str) -> Vec<(Vec<&'static str>, &'static [&'static str])> {
            match section {
                $(stringify!($section) => super::schema::nested_fields::<$module::Entry>(),)*
                _ => Vec::new(),
            }
        }

        /// Every kind: (section, kind name).
        pub const ALL: &[(&str, &str)] = &[$((stringify!($section), $module::KIND),)*];

        /// Every kind's outputs: (kind name, the folder its jobs write
        /// under, its VERSION).
        pub const OUTPUTS: &[(&str, &str, u32)] =
            &[$(($module::KIND, $module::FOLDER, $module::VERSION),)*];
    };
}

kinds! {
    pose_caches => PoseCache(pose_cache),
    model_bundles => ModelBundle(model_bundle),
    styles => Style(style),
    characters => Characters(characters),
    cgeo_sequences => CgeoSequence(cgeo_sequence),
}

/// Parses one manifest's text into its sections, one per job kind.
pub fn parse_manifest(text: &str) -> Result<Sections, ParseError> {
    manifest::parse(text)
}

/// Every key of the schema, as `section` and `section.key`, read off the
/// entry types (so a field cannot be added without the docs test seeing it).
pub fn manifest_keys() -> Vec<String> {
    let mut keys = Vec::new();
    for section in super::schema::fields_of::<Sections>() {
        keys.push(section.to_string());
        for field in entry_fields(section) {
            keys.push(format!("{section}.{field}"));
        }
    }
    keys
}

/// Every key below an entry's own (`characters.banks.tolerance.scale`):
/// the fields of the structs the entries hold, found the same way.
pub fn nested_manifest_keys() -> Vec<String> {
    let mut keys = Vec::new();
    for section in super::schema::fields_of::<Sections>() {
        for (route, fields) in entry_nested(section) {
            for field in fields {
                keys.push(format!("{section}.{}.{field}", route.join(".")));
            }
        }
    }
    keys
}
