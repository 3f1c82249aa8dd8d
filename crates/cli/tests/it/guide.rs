//! The Renta Web guide through the binary: the worked examples I-4, I-5 (spot part) and I-6 of
//! the IRPF spec imported as generic CSV files, every box of the guide in English and in
//! Spanish with exact figures; the Spanish guide of the demo ledger as a snapshot; several
//! years at once; language errors.

use std::path::{Path, PathBuf};

use crate::support::{DemoLedger, run_at, stderr, stdout};

const HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,\
                      fee_amount,fiat_value,fiat_currency,id,group_id,note\n";

/// A ledger built from generic CSV rows (and optional daily prices).
struct Worked {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Worked {
    fn new(rows: &str, prices: Option<&str>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("rows.csv");
        std::fs::write(&csv, format!("{HEADER}{rows}")).unwrap();
        let path = dir.path().join("ledger.sqlite");
        let csv_arg = csv.display().to_string();
        let out = run_at(&path, &["import", &csv_arg, "--format", "generic"]);
        assert!(out.status.success(), "import: {}", stderr(&out));
        if let Some(prices) = prices {
            let file = dir.path().join("prices.csv");
            std::fs::write(&file, format!("date,symbol,close,currency\n{prices}")).unwrap();
            let file_arg = file.display().to_string();
            let out = run_at(&path, &["prices", "import", &file_arg]);
            assert!(out.status.success(), "prices: {}", stderr(&out));
        }
        Self { _dir: dir, path }
    }

