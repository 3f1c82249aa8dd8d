//! ECB reference rates (§3.2).
