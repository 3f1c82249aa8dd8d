//! The Renta Web guide of `cartera tax YEAR`, and the report's warnings and assumptions as
//! sentences, in English or Spanish. Every line fits [`WIDTH`] columns: the crypto elements
//! are stacked, one block each, and long labels wrap.

use std::fmt::Write as _;

use core_domain::irpf::guide::box_table;
use shared_types::dto::{GuideNoteDto, RentaGuideDto};

use crate::i18n::{es, num, num_opt, paragraph, t, wrap};

/// The widest line a report prints.
pub(crate) const WIDTH: usize = 100;

/// Amount column width in the box list.
const AMOUNT: usize = 16;

/// The label of `number` in the output's language: the form's own Spanish label from the DTO,
/// or the English rendering of the year's box table.
fn label(guide: &RentaGuideDto, number: &str, spanish_label: &str) -> String {
    if es() {
        return spanish_label.to_owned();
    }
    box_table(guide.ejercicio)
        .and_then(|table| table.get(number))
        .map_or_else(
            || spanish_label.to_owned(),
            |def| def.label(false, guide.ejercicio),
        )
}

/// One `box  label …  amount` line, the label wrapped under itself.
fn box_line(number: &str, label: &str, amount: &str) -> String {
    let label_width = WIDTH - 1 - number.len() - 2 - 1 - AMOUNT;
    let lines = wrap(label, label_width);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i == 0 {
            let _ = writeln!(
                out,
                " {number}  {line:<label_width$} {amount:>AMOUNT$}",
                amount = num(amount)
            );
        } else {
            let _ = writeln!(out, " {:width$}  {line}", "", width = number.len());
        }
    }
    // No trailing spaces when the amount is empty.
    out.lines()
        .map(str::trim_end)
        .fold(String::new(), |mut acc, l| {
            acc.push_str(l);
            acc.push('\n');
            acc
        })
}

fn clave_text(clave: &str) -> &'static str {
    match clave {
        "F" => t("legal tender", "moneda de curso legal"),
        "N" => t("another virtual currency", "otra moneda virtual"),
        "O" => t("another virtual asset", "otro activo virtual"),
        "B" => t("goods or services", "bienes o servicios"),
        _ => "",
    }
}

