//! Integration tests of the facade: the typed errors, and one ledger answered from many threads.

mod answers;
mod demo;
mod errors;
mod threads;
