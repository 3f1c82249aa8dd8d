//! The request context (`tools.md` §3, §11): who asks, in which language and base currency.

/// Why a tenant, locale or currency code was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContextError {
    /// The tenant is empty or longer than 200 characters.
    InvalidTenant {
        /// Its length in characters.
        chars: usize,
    },
    /// The locale does not match `^[A-Za-z]{2,3}(-[A-Za-z]{2})?$`.
    InvalidLocale {
        /// The rejected tag (cut to 40 characters).
        tag: String,
    },
    /// The currency code is not `EUR` or `USD`.
    InvalidCurrency {
        /// The rejected code (cut to 40 characters).
        code: String,
    },
}

impl std::fmt::Display for ContextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::InvalidTenant { chars } => {
                write!(f, "tenant must have 1 to 200 characters, it has {chars}")
            }
            Self::InvalidLocale { tag } => write!(
                f,
                "locale {tag:?} is not a language tag such as es, en or es-ES"
            ),
            Self::InvalidCurrency { code } => {
                write!(f, "base currency {code:?} is not EUR or USD")
            }
        }
    }
}

impl std::error::Error for ContextError {}

fn cut(text: &str) -> String {
    text.chars().take(40).collect()
}

/// One ledger owner: a non-empty string of at most 200 characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TenantId(String);

impl TenantId {
    /// Validates a tenant id.
    ///
    /// # Errors
    ///
    /// [`ContextError::InvalidTenant`] when empty or longer than 200 characters.
    pub fn new(id: impl Into<String>) -> Result<TenantId, ContextError> {
        let id = id.into();
        let chars = id.chars().count();
        if (1..=200).contains(&chars) {
            Ok(TenantId(id))
        } else {
            Err(ContextError::InvalidTenant { chars })
        }
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for TenantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A request locale, normalised to a lower-case language and an upper-case region (`es-ES`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Locale {
    tag: String,
    language_len: usize,
}

impl Locale {
    /// Parses and normalises `^[A-Za-z]{2,3}(-[A-Za-z]{2})?$` (`es-es` → `es-ES`).
    ///
    /// # Errors
    ///
    /// [`ContextError::InvalidLocale`] when the tag does not match.
    pub fn parse(tag: &str) -> Result<Locale, ContextError> {
        let invalid = || ContextError::InvalidLocale { tag: cut(tag) };
        let (language, region) = match tag.split_once('-') {
            Some((language, region)) => (language, Some(region)),
            None => (tag, None),
        };
        let letters = |text: &str| text.bytes().all(|b| b.is_ascii_alphabetic());
        if !(2..=3).contains(&language.len()) || !letters(language) {
            return Err(invalid());
        }
        let mut normalised = language.to_ascii_lowercase();
        if let Some(region) = region {
            if region.len() != 2 || !letters(region) {
                return Err(invalid());
            }
            normalised.push('-');
            normalised.push_str(&region.to_ascii_uppercase());
        }
        Ok(Locale {
            tag: normalised,
            language_len: language.len(),
        })
    }

    /// The normalised tag (`es-ES`).
    pub fn as_str(&self) -> &str {
        &self.tag
    }

    /// The lower-case language subtag (`es`).
    pub fn language(&self) -> &str {
        self.tag.get(..self.language_len).unwrap_or(&self.tag)
    }

    /// Whether texts are given in Spanish (language `es`), else English.
    pub fn is_spanish(&self) -> bool {
        self.language() == "es"
    }
}

impl std::fmt::Display for Locale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.tag)
    }
}

/// The base currency of a request: `EUR` or `USD` (`tools.md` §10, §11).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CurrencyCode(&'static str);

impl CurrencyCode {
    /// Euro.
    pub const EUR: CurrencyCode = CurrencyCode("EUR");
    /// US dollar.
    pub const USD: CurrencyCode = CurrencyCode("USD");

    /// Parses three ASCII letters, upper-cased, that must be `EUR` or `USD`.
    ///
    /// # Errors
    ///
    /// [`ContextError::InvalidCurrency`] otherwise.
    pub fn parse(code: &str) -> Result<CurrencyCode, ContextError> {
        if code.eq_ignore_ascii_case("EUR") {
            Ok(Self::EUR)
        } else if code.eq_ignore_ascii_case("USD") {
            Ok(Self::USD)
        } else {
            Err(ContextError::InvalidCurrency { code: cut(code) })
        }
    }

    /// The code (`EUR`).
    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for CurrencyCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Who asks, in which language, in which base currency (`tools.md` §3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RequestContext {
    /// The ledger owner (part of every cache key).
    pub tenant: TenantId,
    /// The request language.
    pub locale: Locale,
    /// The base currency of every valuation.
    pub base_currency: CurrencyCode,
}
