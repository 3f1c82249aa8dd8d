//! The `explain_metric` table (`tools.md` §12): one English and one Spanish definition per
//! metric, and the tool that reports it.

use shared_types::{MetricId, ToolName};

/// `(English, Spanish, producedBy)` of `metric`. Exhaustive: a new metric needs its texts.
pub(crate) const fn entry(metric: MetricId) -> (&'static str, &'static str, ToolName) {
    match metric {
        MetricId::Equity => (
            "Current market value of every holding that can be valued: quantity times the latest stored price, converted to the base currency. Holdings without a price or rate are left out and listed separately.",
            "Valor de mercado actual de todas las posiciones valorables: cantidad por el último precio almacenado, convertido a la moneda base. Las posiciones sin precio o sin tipo de cambio se excluyen y se listan aparte.",
            ToolName::PortfolioSummary,
        ),
        MetricId::CostBasis => (
            "What the units still held cost to acquire, fees included: the remaining acquisition value of the open lots, converted to the base currency at the rate of each acquisition date.",
            "Lo que costó adquirir las unidades que se conservan, comisiones incluidas: el valor de adquisición pendiente de los lotes abiertos, convertido a la moneda base al tipo de cada fecha de adquisición.",
            ToolName::PortfolioSummary,
        ),
        MetricId::RealizedPnl => (
            "Gain or loss already locked in: for each disposal, transmission value minus the acquisition value of the lots consumed, taking the oldest lots of each asset first across all accounts, plus the results of derivative contracts.",
            "Ganancia o pérdida ya materializada: en cada transmisión, valor de transmisión menos el valor de adquisición de los lotes consumidos, tomando primero los más antiguos de cada activo en todas las cuentas, más los resultados de los contratos de derivados.",
            ToolName::PortfolioSummary,
        ),
        MetricId::UnrealizedPnl => (
            "Current value of the valued holdings minus their cost basis. It becomes a real gain or loss only when the units are disposed of.",
            "Valor actual de las posiciones valoradas menos su coste de adquisición. Solo se convierte en ganancia o pérdida real cuando se transmiten las unidades.",
            ToolName::PortfolioSummary,
        ),
        MetricId::MaxDrawdown => (
            "The deepest fall of the portfolio's return index (value growth with purchases and sales taken out) from a previous peak to a later low, as a fraction of that peak, over the whole history. It describes the past and predicts nothing.",
            "La mayor caída del índice de rentabilidad de la cartera (la evolución del valor descontando compras y ventas) desde un máximo previo hasta un mínimo posterior, como fracción de ese máximo, en todo el historial. Describe el pasado y no predice nada.",
            ToolName::RiskMetrics,
        ),
        MetricId::AnnualisedVolatility => (
            "How much daily returns swing around their average: their standard deviation scaled to a year by the square root of the number of days in a year. Higher means bumpier moves in either direction.",
            "Cuánto oscilan los rendimientos diarios en torno a su media: su desviación típica escalada a un año con la raíz cuadrada del número de días del año. Cuanto más alta, más bruscos los movimientos en ambos sentidos.",
            ToolName::RiskMetrics,
        ),
        MetricId::Sharpe => (
            "Average daily return scaled to a year, divided by the annualised volatility: return earned per unit of risk. No risk-free rate is subtracted.",
            "Rendimiento diario medio escalado a un año, dividido entre la volatilidad anualizada: rendimiento obtenido por unidad de riesgo. No se resta ningún tipo libre de riesgo.",
            ToolName::RiskMetrics,
        ),
        MetricId::Alpha => (
            "The part of the portfolio's return that bitcoin's movement does not explain: the mean daily return minus beta times bitcoin's mean daily return, scaled to a year.",
            "La parte de la rentabilidad de la cartera que no explica el movimiento de bitcoin: el rendimiento diario medio menos beta por el rendimiento diario medio de bitcoin, escalado a un año.",
            ToolName::RiskMetrics,
        ),
        MetricId::Beta => (
            "Sensitivity of the portfolio to bitcoin: the covariance of their daily returns divided by the variance of bitcoin's. Above one it amplifies bitcoin's moves; below one it dampens them.",
            "Sensibilidad de la cartera a bitcoin: la covarianza de sus rendimientos diarios dividida entre la varianza de los de bitcoin. Por encima de uno amplifica sus movimientos; por debajo, los amortigua.",
            ToolName::RiskMetrics,
        ),
        MetricId::Hhi => (
            "Herfindahl-Hirschman index: the sum of the squared weights of the valued holdings, from close to zero for a spread portfolio up to one for a single asset. One divided by it gives the effective number of holdings.",
            "Índice de Herfindahl-Hirschman: la suma de los pesos al cuadrado de las posiciones valoradas, desde casi cero en una cartera repartida hasta uno con un solo activo. Uno dividido entre él da el número efectivo de posiciones.",
            ToolName::ConcentrationRisk,
        ),
        MetricId::TopNWeight => (
            "The share of the valued total held by the largest holding, or by the three largest together.",
            "La parte del total valorado que corresponde a la mayor posición, o a las tres mayores juntas.",
            ToolName::ConcentrationRisk,
        ),
        MetricId::BreakevenPrice => (
            "Cost basis divided by quantity: the unit price at which selling the whole holding would neither gain nor lose, before fees and tax.",
            "Coste de adquisición dividido entre la cantidad: el precio unitario al que vender toda la posición no daría ganancia ni pérdida, antes de comisiones e impuestos.",
            ToolName::BreakevenPrice,
        ),
        MetricId::RatesIncomplete => (
            "Warning that some figure could not be converted because no exchange rate covers its date, so totals in the base currency fall short.",
            "Aviso de que alguna cifra no se pudo convertir porque ningún tipo de cambio cubre su fecha, de modo que los totales en la moneda base se quedan cortos.",
            ToolName::PortfolioSummary,
        ),
        MetricId::PricesIncomplete => (
            "Warning that some holding has no stored market price, so its value is missing and equity falls short.",
            "Aviso de que alguna posición no tiene precio de mercado almacenado, de modo que falta su valor y el patrimonio se queda corto.",
            ToolName::PortfolioSummary,
        ),
        MetricId::Unvalued => (
            "A holding that cannot be valued because a price or an exchange rate is missing, now or for the acquisition of one of its lots. It is listed with its quantity and never counted as worth zero.",
            "Una posición que no se puede valorar porque falta un precio o un tipo de cambio, ahora o en la adquisición de alguno de sus lotes. Se lista con su cantidad y nunca se cuenta como si valiera cero.",
            ToolName::DataGaps,
        ),
        MetricId::IrpfSavingsBase => (
            "The part of the Spanish income tax return taxed at the savings scale: gains and losses from transmissions plus capital income such as staking, each netted within its own group, with limited offsetting between the groups and losses carried forward from earlier years.",
            "La parte de la declaración del IRPF que tributa con la escala del ahorro: ganancias y pérdidas por transmisiones más rendimientos del capital mobiliario como el staking, compensados dentro de cada grupo, con una compensación limitada entre grupos y las pérdidas pendientes de ejercicios anteriores.",
            ToolName::SpanishTaxReport,
        ),
        MetricId::NetPatrimonialResult => (
            "Capital gains minus capital losses from the year's transmissions of crypto assets, before any offsetting against other income or losses carried forward. Capital income, airdrops and mining are not part of it.",
            "Ganancias menos pérdidas patrimoniales de las transmisiones de criptoactivos del año, antes de cualquier compensación con otras rentas o pérdidas pendientes. No incluye los rendimientos del capital, los airdrops ni la minería.",
            ToolName::SpanishTaxReport,
        ),
    }
}
