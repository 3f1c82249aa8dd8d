//! The Renta Web guide: where each figure of a year report goes in the Modelo 100 form.
//!
//! The box tables are data, one per ejercicio ([`BOX_TABLES`]): a year without a table gets a
//! guide that says which ejercicios it covers, and its figures stay in the report. The numbers
//! and labels come from the AEAT casilla dictionaries of ejercicios 2023–2025 (the same
//! numbers all three years; the year inside some labels rolls), the row limits from the Renta
//! XSDs (120 crypto elements per titular in 2023 and 2024, 300 in 2025).

use rust_decimal::Decimal;

use super::compensation::Nature;
use super::modelo100::Modelo100Row;
use super::report::{IrpfYearReport, Warning};
use super::settings::CarryKind;
use crate::engine::Clave;
use crate::error::DomainResult;
use crate::num;

/// One casilla of the form. Labels may hold `{Y}` (the ejercicio) and `{O}` (the origin year
/// of a carried-forward amount).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxDef {
    /// The casilla number as the form prints it (`0033`, `1804`).
    pub number: &'static str,
    /// The form's own label, in Spanish.
    pub label_es: &'static str,
    /// An English rendering of the label.
    pub label_en: &'static str,
    /// For a box tied to an earlier year: how many years before the ejercicio.
    pub years_back: Option<u8>,
}

impl BoxDef {
    /// The label with `{Y}` and `{O}` filled in.
    pub fn label(&self, spanish: bool, year: i32) -> String {
        let text = if spanish {
            self.label_es
        } else {
            self.label_en
        };
        let origin = self.years_back.map_or(year, |back| year - i32::from(back));
        text.replace("{Y}", &year.to_string())
            .replace("{O}", &origin.to_string())
    }
}

/// The boxes of one ejercicio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxTable {
    /// The fiscal year (ejercicio) the return declares.
    pub ejercicio: i32,
    /// The most crypto elements (1800–1814 entries) one titular may enter.
    pub crypto_row_limit: usize,
    /// The Renta campaign in which it is filed (ISO dates).
    pub campaign: (&'static str, &'static str),
    /// Every box the guide can name.
    pub boxes: &'static [BoxDef],
}

impl BoxTable {
    /// The box `number`, when the table has it.
    pub fn get(&self, number: &str) -> Option<&'static BoxDef> {
        self.boxes.iter().find(|b| b.number == number)
    }
}

const fn b(number: &'static str, spanish: &'static str, english: &'static str) -> BoxDef {
    BoxDef {
        number,
        label_es: spanish,
        label_en: english,
        years_back: None,
    }
}

const fn back(
    number: &'static str,
    years_back: u8,
    spanish: &'static str,
    english: &'static str,
) -> BoxDef {
    BoxDef {
        number,
        label_es: spanish,
        label_en: english,
        years_back: Some(years_back),
    }
}

