//! `cartera tax YEAR --modelo721 FILE --modelo714 FILE`: the Modelo 721 and Modelo 714
//! (apartado Q) worksheets, written as CSV or JSON by the file's extension and printed in the
//! report. They are worksheets for the AEAT forms, not the 721 XML message nor the 714 file.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use shared_types::dto::{ModeloWorksheetsDto, Worksheet714Dto, Worksheet721Dto};

use crate::UsageError;
use crate::i18n::{es, num, num_opt, paragraph, t};

/// The format a worksheet file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// RFC 4180 CSV.
    Csv,
    /// One JSON document.
    Json,
}

/// The format by extension, or a usage error naming the option.
pub(crate) fn kind_of(path: &Path, option: &str) -> Result<FileKind, UsageError> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("csv") => Ok(FileKind::Csv),
        Some("json") => Ok(FileKind::Json),
        _ => Err(UsageError {
            code: "worksheet-extension",
            reason: format!("{option} {}: name a .csv or a .json file", path.display()),
        }),
    }
}

fn cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn line(out: &mut String, cells: &[&str]) {
    let joined: Vec<String> = cells.iter().map(|c| cell(c)).collect();
    out.push_str(&joined.join(","));
    out.push('\n');
}

/// The 721 annex fields, one row per custodian and coin (the annex's own field names).
pub(crate) fn csv_721(w: &Worksheet721Dto) -> String {
    let mut out = String::new();
    line(
        &mut out,
        &[
            "Clave",
            "NombreRazon",
            "NIF",
            "CodigoPais",
            "IDType",
            "ID",
            "DenominacionMonedaVirtual",
            "SiglasMonedaVirtual",
            "NumMonedas",
            "ValorMonedas",
            "OrigenValorMonedas",
            "SaldoMonedasVirtuales",
            "OrigenMonedaVirtual",
        ],
    );
    for r in &w.rows {
        line(
            &mut out,
            &[
                &r.clave,
                &r.custodian,
                "",
                r.country.as_deref().unwrap_or(""),
                "",
                "",
                &r.coin,
                &r.siglas,
                &r.units,
                r.unit_value.as_deref().unwrap_or(""),
                r.value_origin.as_deref().unwrap_or(""),
                r.balance.as_deref().unwrap_or(""),
                &r.origin,
            ],
        );
    }
    out
}

/// Apartado Q, one line per coin and the casilla 46 total.
pub(crate) fn csv_714(w: &Worksheet714Dto) -> String {
    let mut out = String::new();
    line(
        &mut out,
        &[
            "Clave",
            "Titularidad",
            "Descripcion",
            "NumeroUnidades",
            "Valor",
        ],
    );
    for r in &w.rows {
        line(
            &mut out,
            &[
                &r.clave,
                &r.ownership,
                &r.description,
                &r.units,
                r.value.as_deref().unwrap_or(""),
            ],
        );
    }
    line(&mut out, &["TOTAL [46]", "", "", "", &w.total46]);
    out
}

