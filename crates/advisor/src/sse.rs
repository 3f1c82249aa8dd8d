//! Server-Sent Events, line by line (the WHATWG `text/event-stream` rules the model servers
//! follow): `event:` names the event, `data:` lines accumulate, a blank line dispatches,
//! lines starting with `:` are comments, other fields (`id:`, `retry:`) are ignored.

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Event {
    /// The `event:` name, empty when none was given.
    pub(crate) name: String,
    /// The `data:` lines joined with `\n`.
    pub(crate) data: String,
}

/// Accumulates lines into events.
#[derive(Debug, Default)]
pub(crate) struct Decoder {
    name: String,
    data: Option<String>,
}

impl Decoder {
    /// Feeds one line (with or without its line ending); returns the event a blank line
    /// dispatches.
    pub(crate) fn line(&mut self, line: &str) -> Option<Event> {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return self.dispatch();
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => value.clone_into(&mut self.name),
            "data" => match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            },
            _ => {}
        }
        None
    }

    /// The event still pending at the end of the stream, if any.
    pub(crate) fn finish(&mut self) -> Option<Event> {
        self.dispatch()
    }

    fn dispatch(&mut self) -> Option<Event> {
        let name = std::mem::take(&mut self.name);
        self.data.take().map(|data| Event { name, data })
    }
}

/// Whether a line opens an event stream rather than a JSON document.
pub(crate) fn looks_like_sse(line: &str) -> bool {
    let line = line.trim_start();
    ["data:", "event:", "id:", "retry:", ":"]
        .iter()
        .any(|prefix| line.starts_with(prefix))
}

#[cfg(test)]
mod tests;