/// The boxes of ejercicios 2023, 2024 and 2025 (identical numbers; `{Y}` rolls).
const BOXES_2023_2025: &[BoxDef] = &[
    b(
        "1802",
        "Denominación de la moneda virtual",
        "Name of the virtual currency",
    ),
    b(
        "1803",
        "Clave tipo de contraprestación (F, N, O, B)",
        "Type of consideration received (F, N, O, B)",
    ),
    b("1804", "Valor de transmisión", "Transmission value"),
    b("1806", "Valor de adquisición", "Acquisition value"),
    b(
        "1807",
        "Pérdida patrimonial obtenida",
        "Capital loss (1806 − 1804)",
    ),
    b(
        "1808",
        "Pérdida patrimonial imputable a {Y}",
        "Capital loss imputable to {Y}",
    ),
    b(
        "1809",
        "Ganancia patrimonial obtenida",
        "Capital gain (1804 − 1806)",
    ),
    b(
        "1812",
        "Ganancia no exenta imputable a {Y}",
        "Non-exempt gain imputable to {Y}",
    ),
    b(
        "1813",
        "Suma de pérdidas patrimoniales de monedas virtuales",
        "Sum of virtual-currency losses",
    ),
    b(
        "1814",
        "Suma de ganancias patrimoniales de monedas virtuales",
        "Sum of virtual-currency gains",
    ),
    b(
        "0033",
        "Otros rendimientos del capital mobiliario a integrar en la base imponible del ahorro",
        "Other capital income of the savings base (staking, lending, rewards)",
    ),
    b(
        "0304",
        "Otras ganancias patrimoniales imputables a {Y} no derivadas de transmisiones: importe ganancias",
        "Other gains of {Y} not from a transmission (airdrops, promotions): gains",
    ),
    b(
        "0305",
        "Otras pérdidas patrimoniales imputables a {Y} no derivadas de transmisiones: importe pérdidas",
        "Other losses of {Y} not from a transmission: losses",
    ),
    b(
        "0431",
        "Saldos netos negativos de ganancias y pérdidas de la base general de años anteriores",
        "Earlier years' negative general-base gains balances used",
    ),
    b(
        "0436",
        "Saldo neto negativo de rendimientos del capital mobiliario de {Y} compensado con ganancias (límite 25 %)",
        "{Y} negative capital-income balance set against gains (25 % limit)",
    ),
    back(
        "0439",
        4,
        "Saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con ganancias",
        "{O} negative savings gains balance set against gains",
    ),
    back(
        "0440",
        3,
        "Saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con ganancias",
        "{O} negative savings gains balance set against gains",
    ),
    back(
        "0441",
        2,
        "Saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con ganancias",
        "{O} negative savings gains balance set against gains",
    ),
    back(
        "0442",
        1,
        "Saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con ganancias",
        "{O} negative savings gains balance set against gains",
    ),
    back(
        "0443",
        4,
        "Resto de saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con ganancias (límite 25 %)",
        "Rest of the {O} negative capital-income balance set against gains (25 % limit)",
    ),
    back(
        "0444",
        3,
        "Resto de saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con ganancias (límite 25 %)",
        "Rest of the {O} negative capital-income balance set against gains (25 % limit)",
    ),
    back(
        "0445",
        2,
        "Resto de saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con ganancias (límite 25 %)",
        "Rest of the {O} negative capital-income balance set against gains (25 % limit)",
    ),
    back(
        "0447",
        1,
        "Resto de saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con ganancias (límite 25 %)",
        "Rest of the {O} negative capital-income balance set against gains (25 % limit)",
    ),
    b(
        "0446",
        "Saldo neto negativo de ganancias y pérdidas del ahorro de {Y} compensado con rendimientos (límite 25 %)",
        "{Y} negative savings gains balance set against capital income (25 % limit)",
    ),
    back(
        "0449",
        4,
        "Saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con rendimientos",
        "{O} negative capital-income balance set against capital income",
    ),
    back(
        "0450",
        3,
        "Saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con rendimientos",
        "{O} negative capital-income balance set against capital income",
    ),
    back(
        "0451",
        2,
        "Saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con rendimientos",
        "{O} negative capital-income balance set against capital income",
    ),
    back(
        "0452",
        1,
        "Saldo neto negativo de rendimientos del capital mobiliario de {O} compensado con rendimientos",
        "{O} negative capital-income balance set against capital income",
    ),
    back(
        "0453",
        4,
        "Resto de saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con rendimientos (límite 25 %)",
        "Rest of the {O} negative savings gains balance set against capital income (25 % limit)",
    ),
    back(
        "0454",
        3,
        "Resto de saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con rendimientos (límite 25 %)",
        "Rest of the {O} negative savings gains balance set against capital income (25 % limit)",
    ),
    back(
        "0455",
        2,
        "Resto de saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con rendimientos (límite 25 %)",
        "Rest of the {O} negative savings gains balance set against capital income (25 % limit)",
    ),
    back(
        "0448",
        1,
        "Resto de saldo neto negativo de ganancias y pérdidas del ahorro de {O} compensado con rendimientos (límite 25 %)",
        "Rest of the {O} negative savings gains balance set against capital income (25 % limit)",
    ),
    back(
        "1258",
        4,
        "Anexo C.3, {O}: pendiente de aplicación al principio del periodo",
        "Annex C.3, {O}: pending at the start of the year",
    ),
    back(
        "1259",
        4,
        "Anexo C.3, {O}: aplicado en esta declaración",
        "Annex C.3, {O}: applied in this return",
    ),
    back(
        "1260",
        4,
        "Anexo C.3, {O}: pendiente de aplicación en ejercicios futuros",
        "Annex C.3, {O}: pending for future years",
    ),
    back(
        "1261",
        3,
        "Anexo C.3, {O}: pendiente de aplicación al principio del periodo",
        "Annex C.3, {O}: pending at the start of the year",
    ),
    back(
        "1262",
        3,
        "Anexo C.3, {O}: aplicado en esta declaración",
        "Annex C.3, {O}: applied in this return",
    ),
    back(
        "1263",
        3,
        "Anexo C.3, {O}: pendiente de aplicación en ejercicios futuros",
        "Annex C.3, {O}: pending for future years",
    ),
    back(
        "1264",
        2,
        "Anexo C.3, {O}: pendiente de aplicación al principio del periodo",
        "Annex C.3, {O}: pending at the start of the year",
    ),
    back(
        "1265",
        2,
        "Anexo C.3, {O}: aplicado en esta declaración",
        "Annex C.3, {O}: applied in this return",
    ),
    back(
        "1266",
        2,
        "Anexo C.3, {O}: pendiente de aplicación en ejercicios futuros",
        "Annex C.3, {O}: pending for future years",
    ),
    back(
        "1267",
        1,
        "Anexo C.3, {O}: pendiente de aplicación al principio del periodo",
        "Annex C.3, {O}: pending at the start of the year",
    ),
    back(
        "1268",
        1,
        "Anexo C.3, {O}: aplicado en esta declaración",
        "Annex C.3, {O}: applied in this return",
    ),
    back(
        "1269",
        1,
        "Anexo C.3, {O}: pendiente de aplicación en ejercicios futuros",
        "Annex C.3, {O}: pending for future years",
    ),
    b(
        "1270",
        "Anexo C.3: saldo neto negativo de ganancias y pérdidas del ahorro de {Y} a compensar en los cuatro ejercicios siguientes",
        "Annex C.3: {Y} negative savings gains balance to carry into the next four years",
    ),
    b(
        "1283",
        "Anexo C.3: saldo neto negativo de rendimientos del capital mobiliario de {Y} a compensar en los cuatro ejercicios siguientes",
        "Annex C.3: {Y} negative capital-income balance to carry into the next four years",
    ),
    b(
        "0171",
        "Actividades económicas en estimación directa: ingresos de explotación",
        "Business activity (direct assessment): operating income",
    ),
];

