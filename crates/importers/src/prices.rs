//! Price files (§3.3–§3.5).
