//! Validation of the decimal-string wire form (`domain.md` §1.1), without arithmetic.

/// Maximum number of digits after the point that `rust_decimal` can hold.
const MAX_SCALE: usize = 28;

/// Whether `text` is a decimal string of `domain.md` §1.1 (`-`? digits, optionally `.` digits).
///
/// This checks the grammar and the scale only; whether the mantissa fits is left to the parser
/// in `core-domain`, which owns arithmetic.
pub fn is_decimal_string(text: &str, allow_sign: bool) -> bool {
    let unsigned = match text.strip_prefix('-') {
        Some(rest) if allow_sign => rest,
        Some(_) => return false,
        None => text,
    };
    let (integer, fraction) = match unsigned.split_once('.') {
        Some((integer, fraction)) => (integer, Some(fraction)),
        None => (unsigned, None),
    };
    if integer.is_empty() || !integer.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    match fraction {
        None => true,
        Some(fraction) => {
            !fraction.is_empty()
                && fraction.len() <= MAX_SCALE
                && fraction.bytes().all(|b| b.is_ascii_digit())
        }
    }
}

#[cfg(test)]
mod tests;