/// The box tables, one per ejercicio, in year order.
pub static BOX_TABLES: [BoxTable; 3] = [
    BoxTable {
        ejercicio: 2023,
        crypto_row_limit: 120,
        campaign: ("2024-04-03", "2024-07-01"),
        boxes: BOXES_2023_2025,
    },
    BoxTable {
        ejercicio: 2024,
        crypto_row_limit: 120,
        campaign: ("2025-04-02", "2025-06-30"),
        boxes: BOXES_2023_2025,
    },
    BoxTable {
        ejercicio: 2025,
        crypto_row_limit: 300,
        campaign: ("2026-04-08", "2026-06-30"),
        boxes: BOXES_2023_2025,
    },
];

/// The table of `year`, when the guide covers it.
pub fn box_table(year: i32) -> Option<&'static BoxTable> {
    BOX_TABLES.iter().find(|t| t.ejercicio == year)
}

/// The ejercicios the guide covers.
pub fn covered_years() -> Vec<i32> {
    BOX_TABLES.iter().map(|t| t.ejercicio).collect()
}

/// The names Renta Web's examples use for common coins (box 1802 takes up to 25 upper-case
/// characters); any other asset is entered by its symbol.
const COIN_NAMES: &[(&str, &str)] = &[
    ("ADA", "CARDANO"),
    ("ALGO", "ALGORAND"),
    ("ARB", "ARBITRUM"),
    ("ATOM", "COSMOS"),
    ("AVAX", "AVALANCHE"),
    ("BCH", "BITCOIN CASH"),
    ("BNB", "BINANCE COIN"),
    ("BTC", "BITCOIN"),
    ("DAI", "DAI"),
    ("DOGE", "DOGECOIN"),
    ("DOT", "POLKADOT"),
    ("ETC", "ETHEREUM CLASSIC"),
    ("ETH", "ETHEREUM"),
    ("KSM", "KUSAMA"),
    ("LINK", "CHAINLINK"),
    ("LTC", "LITECOIN"),
    ("MATIC", "POLYGON"),
    ("NEAR", "NEAR"),
    ("OP", "OPTIMISM"),
    ("POL", "POLYGON"),
    ("SHIB", "SHIBA INU"),
    ("SOL", "SOLANA"),
    ("TRX", "TRON"),
    ("UNI", "UNISWAP"),
    ("USDC", "USD COIN"),
    ("USDT", "TETHER"),
    ("XLM", "STELLAR"),
    ("XMR", "MONERO"),
    ("XRP", "XRP"),
    ("XTZ", "TEZOS"),
    ("ZRO", "LAYERZERO"),
];

