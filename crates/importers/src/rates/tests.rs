use std::io::Write;

use super::*;

#[test]
fn zip_with_one_csv_is_read() {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut w = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        w.start_file("eurofxref.csv", opts).unwrap();
        w.write_all(b"Date, USD, GBP, \n30 October 2026, 1.1172, 0.8338, \n")
            .unwrap();
        w.finish().unwrap();
    }
    let r = parse_ecb(buf.get_ref());
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    let got: Vec<String> = r
        .rates
        .iter()
        .map(|r| format!("{} {} {}", r.currency, r.date, r.rate))
        .collect();
    assert_eq!(got, ["USD 2026-10-30 1.1172", "GBP 2026-10-30 0.8338"]);
}