#[allow(
    clippy::too_many_lines,
    reason = "one sentence per note code, in both languages"
)]
fn note_text(note: &GuideNoteDto, guide: &RentaGuideDto) -> String {
    let amount = num_opt(note.amount.as_ref());
    match note.code.as_str() {
        "ROW_LIMIT_EXCEEDED" => {
            let rows = note.rows.unwrap_or_default();
            let before = note.rows_before.unwrap_or_default();
            let limit = note.limit.unwrap_or_default();
            let still = if rows > limit {
                if es() {
                    format!(
                        " Aun así quedan {rows} elementos, más de los {limit}: agrupe usted monedas \
                         menores o presente un segundo titular; cartera no mezcla monedas distintas."
                    )
                } else {
                    format!(
                        " That still leaves {rows} elements, over the {limit}: group minor coins \
                         yourself; cartera never merges different coins."
                    )
                }
            } else {
                String::new()
            };
            if es() {
                format!(
                    "Hay {before} elementos (uno por moneda, clave y signo) y Renta Web admite {limit} \
                     por titular en {year}. Se han agrupado por moneda y clave, compensando ganancias \
                     y pérdidas de cada moneda: la base del ahorro es la misma, pero 1813 y 1814 son \
                     menores que las sumas brutas.{still}",
                    year = guide.ejercicio
                )
            } else {
                format!(
                    "There are {before} elements (one per coin, clave and sign) and Renta Web takes \
                     {limit} per titular in {year}. They are grouped per coin and clave, each coin's \
                     gains and losses netted: the savings base is the same, but 1813 and 1814 are \
                     smaller than the gross sums.{still}",
                    year = guide.ejercicio
                )
            }
        }
        "ACQUISITION_FEES_INCLUDED" => t(
            "Purchase fees are included in the acquisition amount (cartera keeps each lot's cost \
             with its fees), so the acquisition expenses are 0.00: 1806 is the same either way.",
            "Los gastos de compra están incluidos en el importe de adquisición (cartera guarda el \
             coste de cada lote con sus gastos), por lo que los gastos de adquisición son 0,00: \
             1806 es el mismo.",
        )
        .to_owned(),
        "BANKRUPTCY_OR_FRAUD_LOSS" => t(
            "Uncertain: losses from an exchange's bankruptcy or a fraud are not recorded by \
             cartera. Rule applied: the AEAT manual places them in the general base, box 0305, \
             once the credit is judicially uncollectible (art. 14.2.k LIRPF); the AEAT virtual \
             assistant points to 1804 instead. Add such a loss yourself in 0305.",
            "Dudoso: cartera no registra pérdidas por la quiebra de un exchange o por un fraude. \
             Regla aplicada: el manual de la AEAT las lleva a la base general, casilla 0305, cuando \
             el crédito es judicialmente incobrable (art. 14.2.k LIRPF); el asistente virtual de la \
             AEAT indica 1804. Añada usted esa pérdida en 0305.",
        )
        .to_owned(),
        "MINING" => {
            if es() {
                format!(
                    "Dudoso: la minería ({amount} EUR) se trata como actividad económica. Regla \
                     aplicada: son ingresos de explotación (casilla 0171, estimación directa); \
                     cartera no calcula los gastos de la actividad ni la tributa."
                )
            } else {
                format!(
                    "Uncertain: mining ({amount} EUR) is treated as an economic activity. Rule \
                     applied: it is operating income (box 0171, direct assessment); cartera does \
                     not compute the activity's expenses nor tax it."
                )
            }
        }
        "FORK" => t(
            "Uncertain: a coin received in a fork was sold. Rule applied: its acquisition value \
             is zero and the sale is a transmission (1804); some advisers treat the fork as an \
             airdrop (0304) instead.",
            "Dudoso: se vendió una moneda recibida en un fork. Regla aplicada: su valor de \
             adquisición es cero y la venta es una transmisión (1804); algunos asesores la tratan \
             como un airdrop (0304).",
        )
        .to_owned(),
        "DERIVATIVES" => {
            if es() {
                format!(
                    "Los derivados (resultado neto {amount} EUR) se declaran entre las ganancias y \
                     pérdidas de otros elementos patrimoniales; esta guía no les asigna casilla."
                )
            } else {
                format!(
                    "Derivatives (net result {amount} EUR) are declared among the gains and losses \
                     of other patrimonial elements; this guide gives them no box."
                )
            }
        }
        "INCOMPLETE" => t(
            "The year is incomplete: some operations are left out of these amounts (see the \
             completeness section); fix them before filing.",
            "El ejercicio está incompleto: algunas operaciones no entran en estos importes (véase \
             la sección de completitud); corríjalas antes de presentar.",
        )
        .to_owned(),
        other => other.to_owned(),
    }
}