/// Box 1802 holds at most this many characters.
const COIN_NAME_MAX: usize = 25;

/// The coin name as box 1802 takes it: `BITCOIN (BTC)` for a known coin, else the symbol,
/// upper case, at most 25 characters.
pub fn coin_name(symbol: &str) -> String {
    let upper = symbol.to_uppercase();
    let text = match COIN_NAMES.binary_search_by(|(s, _)| s.cmp(&upper.as_str())) {
        Ok(i) if COIN_NAMES[i].1 == upper => upper,
        Ok(i) => format!("{} ({upper})", COIN_NAMES[i].1),
        Err(_) => upper,
    };
    text.chars().take(COIN_NAME_MAX).collect()
}

/// How the crypto rows were grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregation {
    /// One element per coin, clave and sign (gains and losses apart): 1813 and 1814 are the
    /// true gross sums.
    PerCoinClaveSign,
    /// One element per coin and clave, its gains and losses netted: fewer elements, the same
    /// savings base, smaller 1813 and 1814.
    PerCoinClave,
}

impl Aggregation {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::PerCoinClaveSign => "PER_COIN_CLAVE_SIGN",
            Self::PerCoinClave => "PER_COIN_CLAVE",
        }
    }
}

/// One element of the crypto block, with the entry window's fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CryptoEntry {
    /// 1802.
    pub coin: String,
    /// The asset symbol.
    pub symbol: String,
    /// 1803.
    pub clave: Clave,
    /// Importe de la transmisión.
    pub transmission_amount: Decimal,
    /// Gastos de la transmisión.
    pub transmission_expenses: Decimal,
    /// 1804 = importe − gastos.
    pub box_1804: Decimal,
    /// Importe de la adquisición (purchase fees included: the lots keep their cost with them).
    pub acquisition_amount: Decimal,
    /// Gastos de la adquisición (0: already inside the importe).
    pub acquisition_expenses: Decimal,
    /// 1806.
    pub box_1806: Decimal,
    /// 1807 (and 1808), a positive magnitude, when 1806 > 1804.
    pub box_1807: Option<Decimal>,
    /// 1809 (and 1812), when 1804 ≥ 1806.
    pub box_1809: Option<Decimal>,
}

/// A box with its amount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuideBox {
    /// The box.
    pub def: &'static BoxDef,
    /// The origin year of a carried amount.
    pub origin_year: Option<i32>,
    /// Positive, as the form takes it.
    pub amount: Decimal,
}

