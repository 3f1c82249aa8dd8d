//! The remaining report commands in Spanish (`--lang es`): exact Spanish labels and es-ES
//! figures; `--json` is the same in both languages.

use crate::support::{DemoLedger, run_at, stderr, stdout};

fn es(demo: &DemoLedger, args: &[&str]) -> String {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--lang", "es"]);
    let text = demo.ok(&all);
    let mut json = vec!["--json"];
    json.extend_from_slice(&all);
    let mut json_en = vec!["--json"];
    json_en.extend_from_slice(args);
    assert_eq!(
        demo.ok(&json),
        demo.ok(&json_en),
        "{args:?}: --json differs"
    );
    text
}

#[test]
fn lang_es_integrity_with_findings() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("rows.csv");
    std::fs::write(
        &csv,
        "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,\
         fiat_value,fiat_currency,id,group_id,note\n\
         2024-03-01T10:00:00Z,BUY,Kraken,BTC,1,EUR,1000.00,,,,,a1,,\n\
         2024-05-01T10:00:00Z,SELL,Kraken,EUR,3456.78,BTC,2.5,,,,,a2,,\n",
    )
    .unwrap();
    let path = dir.path().join("ledger.sqlite");
    let csv_arg = csv.display().to_string();
    let out = run_at(&path, &["import", &csv_arg, "--format", "generic"]);
    assert!(out.status.success(), "import: {}", stderr(&out));
    let run = |args: &[&str]| {
        let out = run_at(&path, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    let text = run(&["integrity", "--lang", "es"]);
    assert!(
        text.starts_with("Calidad de los datos: 3 hallazgo(s), 2 pendiente(s) de revisión\n"),
        "{text}"
    );
    assert!(text.contains(" marca                 gravedad   filas   pendientes de revisión\n"));
    assert!(text.contains("\nCompletitud de todo el libro\n operaciones excluidas      1\n"));
    assert!(text.contains(" sin cubrir 1,5 BTC\n"), "{text}");
    let flagged = run(&["integrity", "--flag", "MISSING_ACQUISITION", "--lang", "es"]);
    assert!(flagged.starts_with("Filas marcadas con MISSING_ACQUISITION\n"));
    // Wider than 100 columns with its row key: stacked.
    assert!(
        flagged.contains(
            " fecha y hora:  2024-05-01T10:00:00Z\n activo:        BTC\n cuenta:        \
             Kraken\n cantidad:      1,5\n detalle:       quality.missing_acquisition.disposal\n"
        ),
        "{flagged}"
    );
    assert_eq!(
        run(&["--json", "integrity", "--lang", "es"]),
        run(&["--json", "integrity"])
    );
}

#[test]
fn lang_es_lots_tx_holdings_accounts_settings() {
    let demo = DemoLedger::build();
    let lots = es(&demo, &["lots", "ETH"]);
    assert!(
        lots.starts_with(
            "Lotes FIFO de ETH (15 lotes, los más recientes primero, numerados en orden FIFO; \
             página 1 de 1)\n"
        ),
        "{lots}"
    );
    assert!(
        lots.contains(
            " lote:               #1\n adquirido:          2022-02-01\n cuenta:             \
             Bitvavo\n cantidad:           1\n restante:           0\n coste unitario EUR: \
             2.422,14\n coste EUR:          2.422,14\n estado:             CLOSED\n"
        ),
        "{lots}"
    );
    assert!(lots.contains("\nHistorial de consumo\n"));

    let tx = es(&demo, &["tx", "--symbol", "ETH"]);
    assert!(
        tx.starts_with("Transacciones, las más recientes primero: 19 coinciden, página 1 de 1\n")
    );
    assert!(tx.contains("fecha (UTC)"), "{tx}");
    assert!(tx.contains("valor declarado"), "{tx}");
    assert!(tx.contains("2.450,25 EUR"), "{tx}");
    assert!(tx.contains("Claves de fila para `cartera edit` y `cartera link`: añade --keys.\n"));

    let holdings = es(&demo, &["holdings-at", "2024-12-31"]);
    assert!(holdings.starts_with("Tenencias por custodio al final del 2024-12-31 "));
    assert!(
        holdings.contains(
            " custodio   país   custodia       activo     unidades   valor EUR   completo\n"
        ),
        "{holdings}"
    );
    assert!(
        holdings
            .contains(" Ledger     -      UNCLASSIFIED   BTC            0,05    4.433,82   sí\n"),
        "{holdings}"
    );
    assert!(
        holdings.contains(" total                                    10.442,36 EUR\n"),
        "{holdings}"
    );
    assert!(
        holdings.contains(" plazo de presentación         2025-01-01 … 2025-03-31\n"),
        "{holdings}"
    );

    let accounts = es(&demo, &["accounts", "list"]);
    assert!(
        accounts.starts_with(
            " cuenta           custodia       país   filas de contado   filas de futuros\n"
        ),
        "{accounts}"
    );
    assert!(
        accounts.contains(
            "   Kraken:earn    UNCLASSIFIED   -                    36                  0\n"
        )
    );

    demo.ok(&[
        "settings",
        "set",
        "irpf.general_absorption",
        "{\"2013\": \"1234.5\"}",
    ]);
    let settings = es(&demo, &["settings", "list"]);
    assert!(
        settings.starts_with(" ajuste                             valor"),
        "{settings}"
    );
    assert!(
        settings.contains(" display_language                   (sin definir)"),
        "{settings}"
    );
    assert!(
        settings.contains("año de la fila más antigua"),
        "{settings}"
    );
    // A value is the JSON text `settings set` takes: it stays as typed, never regrouped.
    assert!(settings.contains("{\"2013\":\"1234.50\"}"), "{settings}");
}
