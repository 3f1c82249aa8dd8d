//! Readers of canonical arguments (`tools.md` §6.9). The arguments were validated and
//! normalised before projection, so a missing or mistyped one is an internal error.

use serde_json::{Map, Value};

use super::emit::{R, fail};

/// The canonical arguments of one call, with the use case to name in errors.
pub(super) struct Args<'a> {
    map: &'a Map<String, Value>,
    use_case: &'static str,
}

impl<'a> Args<'a> {
    pub(super) fn new(map: &'a Map<String, Value>, use_case: &'static str) -> Self {
        Self { map, use_case }
    }

    fn bad(&self, key: &str) -> super::ProjectError {
        fail(
            self.use_case,
            format!("internal error: canonical argument {key} is missing or mistyped"),
        )
    }

    /// A required string.
    pub(super) fn str(&self, key: &str) -> R<&'a str> {
        self.opt_str(key)?.ok_or_else(|| self.bad(key))
    }

    /// An optional string (absent when the call omitted it).
    pub(super) fn opt_str(&self, key: &str) -> R<Option<&'a str>> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.as_str())),
            Some(_) => Err(self.bad(key)),
        }
    }

    /// A required non-negative integer.
    pub(super) fn u64(&self, key: &str) -> R<u64> {
        self.map
            .get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| self.bad(key))
    }

    /// A required year.
    pub(super) fn year(&self, key: &str) -> R<i32> {
        i32::try_from(self.u64(key)?).map_err(|_| self.bad(key))
    }

    /// An optional list of strings.
    pub(super) fn opt_str_list(&self, key: &str) -> R<Option<Vec<&'a str>>> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| item.as_str().ok_or_else(|| self.bad(key)))
                .collect::<R<Vec<&str>>>()
                .map(Some),
            Some(_) => Err(self.bad(key)),
        }
    }

    /// A required object.
    pub(super) fn object(&self, key: &str) -> R<Args<'a>> {
        match self.map.get(key) {
            Some(Value::Object(map)) => Ok(Args::new(map, self.use_case)),
            _ => Err(self.bad(key)),
        }
    }

    /// A required list of objects.
    pub(super) fn object_list(&self, key: &str) -> R<Vec<Args<'a>>> {
        match self.map.get(key) {
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::Object(map) => Ok(Args::new(map, self.use_case)),
                    _ => Err(self.bad(key)),
                })
                .collect(),
            _ => Err(self.bad(key)),
        }
    }
}
