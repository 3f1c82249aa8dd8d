//! The user's label map (`import.label_map`, `cartera import --map`): an export label that
//! cartera does not read, or reads otherwise than the user wants, booked as one transaction
//! type. One entry is `PROFILE:LABEL=TYPE`, for example `binance:Card Cashback=REWARD`.
//! A Binance account cartera does not know is mapped the same way, to how its rows are read:
//! `binance:account:Trading Bots=WALLET` (see [`AccountMapping`]).

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

/// How the rows of a mapped Binance account are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountReading {
    /// `WALLET`: as a wallet of the user's own (like Spot or Funding): every operation is
    /// read, booked on a child account of its own.
    Wallet,
    /// `FUTURES`: as the futures and margin accounts: only its transfers to and from the
    /// other accounts are read.
    Futures,
}

impl AccountReading {
    /// The word written in an entry.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Wallet => "WALLET",
            Self::Futures => "FUTURES",
        }
    }
}

/// One account entry of the map: `binance:account:NAME=WALLET|FUTURES`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountMapping {
    /// The profile id (only `binance-statement` has accounts).
    pub profile: &'static str,
    /// The account as written in the export, trimmed (matched ignoring ASCII case).
    pub account: String,
    /// How its rows are read.
    pub reading: AccountReading,
}

/// One entry of the setting or of `--map`: a label or an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapEntry {
    /// `PROFILE:LABEL=TYPE`.
    Label(LabelMapping),
    /// `binance:account:NAME=WALLET|FUTURES`.
    Account(AccountMapping),
}

/// The prefix of an account entry's label.
const ACCOUNT_PREFIX: &str = "account:";

impl MapEntry {
    /// Parses either form; `Err` says what is wrong in words a user can act on.
    pub fn parse(text: &str) -> Result<Self, String> {
        let label = LabelMapping::parse;
        let Some((head, reading)) = text.rsplit_once('=') else {
            return label(text).map(Self::Label);
        };
        let Some((profile, rest)) = head.split_once(':') else {
            return label(text).map(Self::Label);
        };
        let Some(account) = rest
            .trim_start()
            .get(..ACCOUNT_PREFIX.len())
            .filter(|p| p.eq_ignore_ascii_case(ACCOUNT_PREFIX))
            .map(|_| rest.trim_start()[ACCOUNT_PREFIX.len()..].trim())
        else {
            return label(text).map(Self::Label);
        };
        let profile = profile.trim().to_ascii_lowercase();
        if profile != "binance" && profile != "binance-statement" {
            return Err(format!(
                "{text:?} maps an account: only binance statements have accounts"
            ));
        }
        if account.is_empty()
            || account.chars().count() > 100
            || account.chars().any(char::is_control)
        {
            return Err(format!(
                "the account of {text:?} must have 1 to 100 characters and no control characters"
            ));
        }
        let reading = match reading.trim().to_ascii_uppercase().as_str() {
            "WALLET" => AccountReading::Wallet,
            "FUTURES" => AccountReading::Futures,
            _ => {
                return Err(format!(
                    "{:?} is not WALLET (read every operation, on an account of its own) or FUTURES (read only its transfers)",
                    reading.trim()
                ));
            }
        };
        Ok(Self::Account(AccountMapping {
            profile: "binance-statement",
            account: account.to_owned(),
            reading,
        }))
    }

    /// The entry written back with the short profile name.
    pub fn to_text(&self) -> String {
        match self {
            Self::Label(m) => m.to_text(),
            Self::Account(m) => format!(
                "binance:{ACCOUNT_PREFIX}{}={}",
                m.account,
                m.reading.as_str()
            ),
        }
    }

    /// Whether `other` maps the same label or account (ASCII case folded).
    pub fn same_key(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Label(a), Self::Label(b)) => {
                a.profile == b.profile && a.label.eq_ignore_ascii_case(&b.label)
            }
            (Self::Account(a), Self::Account(b)) => {
                a.profile == b.profile && a.account.eq_ignore_ascii_case(&b.account)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests;
