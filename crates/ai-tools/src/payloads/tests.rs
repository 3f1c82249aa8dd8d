//! Unit tests of the payload projections.
