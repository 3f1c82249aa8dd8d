//! One reader per export family (§2).

pub(crate) mod binance;
pub(crate) mod bit2me;
pub(crate) mod bitunix;
pub(crate) mod bitvavo;
pub(crate) mod bybit;
pub(crate) mod coinbase;
pub(crate) mod cryptocom;
pub(crate) mod extra;
pub(crate) mod futures;
pub(crate) mod generic;
pub(crate) mod kraken;
pub(crate) mod kucoin;
pub(crate) mod okx;
pub(crate) mod revolut;