/// Writes `content` to `path` whole or not at all (a temporary file beside it, renamed).
pub(crate) fn write_whole(path: &Path, content: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write {}", path.display()))?;
    std::io::Write::write_all(&mut temp, content)
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Writes one worksheet file.
pub(crate) fn write_file<T: serde::Serialize>(
    path: &Path,
    kind: FileKind,
    value: &T,
    csv: impl FnOnce(&T) -> String,
) -> Result<()> {
    let content = match kind {
        FileKind::Csv => csv(value).into_bytes(),
        FileKind::Json => {
            let mut text =
                serde_json::to_vec_pretty(value).context("cannot serialise the worksheet")?;
            text.push(b'\n');
            text
        }
    };
    write_whole(path, &content)?;
    crate::output::diag!("wrote {}", path.display());
    Ok(())
}

/// The 721 threshold rules' result as a sentence.
pub(crate) fn decision_text(w: &Worksheet721Dto) -> String {
    let total = num(&w.total);
    let threshold = num(&w.threshold);
    let limit = num(&w.increase_limit);
    let window = format!("{} … {}", w.filing_from, w.filing_to);
    let last = num_opt(w.last_filed_total.as_ref());
    let increase = num_opt(w.increase.as_ref());
    match (w.decision.as_str(), es()) {
        ("REQUIRED_FIRST_TIME", false) => format!(
            "Result: the foreign balances total {total} EUR, over {threshold} EUR, and no earlier \
             filing is known: Modelo 721 is due ({window}), every coin with origin A."
        ),
        ("REQUIRED_FIRST_TIME", true) => format!(
            "Resultado: los saldos en el extranjero suman {total} EUR, más de {threshold} EUR, y no \
             consta una declaración anterior: hay que presentar el Modelo 721 ({window}), cada \
             moneda con origen A."
        ),
        ("REQUIRED_INCREASE", false) => format!(
            "Result: the foreign balances total {total} EUR, {increase} EUR above the last filed \
             {last} EUR, more than {limit} EUR: a new Modelo 721 is due ({window})."
        ),
        ("REQUIRED_INCREASE", true) => format!(
            "Resultado: los saldos en el extranjero suman {total} EUR, {increase} EUR más que los \
             {last} EUR de la última declaración, más de {limit} EUR: hay que presentar de nuevo el \
             Modelo 721 ({window})."
        ),
        ("NOT_REQUIRED", false) if w.last_filed_total.is_some() => format!(
            "Result: the foreign balances total {total} EUR, {increase} EUR above the last filed \
             {last} EUR, not more than {limit} EUR: no new filing is due."
        ),
        ("NOT_REQUIRED", true) if w.last_filed_total.is_some() => format!(
            "Resultado: los saldos en el extranjero suman {total} EUR, {increase} EUR respecto a \
             los {last} EUR de la última declaración, no más de {limit} EUR: no hay que presentar."
        ),
        ("NOT_REQUIRED", false) => format!(
            "Result: the foreign balances total {total} EUR, not over {threshold} EUR: no filing \
             is due."
        ),
        ("NOT_REQUIRED", true) => format!(
            "Resultado: los saldos en el extranjero suman {total} EUR, no más de {threshold} EUR: \
             no hay que presentar."
        ),
        ("UNDETERMINED", _) => t(
            "Result: undetermined: an unvalued foreign holding, or an account whose custody kind \
             is not set (`cartera accounts set`), could change it.",
            "Resultado: indeterminado: un saldo sin valorar en el extranjero, o una cuenta sin \
             tipo de custodia (`cartera accounts set`), podría cambiarlo.",
        )
        .to_owned(),
        _ => t(
            "Result: Modelo 721 exists from ejercicio 2023.",
            "Resultado: el Modelo 721 existe desde el ejercicio 2023.",
        )
        .to_owned(),
    }
}

/// The worksheets as a report section.
#[allow(
    clippy::too_many_lines,
    reason = "the two worksheets in turn, each in both languages"
)]
pub(crate) fn render(w: &ModeloWorksheetsDto) -> String {
    let mut out = String::new();
    let m = &w.modelo721;
    let _ = writeln!(
        out,
        "\n{} {}",
        t(
            "Modelo 721 worksheet (for the AEAT form; not the XML message), 31 December",
            "Hoja de trabajo del Modelo 721 (para el formulario de la AEAT; no es el mensaje XML), 31 de diciembre"
        ),
        m.year
    );
    out.push_str(&paragraph(&decision_text(m), 1));
    for (i, r) in m.rows.iter().enumerate() {
        let _ = writeln!(
            out,
            " {}. {} {} · {} {} ({}) · {} {}",
            i + 1,
            t("clave", "clave"),
            r.clave,
            r.custodian,
            r.country.as_deref().unwrap_or("-"),
            t(
                "NIF or ID: from its terms",
                "NIF o ID: según sus condiciones"
            ),
            r.coin,
            r.siglas
        );
        let _ = writeln!(
            out,
            "    {} {} · {} {} EUR · {} {} EUR · {} {}",
            t("units", "unidades"),
            num(&r.units),
            t("per unit", "por unidad"),
            num_opt(r.unit_value.as_ref()),
            t("balance", "saldo"),
            num_opt(r.balance.as_ref()),
            t("origin", "origen"),
            r.origin
        );
        if let Some(origin) = &r.value_origin {
            out.push_str(&paragraph(
                &format!("{} {origin}", t("value from:", "valor de:")),
                4,
            ));
        }
    }
    let q = &w.modelo714;
    let _ = writeln!(
        out,
        "\n{} {}",
        t(
            "Modelo 714 worksheet, apartado Q (virtual currency balances), 31 December",
            "Hoja de trabajo del Modelo 714, apartado Q (saldos en monedas virtuales), 31 de diciembre"
        ),
        q.year
    );
    let _ = writeln!(
        out,
        " {:<5} {:>6}  {:<26} {:>24} {:>16}",
        t("clave", "clave"),
        "%",
        t("description", "descripción"),
        t("units", "unidades"),
        t("value EUR", "valor EUR")
    );
    for r in &q.rows {
        let _ = writeln!(
            out,
            " {:<5} {:>6}  {:<26} {:>24} {:>16}",
            r.clave,
            num(&r.ownership),
            r.description,
            num(&r.units),
            num_opt(r.value.as_ref())
        );
    }
    let _ = writeln!(
        out,
        " {:<64} {:>16}",
        t("Total, casilla 46", "Total, casilla 46"),
        num(&q.total46)
    );
    let note = if es() {
        format!(
            "La casilla 46 es la suma de las líneas impresas, cada una redondeada al céntimo por \
             custodio; sin redondear, las unidades por el cierre suman {} EUR (diferencia {} EUR).",
            num(&q.unrounded_total),
            num(&q.rounding_difference)
        )
    } else {
        format!(
            "Casilla 46 is the sum of the printed lines, each rounded to the cent per custodian; \
             unrounded, the units times the close add up to {} EUR (difference {} EUR).",
            num(&q.unrounded_total),
            num(&q.rounding_difference)
        )
    };
    out.push_str(&paragraph(&note, 1));
    if !q.unvalued.is_empty() {
        out.push_str(&paragraph(
            &format!(
                "{} {}",
                t(
                    "Without a 31 December price, left out of casilla 46:",
                    "Sin precio a 31 de diciembre, fuera de la casilla 46:"
                ),
                q.unvalued.join(", ")
            ),
            1,
        ));
    }
    out
}
