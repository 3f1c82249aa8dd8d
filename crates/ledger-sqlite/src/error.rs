//! Mapping of SQLite failures onto the port error.

use rusqlite::ErrorCode;
use use_cases::PortError;

/// Maps a rusqlite error to the port error a use case can act on.
#[allow(clippy::needless_pass_by_value)] // Shaped for `.map_err(map_err)`.
pub(crate) fn map_err(error: rusqlite::Error) -> PortError {
    if let rusqlite::Error::SqliteFailure(failure, _) = &error {
        match failure.code {
            ErrorCode::ReadOnly => return PortError::ReadOnly,
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => {
                return PortError::Busy {
                    reason: error.to_string(),
                };
            }
            ErrorCode::CannotOpen | ErrorCode::NotADatabase | ErrorCode::PermissionDenied => {
                return PortError::Unavailable {
                    reason: error.to_string(),
                };
            }
            _ => {}
        }
    }
    PortError::Storage {
        reason: error.to_string(),
    }
}

/// A stored value that does not decode.
pub(crate) fn corrupt(what: &str, reason: impl std::fmt::Display) -> PortError {
    PortError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}