    fn tax(&self, year: &str, lang: &str) -> String {
        tax_at(&self.path, year, lang)
    }
}

fn tax_at(path: &Path, year: &str, lang: &str) -> String {
    let out = run_at(path, &["tax", year, "--lang", lang]);
    assert!(out.status.success(), "tax {year}: {}", stderr(&out));
    stdout(&out)
}

/// The guide part of a tax report (from its title to the warnings).
fn guide_part(text: &str) -> &str {
    let start = text
        .find("Renta Web guide")
        .or_else(|| text.find("Guía para Renta Web"))
        .expect("the report has a guide");
    let end = text[start..]
        .find("\nWarnings:")
        .or_else(|| text[start..].find("\nAvisos:"))
        .map_or(text.len(), |e| start + e);
    &text[start..end]
}

/// Every `(box, amount)` of the box list, in order.
fn boxes(guide: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in guide.lines() {
        if line.starts_with("Boxes and amounts") || line.starts_with("Casillas e importes") {
            inside = true;
            continue;
        }
        if inside && line.is_empty() {
            break;
        }
        let mut words = line.split_whitespace();
        if let (true, Some(number)) = (inside, words.next())
            && number.len() == 4
            && number.bytes().all(|b| b.is_ascii_digit())
        {
            let amount = line.split_whitespace().last().unwrap().to_owned();
            out.push((number.to_owned(), amount));
        }
    }
    out
}

/// The amount after `→ NNNN` on each element line.
fn arrows(guide: &str, number: &str) -> Vec<String> {
    let marker = format!("→ {number}");
    guide
        .lines()
        .filter_map(|l| l.split_once(&marker))
        .map(|(_, rest)| rest.trim().to_owned())
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

const I4: &str = "\
2022-11-09T10:00:00Z,BUY,Kraken,BTC,10,EUR,183953.18,EUR,183.95,,,d1,,
2024-03-15T10:00:00Z,SELL,Kraken,EUR,524828.32,BTC,8,EUR,524.83,,,d2,,
2024-06-20T10:00:00Z,AIRDROP,Kraken,ZRO,1000,,,,,800.00,EUR,d3,,
2024-06-30T10:00:00Z,STAKING,Kraken,ETH,0.4,,,,,1200.00,EUR,d4,,
";

#[test]
fn i4_every_box_in_english_and_in_spanish() {
    let ledger = Worked::new(I4, None);
    let en = ledger.tax("2024", "en");
    let g = guide_part(&en);
    assert!(
        g.contains("Element 1: 1802 BITCOIN (BTC) · 1803 F (legal tender)"),
        "{g}"
    );
    assert!(
        g.contains("Transmission: amount        524828.32   expenses         524.83"),
        "{g}"
    );
    assert_eq!(arrows(g, "1804"), ["524303.49"]);
    assert_eq!(arrows(g, "1806"), ["147309.70"]);
    assert!(g.contains("1809 gain 376993.79"), "{g}");
    assert_eq!(
        boxes(g),
        pairs(&[
            ("1813", "0.00"),
            ("1814", "376993.79"),
            ("0033", "1200.00"),
            ("0304", "800.00"),
        ])
    );
    let es = ledger.tax("2024", "es");
    let g = guide_part(&es);
    assert!(
        g.contains("Elemento 1: 1802 BITCOIN (BTC) · 1803 F (moneda de curso legal)"),
        "{g}"
    );
    assert!(
        g.contains("Transmisión:  importe       524.828,32   gastos         524,83"),
        "{g}"
    );
    assert_eq!(arrows(g, "1804"), ["524.303,49"]);
    assert_eq!(arrows(g, "1806"), ["147.309,70"]);
    assert!(g.contains("1809 ganancia 376.993,79"), "{g}");
    assert_eq!(
        boxes(g),
        pairs(&[
            ("1813", "0,00"),
            ("1814", "376.993,79"),
            ("0033", "1.200,00"),
            ("0304", "800,00"),
        ])
    );
    assert!(
        g.contains(" 0033  Otros rendimientos del capital mobiliario"),
        "{g}"
    );
}

const I6: &str = "\
2023-02-01T10:00:00Z,BUY,Kraken,DOT,100,EUR,500.00,,,,,f1,,
2023-03-01T10:00:00Z,SELL,Kraken,EUR,420.00,DOT,100,,,,,f2,,
2023-03-20T10:00:00Z,BUY,Kraken,DOT,100,EUR,430.00,,,,,f3,,
2023-03-23T10:00:00Z,AIRDROP,Kraken,ARB,20,,,,,24.00,EUR,f5,,
2023-04-01T10:00:00Z,STAKING,Kraken,DOT,5,,,,,,,f4,,
2023-05-01T10:00:00Z,MINING,Rig,BTC,0.001,,,,,25.00,EUR,f6,,
2023-06-01T10:00:00Z,SELL,Kraken,EUR,60.00,SOL,1,,,,,f7,,
2023-07-01T10:00:00Z,STAKING,Kraken,DOT,10,,,,,50.00,EUR,f8,,
2024-03-01T10:00:00Z,SELL,Kraken,EUR,700.00,DOT,100,,,,,f9,,
";

#[test]
fn i6_every_box_of_both_years_in_english_and_in_spanish() {
    let ledger = Worked::new(I6, None);
    let en = ledger.tax("2023", "en");
    let g = guide_part(&en);
    assert_eq!(arrows(g, "1804"), ["420.00"]);
    assert_eq!(arrows(g, "1806"), ["500.00"]);
    assert!(g.contains("1807 loss 80.00 (= 1808)"), "{g}");
    assert_eq!(
        boxes(g),
        pairs(&[
            ("1813", "80.00"),
            ("1814", "0.00"),
            ("0033", "50.00"),
            ("0304", "24.00"),
            ("0446", "12.50"),
            ("1270", "67.50"),
        ])
    );
    assert!(g.contains("mining (25.00 EUR)"), "{g}");
    assert!(g.contains("The year is incomplete"), "{g}");
    let es = ledger.tax("2023", "es");
    let g = guide_part(&es);
    assert!(g.contains("1807 pérdida 80,00 (= 1808)"), "{g}");
    assert_eq!(
        boxes(g),
        pairs(&[
            ("1813", "80,00"),
            ("1814", "0,00"),
            ("0033", "50,00"),
            ("0304", "24,00"),
            ("0446", "12,50"),
            ("1270", "67,50"),
        ])
    );
    assert!(g.contains("la minería (25,00 EUR)"), "{g}");

    let en = ledger.tax("2024", "en");
    let g = guide_part(&en);
    assert_eq!(
        boxes(g),
        pairs(&[("1813", "0.00"), ("1814", "270.00"), ("0442", "67.50")])
    );
    assert!(
        g.contains(" 0442  2023 negative savings gains balance set against gains"),
        "{g}"
    );
    assert!(
        g.contains(" 2023    1267            67.50  1268            67.50  1269             0.00"),
        "{g}"
    );
    let es = ledger.tax("2024", "es");
    let g = guide_part(&es);
    assert_eq!(
        boxes(g),
        pairs(&[("1813", "0,00"), ("1814", "270,00"), ("0442", "67,50")])
    );
    assert!(
        g.contains(" 0442  Saldo neto negativo de ganancias y pérdidas del ahorro de 2023"),
        "{g}"
    );
    assert!(
        g.contains(" 2023    1267            67,50  1268            67,50  1269             0,00"),
        "{g}"
    );
}

const I5_SPOT: &str = "\
2021-04-01T10:00:00Z,BUY,Binance,ETH,1,EUR,1700.00,,,,,e1,,
2022-01-02T10:00:00Z,BUY,Binance,ETH,1,EUR,3300.00,,,,,e2,,
2022-03-01T10:00:00Z,SELL,Binance,EUR,1300.00,ETH,0.5,EUR,1.30,,,e3,,
2022-06-02T10:00:00Z,SWAP,Binance,BTC,0.04,ETH,1,,,,,e4,,
2023-01-02T10:00:00Z,BUY,Kraken,SOL,1,EUR,20.00,,,,,e7,,
2023-12-01T10:00:00Z,SELL,Kraken,EUR,120.00,SOL,1,,,,,e8,,
";

#[test]
fn i5_spot_a_year_outside_the_tables_and_the_loss_used_in_2023() {
    // Without the network fee and the derivatives of I-5, 2022 loses 351.30: ETH F +448.70,
    // ETH N 0.00 and −800.00.
    let ledger = Worked::new(
        I5_SPOT,
        Some("2022-06-02,ETH,1700.00,EUR\n2022-06-02,BTC,27983.72,EUR\n"),
    );
    for lang in ["en", "es"] {
        let text = ledger.tax("2022", lang);
        let g = guide_part(&text);
        assert!(g.contains("2023, 2024, 2025"), "{g}");
        assert!(!g.contains("1804"), "{g}");
    }
    let english = ledger.tax("2023", "en");
    let g = guide_part(&english);
    assert_eq!(arrows(g, "1804"), ["120.00"]);
    assert_eq!(
        boxes(g),
        pairs(&[("1813", "0.00"), ("1814", "100.00"), ("0442", "100.00")])
    );
    assert!(
        g.contains(" 2022    1267           351.30  1268           100.00  1269           251.30"),
        "{g}"
    );
    let spanish = ledger.tax("2023", "es");
    let g = guide_part(&spanish);
    assert_eq!(
        boxes(g),
        pairs(&[("1813", "0,00"), ("1814", "100,00"), ("0442", "100,00")])
    );
    assert!(
        g.contains(" 2022    1267           351,30  1268           100,00  1269           251,30"),
        "{g}"
    );
}

#[test]
fn the_spanish_guide_of_the_demo_year_2024() {
    let demo = DemoLedger::build();
    let text = demo.ok(&["tax", "2024", "--lang", "es"]);
    insta::assert_snapshot!("guide_2024_es", guide_part(&text));
    for line in guide_part(&text).lines() {
        assert!(line.chars().count() <= 100, "over 100 columns: {line}");
    }
}

#[test]
fn several_years_print_each_year_and_the_chain_and_json_lists_the_documents() {
    let demo = DemoLedger::build();
    let text = demo.ok(&["tax", "2022..2024"]);
    for year in ["IRPF 2022", "IRPF 2023", "IRPF 2024"] {
        assert!(text.contains(year), "{year}");
    }
    let chain = &text[text.find("Carry-forward chain 2022–2024").expect("chain")..];
    assert!(
        chain.contains(" 2023      431.81      0.00      0.00                 1017.70"),
        "{chain}"
    );
    assert!(
        chain.contains(" 2024        0.00   1017.70      0.00                    0.00"),
        "{chain}"
    );
    let list = demo.json(&["tax", "2022..2024"]);
    let singles: Vec<serde_json::Value> = ["2022", "2023", "2024"]
        .iter()
        .map(|y| demo.json(&["tax", y]))
        .collect();
    assert_eq!(list, serde_json::Value::Array(singles));
    let backwards = demo.run(&["tax", "2024..2022"]);
    assert_eq!(backwards.status.code(), Some(2));
    assert!(stderr(&backwards).contains("2022..2024"));
}

#[test]
fn an_unknown_language_is_a_usage_error() {
    let demo = DemoLedger::build();
    let out = demo.run(&["tax", "2024", "--lang", "fr"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--lang es"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    // Spanish labels and numbers; JSON is the same in both languages.
    let portfolio = demo.ok(&["portfolio", "--lang", "es"]);
    assert!(portfolio.starts_with("Cartera a "), "{portfolio}");
    assert!(
        portfolio.contains(" patrimonio           10.442,35 EUR"),
        "{portfolio}"
    );
    let tax = demo.ok(&["tax", "2024", "--lang", "es"]);
    assert!(
        tax.contains(" ganancias patrimoniales                       2.221,92"),
        "{tax}"
    );
    assert_eq!(
        demo.ok(&["--json", "tax", "2024", "--lang", "es"]),
        demo.ok(&["--json", "tax", "2024"])
    );
    // The locale chooses Spanish when no flag is given.
    let out = crate::support::cartera()
        .env("CARTERA_NOW", crate::support::TEST_NOW)
        .env("LANG", "es_ES.UTF-8")
        .arg("--ledger")
        .arg(&demo.path)
        .args(["tax", "2024"])
        .output()
        .unwrap();
    assert!(stdout(&out).contains("Resumen (EUR)"), "{}", stdout(&out));
}

#[test]
fn the_721_and_714_worksheets_are_written_by_extension_and_printed() {
    let demo = DemoLedger::build();
    demo.ok(&[
        "accounts",
        "set",
        "Kraken",
        "--kind",
        "FOREIGN_PROVIDER",
        "--country",
        "US",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("m721.csv");
    let json = dir.path().join("m714.json");
    let text = demo.ok(&[
        "tax",
        "2024",
        "--modelo721",
        csv.to_str().unwrap(),
        "--modelo714",
        json.to_str().unwrap(),
    ]);
    assert!(text.contains("Modelo 721 worksheet (for the AEAT form; not the XML message)"));
    assert!(
        text.contains("not over 50000.00 EUR: no filing is due"),
        "{text}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(
        rows.lines().collect::<Vec<_>>(),
        [
            "Clave,NombreRazon,NIF,CodigoPais,IDType,ID,DenominacionMonedaVirtual,\
             SiglasMonedaVirtual,NumMonedas,ValorMonedas,OrigenValorMonedas,\
             SaldoMonedasVirtuales,OrigenMonedaVirtual",
            "T,Kraken,,US,,,BITCOIN (BTC),BTC,0.009650,88676.350000,daily close of 2024-12-31 \
             in EUR (cartera price store),855.73,A",
            "T,Kraken,,US,,,POLKADOT (DOT),DOT,172.464300,6.788600,daily close of 2024-12-31 \
             in EUR (cartera price store),1170.79,A",
        ]
    );
    let q: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(q["total46"], "10442.36");
    let printed: Vec<&str> = q["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["value"].as_str().unwrap())
        .collect();
    assert_eq!(printed, ["5289.55", "1170.79", "3982.02"]);
    assert_eq!(q["roundingDifference"], "-0.0072690496");
    let es = demo.ok(&[
        "tax",
        "2024",
        "--lang",
        "es",
        "--modelo714",
        json.to_str().unwrap(),
    ]);
    assert!(
        es.contains(
            " Total, casilla 46                                                       10.442,36"
        ),
        "{es}"
    );

    // A file of another kind is a usage error, and nothing is written.
    let other = dir.path().join("m721.txt");
    let out = demo.run(&["tax", "2024", "--modelo721", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("name a .csv or a .json file"));
    assert!(!other.exists());
}

/// The Chromium executable, when installed.
fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// A headless screenshot of `url`: the PNG's bytes and the browser's stderr.
fn screenshot(browser: &Path, url: &str, dir: &Path, name: &str) -> (Vec<u8>, String) {
    let png = dir.join(format!("{name}.png"));
    let profile = dir.join(format!("{name}-profile"));
    let out = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
            "--hide-scrollbars",
            "--window-size=1000,1400",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(url)
        .output()
        .expect("chromium runs");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    (std::fs::read(&png).unwrap_or_default(), log)
}

#[test]
fn the_html_report_is_self_contained_and_renders_in_chromium() {
    let demo = DemoLedger::build();
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("irpf-2024.html");
    demo.ok(&["tax", "2024", "--html", html.to_str().unwrap()]);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    for section in [
        "Summary (EUR)",
        "Renta Web guide",
        "Modelo 100 rows",
        "Annex: every disposal",
        "Carry-forward by origin year",
        "Modelo 721 and Modelo 714",
        "Data quality",
    ] {
        assert!(page.contains(section), "{section}");
    }
    assert_eq!(page.matches("<svg").count(), 4, "four charts");
    // Nothing from the network: no external reference at all.
    for external in ["http://", "https://", "src=", "<link", "<script", "@import"] {
        let hits: Vec<&str> = page
            .match_indices(external)
            .map(|(i, _)| &page[i..(i + 40).min(page.len())])
            .filter(|s| !s.starts_with("http://www.w3.org/2000/svg"))
            .collect();
        assert!(hits.is_empty(), "{external}: {hits:?}");
    }
    insta::assert_snapshot!("html_2024", page);

    let Some(browser) = chromium() else {
        #[allow(
            clippy::disallowed_methods,
            reason = "CI must render the page, not skip it"
        )]
        let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
        assert!(!in_ci, "CI renders the HTML: .ci/run installs chromium");
        eprintln!(
            "SKIPPED: chromium is not installed (apt-get install chromium); the HTML was not rendered"
        );
        return;
    };
    let (shot, log) = screenshot(
        &browser,
        &format!("file://{}", html.display()),
        dir.path(),
        "report",
    );
    let (blank, _) = screenshot(&browser, "about:blank", dir.path(), "blank");
    assert!(shot.starts_with(b"\x89PNG"), "no screenshot: {log}");
    assert!(
        shot.len() > blank.len() * 3,
        "the screenshot looks blank ({} bytes, a blank page {})",
        shot.len(),
        blank.len()
    );
    let errors: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("net::ERR"))
        .collect();
    assert!(errors.is_empty(), "the browser logged errors: {errors:?}");
}

#[test]
fn an_unwritable_html_path_fails_and_writes_nothing() {
    let demo = DemoLedger::build();
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("no-such-folder").join("report.html");
    let out = demo.run(&["tax", "2024", "--html", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert!(!target.exists());
    // A CSV folder that is a file.
    let file = dir.path().join("file.csv");
    std::fs::write(&file, "x").unwrap();
    let out = demo.run(&["tax", "2024", "--csv", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("that is a file, not a folder"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn excel_es_csv_reads_back_with_semicolons_and_decimal_commas() {
    let demo = DemoLedger::build();
    let dir = tempfile::tempdir().unwrap();
    let rfc = dir.path().join("rfc");
    let es = dir.path().join("es");
    demo.ok(&["tax", "2024", "--csv", rfc.to_str().unwrap()]);
    demo.ok(&[
        "tax",
        "2024",
        "--csv",
        es.to_str().unwrap(),
        "--csv-dialect",
        "excel-es",
    ]);
    for name in ["modelo100_2024.csv", "annex_2024.csv"] {
        let plain = std::fs::read_to_string(rfc.join(name)).unwrap();
        let spanish = std::fs::read(es.join(name)).unwrap();
        assert!(spanish.starts_with(b"\xef\xbb\xbf"), "{name}: no BOM");
        let spanish = String::from_utf8(spanish[3..].to_vec()).unwrap();
        let read = |text: &str, sep: char, decimal: char| -> Vec<Vec<String>> {
            text.lines()
                .map(|l| {
                    l.trim_end_matches('\r')
                        .split(sep)
                        .map(|c| {
                            let digits = c.trim_start_matches('-');
                            if decimal == ','
                                && digits.contains(',')
                                && digits.replace(',', "").bytes().all(|b| b.is_ascii_digit())
                            {
                                c.replace(',', ".")
                            } else {
                                c.to_owned()
                            }
                        })
                        .collect()
                })
                .collect()
        };
        let a = read(&plain, ',', '.');
        let b = read(&spanish, ';', ',');
        assert_eq!(a, b, "{name}");
        assert!(
            spanish.contains(";2221,92;") || name.starts_with("annex"),
            "{spanish}"
        );
    }
}

#[test]
fn the_display_language_setting_chooses_the_language_and_lang_wins() {
    let demo = DemoLedger::build();
    let with_locale = |locale: &str, args: &[&str]| {
        let out = crate::support::cartera()
            .env("CARTERA_NOW", crate::support::TEST_NOW)
            .env("LANG", locale)
            .arg("--ledger")
            .arg(&demo.path)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    // Unset: the locale decides.
    assert!(with_locale("C", &["portfolio"]).starts_with("Portfolio on "));
    assert!(with_locale("es_ES.UTF-8", &["portfolio"]).starts_with("Cartera a "));
    let bad = demo.run(&["settings", "set", "display_language", "\"fr\""]);
    assert_eq!(bad.status.code(), Some(1), "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("display_language: must be \"es\" or \"en\""),
        "{}",
        stderr(&bad)
    );
    demo.ok(&["settings", "set", "display_language", "\"es\""]);
    // The setting beats an English locale; `--lang` beats the setting.
    let spanish = with_locale("C", &["portfolio"]);
    assert!(spanish.starts_with("Cartera a "), "{spanish}");
    assert!(
        spanish.contains(" patrimonio           10.442,35 EUR"),
        "{spanish}"
    );
    assert!(with_locale("C", &["portfolio", "--lang", "en"]).starts_with("Portfolio on "));
    demo.ok(&["settings", "set", "display_language", "\"en\""]);
    // The setting beats a Spanish locale.
    assert!(with_locale("es_ES.UTF-8", &["portfolio"]).starts_with("Portfolio on "));
    assert!(with_locale("C", &["portfolio", "--lang", "es"]).starts_with("Cartera a "));
}
