//! Closed vocabularies and wire contracts shared by every cartera crate.
//!
//! This crate holds the vocabularies that `domain.md` closes (transaction types, quality flags
//! and their severities, the fiat and stablecoin lists, custody kinds) and, as later layers
//! arrive, the DTOs that cross the serialization boundary. It does no arithmetic: amounts that
//! travel through it are decimal strings, validated by [`decimal::is_decimal_string`].
#![warn(missing_docs)]

pub mod decimal;
pub mod dto;
pub mod label_map;
pub mod text;
pub mod vocab;

pub use label_map::{AccountMapping, AccountReading, LabelMapping, MapEntry};
pub use vocab::{
    CustodyKind, FIAT_CODES, FuturesKind, MetricId, QualityEffect, QualityFlag, STABLECOINS,
    Severity, SpotTxType, Tier, ToolName, is_fiat_code, is_stablecoin,
};
