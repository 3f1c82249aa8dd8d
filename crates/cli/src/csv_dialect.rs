//! `--csv-dialect excel-es`: the report's RFC 4180 CSV rewritten for a Spanish Excel (`;`
//! separators, decimal commas, UTF-8 with a byte-order mark, CRLF line ends). The default
//! stays RFC 4180.

/// Splits RFC 4180 text into records of cells (quoted cells may hold separators, quotes and
/// line breaks).
pub(crate) fn parse(text: &str, separator: char) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    cell.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                cell.push(c);
            }
        } else if c == '"' {
            quoted = true;
        } else if c == separator {
            record.push(std::mem::take(&mut cell));
        } else if c == '\r' {
            // Part of a CRLF line end.
        } else if c == '\n' {
            record.push(std::mem::take(&mut cell));
            records.push(std::mem::take(&mut record));
        } else {
            cell.push(c);
        }
    }
    if !cell.is_empty() || !record.is_empty() {
        record.push(cell);
        records.push(record);
    }
    records
}

/// Whether `cell` is a plain decimal with a point (`-1234.56`), which Spanish Excel reads
/// only with a decimal comma.
fn is_decimal(cell: &str) -> bool {
    let digits = cell.strip_prefix('-').unwrap_or(cell);
    let Some((int, frac)) = digits.split_once('.') else {
        return false;
    };
    !int.is_empty()
        && !frac.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.bytes().all(|b| b.is_ascii_digit())
}

/// The excel-es form of an RFC 4180 file.
pub(crate) fn excel_es(rfc4180: &str) -> String {
    let mut out = String::from('\u{feff}');
    for record in parse(rfc4180, ',') {
        let cells: Vec<String> = record
            .iter()
            .map(|cell| {
                let cell = if is_decimal(cell) {
                    cell.replace('.', ",")
                } else {
                    cell.clone()
                };
                if cell.contains([';', '"', '\n', '\r']) {
                    format!("\"{}\"", cell.replace('"', "\"\""))
                } else {
                    cell
                }
            })
            .collect();
        out.push_str(&cells.join(";"));
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests;