/// A point the guide cannot settle, printed with the rule it applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuideNote {
    /// More crypto elements than the form takes, even after the stated aggregation.
    RowLimitExceeded {
        /// Elements after aggregation.
        rows: usize,
        /// Elements before it.
        rows_before: usize,
        /// The form's limit.
        limit: usize,
        /// What was done.
        aggregation: Aggregation,
    },
    /// Purchase fees are inside the acquisition amount.
    AcquisitionFeesIncluded,
    /// Losses from an exchange bankruptcy or fraud: not recorded by cartera.
    BankruptcyOrFraudLoss,
    /// Mining income: the activity's own section.
    Mining {
        /// `M`.
        amount: Decimal,
    },
    /// A forked coin was sold with a zero acquisition value.
    Fork,
    /// Derivative results: the block of other patrimonial elements.
    Derivatives {
        /// Net result.
        net: Decimal,
    },
    /// Some items are left out of the figures.
    Incomplete,
}

impl GuideNote {
    /// Wire spelling.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::RowLimitExceeded { .. } => "ROW_LIMIT_EXCEEDED",
            Self::AcquisitionFeesIncluded => "ACQUISITION_FEES_INCLUDED",
            Self::BankruptcyOrFraudLoss => "BANKRUPTCY_OR_FRAUD_LOSS",
            Self::Mining { .. } => "MINING",
            Self::Fork => "FORK",
            Self::Derivatives { .. } => "DERIVATIVES",
            Self::Incomplete => "INCOMPLETE",
        }
    }
}

/// Annex C.3 of one origin year (savings transmission losses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingYear {
    /// Origin year.
    pub origin_year: i32,
    /// Pending on 1 January.
    pub at_start: Decimal,
    /// Applied in this return (same nature and cross).
    pub applied: Decimal,
    /// Left for later years (0 when it expires this year).
    pub pending_after: Decimal,
    /// The three boxes: at start, applied, pending after.
    pub boxes: [&'static BoxDef; 3],
}

/// The guide of one year.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RentaGuide {
    /// The ejercicio.
    pub year: i32,
    /// Its box table, or `None` when the guide does not cover it.
    pub table: Option<&'static BoxTable>,
    /// How the crypto elements are grouped.
    pub aggregation: Aggregation,
    /// The crypto elements.
    pub crypto: Vec<CryptoEntry>,
    /// Every other box with an amount, in form order (1813/1814 first).
    pub boxes: Vec<GuideBox>,
    /// Annex C.3 per origin year.
    pub pending: Vec<PendingYear>,
    /// Points to check.
    pub notes: Vec<GuideNote>,
}

fn add(a: Decimal, b: Decimal) -> DomainResult<Decimal> {
    num::add(a, b, "renta guide")
}

fn entry(row: &Modelo100Row) -> CryptoEntry {
    CryptoEntry {
        coin: coin_name(row.asset.as_str()),
        symbol: row.asset.as_str().to_owned(),
        clave: row.clave,
        transmission_amount: row.gross_transmission_value,
        transmission_expenses: row.transmission_expenses,
        box_1804: row.transmission_value,
        acquisition_amount: row.acquisition_value,
        acquisition_expenses: Decimal::ZERO,
        box_1806: row.acquisition_value,
        box_1807: row.loss,
        box_1809: row.gain,
    }
}

/// Nets gains and losses of each (coin, clave) into one element.
fn per_coin_clave(rows: &[CryptoEntry]) -> DomainResult<Vec<CryptoEntry>> {
    let mut out: Vec<CryptoEntry> = Vec::new();
    for row in rows {
        match out.last_mut() {
            // The rows arrive ordered by asset then clave, so a group is a run.
            Some(last) if last.symbol == row.symbol && last.clave == row.clave => {
                last.transmission_amount = add(last.transmission_amount, row.transmission_amount)?;
                last.transmission_expenses =
                    add(last.transmission_expenses, row.transmission_expenses)?;
                last.box_1804 = add(last.box_1804, row.box_1804)?;
                last.acquisition_amount = add(last.acquisition_amount, row.acquisition_amount)?;
                last.box_1806 = add(last.box_1806, row.box_1806)?;
            }
            _ => out.push(row.clone()),
        }
    }
    for row in &mut out {
        let result = num::sub(row.box_1804, row.box_1806, "renta guide")?;
        if result.is_sign_negative() && !result.is_zero() {
            row.box_1807 = Some(-result);
            row.box_1809 = None;
        } else {
            row.box_1807 = None;
            row.box_1809 = Some(result);
        }
    }
    Ok(out)
}

