//! The result cache (`tools.md` §14): a hand-written bounded LRU with a 60-second TTL.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use shared_types::ToolName;

use crate::host::Built;
use crate::profile::Settings;

/// Time to live of an entry, from insertion (not sliding), in nanoseconds.
const TTL_NANOS: i64 = 60_000_000_000;

/// What identifies a cached result (`tools.md` §14).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CacheKey {
    pub tenant: String,
    pub exposure: &'static str,
    pub settings: Settings,
    pub base_currency: &'static str,
    pub language: String,
    pub tool: ToolName,
    pub canonical_args: String,
}

struct Entry {
    built: Arc<Built>,
    ledger_version: u64,
    inserted_at_nanos: i64,
    tick: u64,
}

/// Least-recently-used map: `entries` by key, `recency` from tick (oldest first) to key.
pub(crate) struct Lru {
    capacity: usize,
    entries: HashMap<CacheKey, Entry>,
    recency: BTreeMap<u64, CacheKey>,
    next_tick: u64,
}

impl Lru {
    pub(crate) fn new(capacity: usize) -> Lru {
        Lru {
            capacity: capacity.max(1),
            entries: HashMap::new(),
            recency: BTreeMap::new(),
            next_tick: 0,
        }
    }

    fn tick(&mut self) -> u64 {
        let tick = self.next_tick;
        self.next_tick = self.next_tick.saturating_add(1);
        tick
    }

    fn remove(&mut self, key: &CacheKey) {
        if let Some(entry) = self.entries.remove(key) {
            self.recency.remove(&entry.tick);
        }
    }

    /// A hit needs the same ledger version and an age from 0 to under 60 s; a stale or
    /// mismatched entry is removed.
    pub(crate) fn get(
        &mut self,
        key: &CacheKey,
        ledger_version: u64,
        now_nanos: i64,
    ) -> Option<Arc<Built>> {
        let fresh = {
            let entry = self.entries.get(key)?;
            let age = now_nanos.checked_sub(entry.inserted_at_nanos);
            entry.ledger_version == ledger_version
                && age.is_some_and(|age| (0..TTL_NANOS).contains(&age))
        };
        if !fresh {
            self.remove(key);
            return None;
        }
        let tick = self.tick();
        let entry = self.entries.get_mut(key)?;
        let old = std::mem::replace(&mut entry.tick, tick);
        let built = Arc::clone(&entry.built);
        self.recency.remove(&old);
        self.recency.insert(tick, key.clone());
        Some(built)
    }

    /// Stores `built`, evicting the least recently used entries beyond the capacity.
    pub(crate) fn insert(
        &mut self,
        key: CacheKey,
        built: Arc<Built>,
        ledger_version: u64,
        now_nanos: i64,
    ) {
        self.remove(&key);
        while self.entries.len() >= self.capacity {
            let Some((_, oldest)) = self.recency.pop_first() else {
                break;
            };
            self.entries.remove(&oldest);
        }
        let tick = self.tick();
        self.recency.insert(tick, key.clone());
        self.entries.insert(
            key,
            Entry {
                built,
                ledger_version,
                inserted_at_nanos: now_nanos,
                tick,
            },
        );
    }
}
