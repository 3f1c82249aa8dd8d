use super::RowKey;

const DIGEST: &str = "bd4dce94315e6345824bada3e4078c9e4805f807e4fa169091196f53b961ec70";

#[test]
fn row_keys_keep_their_text_and_order() {
    let digest = RowKey::new(DIGEST);
    assert_eq!(digest.to_string(), DIGEST);
    assert_eq!(format!("{digest:?}"), format!("{DIGEST:?}"));
    assert!(digest == DIGEST);
    let mut bytes = [0u8; 32];
    for (byte, pair) in bytes.iter_mut().zip(DIGEST.as_bytes().chunks(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap();
    }
    assert_eq!(RowKey::from_bytes(&bytes), digest);
    assert_eq!(RowKey::digest(bytes), digest);
    // Not digests: upper-case hex, another length, other text; a short blob is its hex text.
    for text in [
        DIGEST.to_ascii_uppercase(),
        DIGEST[..62].to_owned(),
        "g12".to_owned(),
    ] {
        let key = RowKey::new(&text);
        assert_eq!(key.to_string(), text);
        assert!(key == text);
    }
    assert_eq!(RowKey::from_bytes(&[0xab, 0x01]).to_string(), "ab01");
    // Ordered as the text, digests and text keys mixed.
    let texts = [
        "0000",
        DIGEST,
        "bd4dce94315e6345824bada3e4078c9e4805f807e4fa169091196f53b961ec7",
        "bd4dce94315e6345824bada3e4078c9e4805f807e4fa169091196f53b961ec71",
        "c",
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
        "g1",
        "",
    ];
    let mut keys: Vec<RowKey> = texts.iter().map(|t| RowKey::new(t)).collect();
    keys.sort();
    let mut sorted = texts.to_vec();
    sorted.sort_unstable();
    let printed: Vec<String> = keys.iter().map(ToString::to_string).collect();
    assert_eq!(printed, sorted);
}