/// The box of `table` for a carried amount of `kind` and `nature` from `origin_year`.
fn carry_box(
    table: &'static BoxTable,
    year: i32,
    origin_year: i32,
    kind: CarryKind,
    nature: Nature,
) -> Option<&'static BoxDef> {
    let back = year.checked_sub(origin_year)?;
    let numbers: [&str; 4] = match (kind, nature) {
        (CarryKind::SavingsGp, Nature::Same) => ["0439", "0440", "0441", "0442"],
        (CarryKind::SavingsGp, Nature::Cross) => ["0453", "0454", "0455", "0448"],
        (CarryKind::SavingsRcm, Nature::Same) => ["0449", "0450", "0451", "0452"],
        (CarryKind::SavingsRcm, Nature::Cross) => ["0443", "0444", "0445", "0447"],
        (CarryKind::GeneralGp, _) => return table.get("0431"),
    };
    let index = usize::try_from(4 - back).ok()?;
    numbers.get(index).and_then(|n| table.get(n))
}

fn push_box(
    boxes: &mut Vec<GuideBox>,
    table: &'static BoxTable,
    number: &str,
    origin_year: Option<i32>,
    amount: Decimal,
) -> DomainResult<()> {
    if amount.is_zero() {
        return Ok(());
    }
    let Some(def) = table.get(number) else {
        return Ok(());
    };
    // Several uses may land in one box (0431 gathers every origin year).
    if let Some(existing) = boxes
        .iter_mut()
        .find(|g| g.def.number == number && g.origin_year == origin_year)
    {
        existing.amount = add(existing.amount, amount)?;
    } else {
        boxes.push(GuideBox {
            def,
            origin_year,
            amount,
        });
    }
    Ok(())
}

/// The Renta Web guide of a year report.
pub fn renta_guide(report: &IrpfYearReport) -> DomainResult<RentaGuide> {
    let year = report.year;
    let table = box_table(year);
    let mut guide = RentaGuide {
        year,
        table,
        aggregation: Aggregation::PerCoinClaveSign,
        crypto: Vec::new(),
        boxes: Vec::new(),
        pending: Vec::new(),
        notes: Vec::new(),
    };
    let Some(table) = table else {
        return Ok(guide);
    };
    let rows: Vec<CryptoEntry> = report.modelo100.rows.iter().map(entry).collect();
    let rows_before = rows.len();
    guide.crypto = rows;
    if guide.crypto.len() > table.crypto_row_limit {
        guide.crypto = per_coin_clave(&guide.crypto)?;
        guide.aggregation = Aggregation::PerCoinClave;
        guide.notes.push(GuideNote::RowLimitExceeded {
            rows: guide.crypto.len(),
            rows_before,
            limit: table.crypto_row_limit,
            aggregation: guide.aggregation,
        });
    }
    if !guide.crypto.is_empty() {
        guide.notes.push(GuideNote::AcquisitionFeesIncluded);
    }
    let mut losses = Decimal::ZERO;
    let mut gains = Decimal::ZERO;
    for row in &guide.crypto {
        losses = add(losses, row.box_1807.unwrap_or_default())?;
        gains = add(gains, row.box_1809.unwrap_or_default())?;
    }
    let boxes = &mut guide.boxes;
    if !guide.crypto.is_empty() {
        // The totals print even when zero: the form shows them once an element exists.
        for (number, amount) in [("1813", losses), ("1814", gains)] {
            if let Some(def) = table.get(number) {
                boxes.push(GuideBox {
                    def,
                    origin_year: None,
                    amount,
                });
            }
        }
    }
    let s = &report.summary;
    push_box(
        boxes,
        table,
        "0033",
        None,
        s.savings_base_yields.max(Decimal::ZERO),
    )?;
    push_box(
        boxes,
        table,
        "0304",
        None,
        s.general_base_airdrops.max(Decimal::ZERO),
    )?;
    let c = s.current_year_cross_compensation;
    if report.bases.savings_transmission_balance.is_sign_negative() {
        push_box(boxes, table, "0446", None, c)?;
    } else {
        push_box(boxes, table, "0436", None, c)?;
    }
    for used in &report.carry_forward.used {
        if let Some(def) = carry_box(table, year, used.origin_year, used.kind, used.nature) {
            let origin = def.years_back.map(|_| used.origin_year);
            push_box(boxes, table, def.number, origin, used.amount)?;
        }
    }
    for generated in &report.carry_forward.generated {
        let number = match generated.kind {
            CarryKind::SavingsGp => "1270",
            CarryKind::SavingsRcm => "1283",
            CarryKind::GeneralGp => continue,
        };
        push_box(boxes, table, number, None, generated.amount)?;
    }
    guide.pending = pending_years(report, table)?;
    push_notes(report, &mut guide.notes)?;
    Ok(guide)
}