/// The guide section of the tax report.
#[allow(
    clippy::too_many_lines,
    reason = "the guide's sections in form order, each in both languages"
)]
pub(crate) fn render_guide(guide: &RentaGuideDto) -> String {
    let year = guide.ejercicio;
    let covered = guide
        .covered_ejercicios
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = String::new();
    if !guide.covered {
        let _ = writeln!(out, "{}", t("Renta Web guide", "Guía para Renta Web"));
        let text = if es() {
            format!(
                "La guía casilla a casilla cubre los ejercicios {covered}; para {year} use las \
                 cifras del informe."
            )
        } else {
            format!(
                "The box-by-box guide covers ejercicios {covered}; for {year} use the report's \
                 figures."
            )
        };
        out.push_str(&paragraph(&text, 1));
        return out;
    }
    let campaign = box_table(year).map(|t| t.campaign);
    let _ = write!(
        out,
        "{} {year}",
        t(
            "Renta Web guide, ejercicio",
            "Guía para Renta Web, ejercicio"
        )
    );
    if let Some((from, to)) = campaign {
        let _ = write!(out, " ({} {from} … {to})", t("campaign", "campaña"));
    }
    out.push('\n');

    let limit = guide.row_limit.unwrap_or_default();
    let _ = writeln!(
        out,
        "\n{}",
        t(
            "Virtual currencies (boxes 1800–1814)",
            "Monedas virtuales (casillas 1800–1814)"
        )
    );
    if guide.crypto_rows.is_empty() {
        out.push_str(&paragraph(
            t(
                "No transmission of virtual currencies in the year: nothing to enter.",
                "Ninguna transmisión de monedas virtuales en el ejercicio: nada que declarar.",
            ),
            1,
        ));
    } else {
        let aggregation = if guide.aggregation == "PER_COIN_CLAVE" {
            t("one per coin and clave", "uno por moneda y clave")
        } else {
            t(
                "one per coin, clave and sign",
                "uno por moneda, clave y signo",
            )
        };
        let intro = if es() {
            format!(
                "En Ganancias y pérdidas patrimoniales › Monedas virtuales, pulse la casilla 1804 y \
                 añada un elemento por bloque: {} elementos ({aggregation}) de un máximo de {limit}. \
                 Todos los importes son positivos, como los pide el formulario.",
                guide.crypto_rows.len()
            )
        } else {
            format!(
                "In Ganancias y pérdidas patrimoniales › Monedas virtuales, click box 1804 and add \
                 one element per block: {} elements ({aggregation}) of at most {limit}. Every \
                 amount is positive, as the form takes it.",
                guide.crypto_rows.len()
            )
        };
        out.push_str(&paragraph(&intro, 1));
        for (i, row) in guide.crypto_rows.iter().enumerate() {
            let _ = writeln!(
                out,
                "\n {} {}: 1802 {} · 1803 {} ({})",
                t("Element", "Elemento"),
                i + 1,
                row.coin,
                row.clave,
                clave_text(&row.clave)
            );
            let (amount, expenses) = (t("amount", "importe"), t("expenses", "gastos"));
            let _ = writeln!(
                out,
                "   {:<13} {amount} {:>16}   {expenses} {:>14}   → 1804 {:>16}",
                t("Transmission:", "Transmisión:"),
                num(&row.transmission_amount),
                num(&row.transmission_expenses),
                num(&row.box1804)
            );
            let _ = writeln!(
                out,
                "   {:<13} {amount} {:>16}   {expenses} {:>14}   → 1806 {:>16}",
                t("Acquisition:", "Adquisición:"),
                num(&row.acquisition_amount),
                num(&row.acquisition_expenses),
                num(&row.box1806)
            );
            match (&row.box1807, &row.box1809) {
                (Some(loss), _) => {
                    let _ = writeln!(
                        out,
                        "   1807 {} {} (= 1808)",
                        t("loss", "pérdida"),
                        num(loss)
                    );
                }
                (None, Some(gain)) => {
                    let _ = writeln!(
                        out,
                        "   1809 {} {} (= 1811 = 1812)",
                        t("gain", "ganancia"),
                        num(gain)
                    );
                }
                (None, None) => {}
            }
        }
    }

    let _ = writeln!(
        out,
        "\n{}",
        t("Boxes and amounts (EUR)", "Casillas e importes (EUR)")
    );
    if guide.boxes.is_empty() {
        out.push_str(&paragraph(
            t(
                "No other box takes an amount this year.",
                "Ninguna otra casilla lleva importe este ejercicio.",
            ),
            1,
        ));
    }
    for b in &guide.boxes {
        let text = label(guide, &b.number, &b.label);
        out.push_str(&box_line(&b.number, &text, &b.amount));
    }
    if !guide.pending.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            t(
                "Annex C.3: savings transmission losses pending, by origin year (EUR)",
                "Anexo C.3: saldos negativos de ganancias del ahorro pendientes, por año de origen (EUR)"
            )
        );
        let _ = writeln!(
            out,
            " {:<6} {:>22} {:>22} {:>22}",
            t("year", "año"),
            t("pending at start", "pendiente al inicio"),
            t("applied", "aplicado"),
            t("pending after", "pendiente después")
        );
        for p in &guide.pending {
            let cell = |number: Option<&String>, amount: &str| {
                format!("{} {:>16}", number.map_or("", String::as_str), num(amount))
            };
            let _ = writeln!(
                out,
                " {:<6} {:>22} {:>22} {:>22}",
                p.origin_year,
                cell(p.boxes.first(), &p.at_start),
                cell(p.boxes.get(1), &p.applied),
                cell(p.boxes.get(2), &p.pending_after)
            );
        }
    }
    if !guide.notes.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            t("Check before filing", "Revise antes de presentar")
        );
        for note in &guide.notes {
            let text = note_text(note, guide);
            let lines = wrap(&text, WIDTH - 3);
            for (i, line) in lines.iter().enumerate() {
                let _ = writeln!(out, " {} {line}", if i == 0 { "-" } else { " " });
            }
        }
    }
    out
}

