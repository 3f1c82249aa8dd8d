//! One reader per export family (§2).

pub(crate) mod binance;
pub(crate) mod bitvavo;
pub(crate) mod coinbase;
pub(crate) mod futures;
pub(crate) mod generic;
pub(crate) mod kraken;
