//! The user's label map (`import.label_map`, `cartera import --map`): an export label that
//! cartera does not read, or reads otherwise than the user wants, booked as one transaction
//! type. One entry is `PROFILE:LABEL=TYPE`, for example `binance:Card Cashback=REWARD`.

use crate::vocab::SpotTxType;

/// The profiles whose labels can be mapped, with the short names accepted for them.
const PROFILES: [(&str, &str); 4] = [
    ("binance", "binance-statement"),
    ("bitvavo", "bitvavo"),
    ("coinbase", "coinbase"),
    ("kraken", "kraken-ledgers"),
];

/// The types a label can be mapped to: each has one side, which gives the direction.
pub const MAPPABLE_TYPES: [SpotTxType; 12] = [
    SpotTxType::Deposit,
    SpotTxType::Withdrawal,
    SpotTxType::TransferIn,
    SpotTxType::TransferOut,
    SpotTxType::Staking,
    SpotTxType::Reward,
    SpotTxType::Airdrop,
    SpotTxType::Promotion,
    SpotTxType::Mining,
    SpotTxType::Fork,
    SpotTxType::Spend,
    SpotTxType::Fee,
];

/// One entry of the label map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelMapping {
    /// The profile id (`binance-statement`, `bitvavo`, `coinbase`, `kraken-ledgers`).
    pub profile: &'static str,
    /// The label as written in the export, trimmed (matched ignoring ASCII case).
    pub label: String,
    /// The type its rows become.
    pub tx_type: SpotTxType,
}

impl LabelMapping {
    /// Parses `PROFILE:LABEL=TYPE`; `Err` says what is wrong in words a user can act on.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (head, ty) = text
            .rsplit_once('=')
            .ok_or_else(|| format!("{text:?} is not PROFILE:LABEL=TYPE"))?;
        let (profile, label) = head
            .split_once(':')
            .ok_or_else(|| format!("{text:?} is not PROFILE:LABEL=TYPE"))?;
        let profile = profile.trim().to_ascii_lowercase();
        let profile = PROFILES
            .iter()
            .find(|(short, id)| profile == *short || profile == *id)
            .map(|(_, id)| *id)
            .ok_or_else(|| format!("{profile:?} is not binance, bitvavo, coinbase or kraken"))?;
        let label = label.trim();
        if label.is_empty() || label.chars().count() > 100 || label.chars().any(char::is_control) {
            return Err(format!(
                "the label of {text:?} must have 1 to 100 characters and no control characters"
            ));
        }
        let ty_text = ty.trim().to_ascii_uppercase();
        let tx_type = SpotTxType::parse(&ty_text)
            .filter(|t| MAPPABLE_TYPES.contains(t))
            .ok_or_else(|| {
                let names: Vec<&str> = MAPPABLE_TYPES.iter().map(|t| t.as_str()).collect();
                format!("{:?} is not one of {}", ty.trim(), names.join(", "))
            })?;
        Ok(Self {
            profile,
            label: label.to_owned(),
            tx_type,
        })
    }

    /// The entry written back as `PROFILE:LABEL=TYPE` with the short profile name.
    pub fn to_text(&self) -> String {
        let short = PROFILES
            .iter()
            .find(|(_, id)| *id == self.profile)
            .map_or(self.profile, |(short, _)| *short);
        format!("{short}:{}={}", self.label, self.tx_type.as_str())
    }

    /// Whether the entry is outflow-side (`SPEND`, `FEE`, `TRANSFER_OUT`, `WITHDRAWAL`).
    pub fn is_out(&self) -> bool {
        matches!(
            self.tx_type,
            SpotTxType::Spend | SpotTxType::Fee | SpotTxType::TransferOut | SpotTxType::Withdrawal
        )
    }
}

#[cfg(test)]
mod tests;