/// The points to check that the report's figures raise.
fn push_notes(report: &IrpfYearReport, notes: &mut Vec<GuideNote>) -> DomainResult<()> {
    let m = report.summary.economic_activity_income;
    if !m.is_zero() {
        notes.push(GuideNote::Mining { amount: m });
    }
    if report.warnings.contains(&Warning::ForkZeroCost) {
        notes.push(GuideNote::Fork);
    }
    if !report.modelo100.derivatives.is_empty() {
        let mut net = Decimal::ZERO;
        for contract in &report.modelo100.derivatives {
            net = add(net, contract.net)?;
        }
        notes.push(GuideNote::Derivatives { net });
    }
    if report.warnings.contains(&Warning::Incomplete) {
        notes.push(GuideNote::Incomplete);
    }
    notes.push(GuideNote::BankruptcyOrFraudLoss);
    Ok(())
}

/// Annex C.3 for the savings transmission losses of the four earlier years.
fn pending_years(
    report: &IrpfYearReport,
    table: &'static BoxTable,
) -> DomainResult<Vec<PendingYear>> {
    let year = report.year;
    let cf = &report.carry_forward;
    let numbers = [
        ["1258", "1259", "1260"],
        ["1261", "1262", "1263"],
        ["1264", "1265", "1266"],
        ["1267", "1268", "1269"],
    ];
    let mut out = Vec::new();
    for (back, trio) in (1..=4).rev().zip(numbers) {
        let origin = year - back;
        let gp = |kind: CarryKind| kind == CarryKind::SavingsGp;
        let mut applied = Decimal::ZERO;
        for used in cf
            .used
            .iter()
            .filter(|u| u.origin_year == origin && gp(u.kind))
        {
            applied = add(applied, used.amount)?;
        }
        let mut after = Decimal::ZERO;
        for left in cf
            .remaining
            .iter()
            .filter(|r| r.origin_year == origin && gp(r.kind))
        {
            after = add(after, left.remaining)?;
        }
        let mut expired = Decimal::ZERO;
        for gone in cf
            .expired
            .iter()
            .filter(|e| e.origin_year == origin && gp(e.kind))
        {
            expired = add(expired, gone.amount)?;
        }
        let at_start = add(add(applied, after)?, expired)?;
        if at_start.is_zero() {
            continue;
        }
        let (Some(start), Some(used), Some(later)) =
            (table.get(trio[0]), table.get(trio[1]), table.get(trio[2]))
        else {
            continue;
        };
        out.push(PendingYear {
            origin_year: origin,
            at_start,
            applied,
            pending_after: after,
            boxes: [start, used, later],
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
