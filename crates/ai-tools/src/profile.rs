//! Execution profiles (`tools.md` §3): exposure, display settings and budgets.

/// The display settings a profile fixes (`tools.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Cap of every holdings-like list.
    pub top_n_holdings: u32,
    /// Page size of `token_history` and `token_lots`.
    pub lots_page_size: u32,
    /// Page size of `fiscal_integrity_rows` and `tx_search`.
    pub rows_page_size: u32,
}

/// An execution profile (`tools.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// A paid, hosted model: all 25 tools, the metered budgets.
    Metered,
    /// A local model with a known context window (tokens): the 14 core tools.
    Local {
        /// The model's context window in tokens, from 1000 to 10,000,000.
        context_window: u32,
    },
    /// A chain mixing local and hosted models: behaves exactly like `Metered`.
    Mixed,
}
