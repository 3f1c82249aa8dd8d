use super::*;

#[test]
fn excel_es_uses_semicolons_decimal_commas_and_a_bom() {
    let rfc = "base,box_1802,box_1804,note\nSAVINGS,BTC,-1234.56,\"a, b\"\nTOTAL,,7.00,\"say \"\"hi\"\"; ok\"\n";
    let es = excel_es(rfc);
    assert_eq!(
        es,
        "\u{feff}base;box_1802;box_1804;note\r\nSAVINGS;BTC;-1234,56;a, b\r\nTOTAL;;7,00;\"say \"\"hi\"\"; ok\"\r\n"
    );
    // Read back with `;` and decimal commas: the same cells and amounts.
    let back = parse(es.trim_start_matches('\u{feff}'), ';');
    let original = parse(rfc, ',');
    assert_eq!(back.len(), original.len());
    for (b, o) in back.iter().zip(&original) {
        let b: Vec<String> = b
            .iter()
            .map(|c| {
                if is_decimal(&c.replace(',', ".")) {
                    c.replace(',', ".")
                } else {
                    c.clone()
                }
            })
            .collect();
        assert_eq!(&b, o);
    }
}

#[test]
fn dates_codes_and_integers_are_left_alone() {
    assert_eq!(
        excel_es("2024-12-31,E:a1:P:0,12,1.0.1\n"),
        "\u{feff}2024-12-31;E:a1:P:0;12;1.0.1\r\n"
    );
}
