//! The conversations of `cartera ask` and `cartera chat`: one JSON file beside the ledger
//! (`<ledger>.conversations.json`), never the ledger itself, so the AI surface stays read-only.
//! The file is rewritten whole through a temporary file and a rename: a crash or Ctrl-C leaves
//! the previous version or the new one, never half of one.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use advisor::Message;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// One conversation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Conversation {
    /// `c1`, `c2`, …
    pub(crate) id: String,
    /// The first question, cut to 60 characters.
    pub(crate) title: String,
    /// Every message, oldest first.
    pub(crate) messages: Vec<Message>,
}

impl Conversation {
    /// The questions asked so far.
    pub(crate) fn questions(&self) -> usize {
        self.messages
            .iter()
            .filter(|message| matches!(message, Message::User { .. }))
            .count()
    }
}

/// The file's content: conversations, the most recently used last.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Store {
    #[serde(rename = "nextId")]
    next_id: u64,
    pub(crate) conversations: Vec<Conversation>,
    #[serde(skip)]
    path: PathBuf,
}

/// `<ledger>.conversations.json`.
pub(crate) fn path_beside(ledger: &Path) -> PathBuf {
    let mut name = ledger.file_name().unwrap_or_default().to_os_string();
    name.push(".conversations.json");
    ledger.with_file_name(name)
}

impl Store {
    /// Reads the store beside `ledger`; a missing file is an empty store.
    pub(crate) fn load(ledger: &Path) -> Result<Store> {
        let path = path_beside(ledger);
        let mut store = match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice::<Store>(&bytes).with_context(|| {
                format!(
                    "the conversations file {} is not readable JSON; move it away to start afresh",
                    path.display()
                )
            })?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Store::default(),
            Err(error) => {
                return Err(error).with_context(|| {
                    format!("cannot read the conversations file {}", path.display())
                });
            }
        };
        store.path = path;
        Ok(store)
    }

    /// A fresh id.
    pub(crate) fn new_id(&mut self) -> String {
        self.next_id = self.next_id.saturating_add(1).max(1);
        format!("c{}", self.next_id)
    }

    /// The most recently used conversation.
    pub(crate) fn last(&self) -> Option<&Conversation> {
        self.conversations.last()
    }

    /// The conversation with `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&Conversation> {
        self.conversations.iter().find(|c| c.id == id)
    }

    /// Stores `conversation` as the most recently used one (replacing its earlier version).
    pub(crate) fn put(&mut self, conversation: Conversation) {
        self.conversations.retain(|c| c.id != conversation.id);
        self.conversations.push(conversation);
    }

    /// Removes the conversation with `id`; whether it existed.
    pub(crate) fn delete(&mut self, id: &str) -> bool {
        let before = self.conversations.len();
        self.conversations.retain(|c| c.id != id);
        self.conversations.len() != before
    }

    /// Writes the whole store (temporary file, then rename).
    pub(crate) fn save(&self) -> Result<()> {
        let folder = self
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or_else(|| Path::new("."));
        let text = serde_json::to_vec_pretty(self)?;
        let mut file = tempfile::NamedTempFile::new_in(folder).with_context(|| {
            format!(
                "cannot write the conversations file beside {}",
                folder.display()
            )
        })?;
        file.write_all(&text)?;
        file.as_file().sync_all()?;
        file.persist(&self.path)
            .with_context(|| format!("cannot write {}", self.path.display()))?;
        Ok(())
    }
}

/// A title from a first question.
pub(crate) fn title_of(question: &str) -> String {
    let one_line: String = question
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let trimmed = one_line.trim();
    if trimmed.chars().count() > 60 {
        let mut cut: String = trimmed.chars().take(59).collect();
        cut.push('…');
        cut
    } else {
        trimmed.to_owned()
    }
}