/// A report warning as a sentence.
pub(crate) fn warning_text(code: &str) -> String {
    let (en, es_text) = match code {
        "YEAR_BEFORE_START" => (
            "The year is before the first year of the ledger's carry-forward chain: it is computed without earlier losses.",
            "El ejercicio es anterior al primero de la cadena de compensaciones: se calcula sin pérdidas anteriores.",
        ),
        "NO_SAVINGS_SCALE" => (
            "No savings-base scale is known for this year: no tax estimate.",
            "No se conoce la escala del ahorro de este ejercicio: no hay cuota estimada.",
        ),
        "INCOMPLETE" => (
            "Some operations are left out of the figures (see the completeness section).",
            "Algunas operaciones quedan fuera de las cifras (véase la sección de completitud).",
        ),
        "DECLARED_CARRY_FORWARD_EXPIRED" => (
            "A declared carry-forward had already expired and is ignored.",
            "Una pérdida pendiente declarada ya había caducado y se ignora.",
        ),
        "GENERAL_LOSS_ABSORPTION_UNKNOWN" => (
            "A negative general-base balance of 2013 or 2014 was carried whole: set irpf.general_absorption if your return absorbed part of it.",
            "Un saldo negativo de la base general de 2013 o 2014 se arrastra entero: indique irpf.general_absorption si su declaración absorbió una parte.",
        ),
        "GENERAL_BASE_NOT_TAXED" => (
            "General-base items (airdrops, mining) are reported but not taxed here: their tax depends on your other income.",
            "Las partidas de la base general (airdrops, minería) se informan pero no se tributan aquí: su cuota depende de sus otras rentas.",
        ),
        "FORK_ZERO_COST" => (
            "A coin received in a fork was disposed of with a zero acquisition value (no settled doctrine).",
            "Se transmitió una moneda recibida en un fork con valor de adquisición cero (sin doctrina consolidada).",
        ),
        "MIGRATION_NOT_TAXED" => (
            "A token migration happened in the year and was not taxed.",
            "Hubo una migración de token en el ejercicio y no se ha gravado.",
        ),
        "DERIVATIVES_COLLATERAL_NOT_TRACKED" => (
            "A derivative settled in a crypto asset: the collateral's own movements are not tracked.",
            "Un derivado se liquidó en un criptoactivo: los movimientos de la garantía no se siguen.",
        ),
        "ART_33_5_REVIEW" => (
            "Some losses have re-acquisitions within two months: review the art. 33.5 list.",
            "Algunas pérdidas tienen recompras en dos meses: revise la lista del art. 33.5.",
        ),
        other => (other, other),
    };
    t(en, es_text).to_owned()
}

/// A report assumption as a sentence.
pub(crate) fn assumption_text(code: &str) -> String {
    let (en, es_text) = match code {
        "TERRITORIO_COMUN" => (
            "You are resident in territorio común (not the Basque Country or Navarre, which have their own IRPF).",
            "Usted reside en territorio común (no en el País Vasco ni en Navarra, que tienen su propio IRPF).",
        ),
        "LEDGER_IS_COMPLETE" => (
            "The ledger holds all of your crypto activity.",
            "El registro contiene toda su actividad con criptoactivos.",
        ),
        "NO_OTHER_SAVINGS_INCOME" => (
            "You have no other savings income (bank interest, dividends, share sales): add it on the real return, where it compensates with these figures.",
            "No tiene otras rentas del ahorro (intereses, dividendos, venta de acciones): añádalas en la declaración, donde se compensan con estas cifras.",
        ),
        "GENERAL_BASE_NOT_TAXED_BY_PRODUCT" => (
            "General-base items are computed and reported, not taxed: their tax depends on your other income and your region's scale.",
            "Las partidas de la base general se calculan e informan, no se tributan: su cuota depende de sus otras rentas y de la escala de su comunidad.",
        ),
        "NO_MINIMUM_OR_DEDUCTIONS" => (
            "The tax estimate ignores the personal and family minimum, reductions, deductions and withholdings.",
            "La cuota estimada no tiene en cuenta el mínimo personal y familiar, reducciones, deducciones ni retenciones.",
        ),
        other => (other, other),
    };
    t(en, es_text).to_owned()
}

/// The warnings and assumptions blocks of the tax report.
pub(crate) fn render_warnings_and_assumptions(
    warnings: &[String],
    assumptions: &[String],
) -> String {
    let mut out = String::new();
    let _ = write!(out, "\n{}", t("Warnings:", "Avisos:"));
    if warnings.is_empty() {
        let _ = writeln!(out, " {}", t("none", "ninguno"));
    } else {
        out.push('\n');
        for w in warnings {
            bullet(&mut out, &warning_text(w));
        }
    }
    let _ = writeln!(out, "{}", t("Assumptions:", "Supuestos:"));
    for a in assumptions {
        bullet(&mut out, &assumption_text(a));
    }
    out
}

fn bullet(out: &mut String, text: &str) {
    for (i, line) in wrap(text, WIDTH - 3).iter().enumerate() {
        let _ = writeln!(out, " {} {line}", if i == 0 { "-" } else { " " });
    }
}
