//! Asset symbols (`domain.md` §1.4, §2).

use std::num::NonZeroU8;

use crate::error::{DomainError, DomainResult};

const MAX_LEN: usize = 20;

/// The fiat codes (`shared_types::FIAT_CODES`, three capital letters each) as a set of bits
/// over every three-letter word ([`letters_index`]): 2 KiB, built once.
static FIAT_BITS: std::sync::LazyLock<Vec<u64>> = std::sync::LazyLock::new(|| {
    let mut bits = vec![0u64; (26 * 26 * 26usize).div_ceil(64)];
    for index in shared_types::FIAT_CODES
        .iter()
        .filter_map(|code| letters_index(code.as_bytes()))
    {
        if let Some(word) = bits.get_mut(index / 64) {
            *word |= 1 << (index % 64);
        }
    }
    bits
});

/// The position of a three-capital-letter word among all of them (`None` for anything else).
fn letters_index(bytes: &[u8]) -> Option<usize> {
    let letter = |b: u8| b.is_ascii_uppercase().then(|| usize::from(b - b'A'));
    match bytes {
        [a, b, c] => Some((letter(*a)? * 26 + letter(*b)?) * 26 + letter(*c)?),
        _ => None,
    }
}

/// A valid asset symbol (`^[A-Z0-9.]{1,20}$`), stored inline so it is `Copy` and cheap to
/// compare in the engine's hot loops. Ordering is byte order of the symbol. The length is
/// never zero, which leaves a niche: `Option<Asset>` and `Option<AssetAmount>` cost no extra
/// byte (rows hold several of them).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    len: NonZeroU8,
    bytes: [u8; MAX_LEN],
}

impl Asset {
    /// Validates a symbol exactly as stored (no case folding).
    pub fn new(symbol: &str) -> DomainResult<Self> {
        let bytes = symbol.as_bytes();
        let len = u8::try_from(bytes.len()).ok().and_then(NonZeroU8::new);
        let valid = bytes.len() <= MAX_LEN
            && bytes
                .iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'.');
        let (Some(len), true) = (len, valid) else {
            return Err(DomainError::InvalidAmount {
                field: "asset".to_owned(),
                text: symbol.to_owned(),
            });
        };
        let mut inline = [0u8; MAX_LEN];
        inline[..bytes.len()].copy_from_slice(bytes);
        Ok(Self { len, bytes: inline })
    }

    /// Validates user or agent input: trimmed and ASCII-upper-cased first.
    pub fn from_input(input: &str) -> DomainResult<Self> {
        Self::new(&input.trim().to_ascii_uppercase())
    }

    /// The symbol.
    pub fn as_str(&self) -> &str {
        // Construction admits only ASCII, so this never fails.
        std::str::from_utf8(&self.bytes[..usize::from(self.len.get())]).unwrap_or("")
    }

    /// The asset id: the symbol in ASCII lower case (`btc` for `BTC`).
    pub fn id(&self) -> String {
        self.as_str().to_ascii_lowercase()
    }

    /// Whether the asset is fiat (EUR or an ECB currency, `domain.md` §2).
    pub fn is_fiat(&self) -> bool {
        // Symbols are stored upper-case and trimmed, so the three bytes decide, as one bit of a
        // set (this runs several times per row in the engine's hot loops, where comparing the
        // bytes with each of the 42 codes was a tenth of the valuation).
        self.len.get() == 3
            && self
                .bytes
                .get(..3)
                .and_then(letters_index)
                .is_some_and(|index| {
                    FIAT_BITS
                        .get(index / 64)
                        .is_some_and(|word| word >> (index % 64) & 1 == 1)
                })
    }

    /// Whether the asset is crypto (every symbol that is not fiat).
    pub fn is_crypto(&self) -> bool {
        !self.is_fiat()
    }

    /// The inline bytes as big-endian integers, ordered like the symbols.
    fn order_key(&self) -> (u128, u32) {
        let mut head = [0u8; 16];
        let mut tail = [0u8; 4];
        head.copy_from_slice(self.bytes.get(..16).unwrap_or(&[0; 16]));
        tail.copy_from_slice(self.bytes.get(16..).unwrap_or(&[0; 4]));
        (u128::from_be_bytes(head), u32::from_be_bytes(tail))
    }

    /// Whether the asset is EUR.
    pub fn is_eur(&self) -> bool {
        self.len.get() == 3 && self.bytes.get(..3) == Some(b"EUR".as_slice())
    }

    /// Whether the asset is in the stablecoin list.
    pub fn is_stablecoin(&self) -> bool {
        shared_types::is_stablecoin(self.as_str())
    }
}

impl Ord for Asset {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // The unused tail is zero and every symbol byte is above zero, so comparing the whole
        // inline arrays is the byte order of the symbols; as big-endian integers it is two
        // machine comparisons instead of a memcmp call (assets are compared in hot loops).
        self.order_key().cmp(&other.order_key())
    }
}

impl std::hash::Hash for Asset {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Two machine words instead of a length and twenty bytes: assets are hashed per leg in
        // the engine's and custody's lookup tables. The inline array determines the symbol (the
        // tail is zero and symbol bytes are not), so this agrees with `Eq`.
        let (head, tail) = self.order_key();
        state.write_u128(head);
        state.write_u32(tail);
    }
}

impl PartialOrd for Asset {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Debug for Asset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for Asset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A three-letter symbol in three bytes: the quote currency of a price detail, which every
/// market-valued lot, disposal and valued row copies (an [`Asset`] is 21 bytes). Fiat codes
/// are three letters, so every quote currency has one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CurrencyCode([u8; 3]);

impl CurrencyCode {
    /// The code of a three-byte symbol (`None` for any other length).
    pub fn of(asset: Asset) -> Option<Self> {
        // The inline bytes directly: a valued price converts its quote on every lookup.
        if asset.len.get() != 3 {
            return None;
        }
        let code: [u8; 3] = asset.bytes.get(..3)?.try_into().ok()?;
        Some(Self(code))
    }

    /// The symbol as an [`Asset`].
    pub fn asset(self) -> Asset {
        let mut bytes = [0u8; MAX_LEN];
        if let Some(head) = bytes.get_mut(..3) {
            head.copy_from_slice(&self.0);
        }
        // Built only from a valid three-byte symbol, so it is one.
        Asset {
            len: NonZeroU8::MIN.saturating_add(2),
            bytes,
        }
    }
}

impl std::fmt::Debug for CurrencyCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.asset(), f)
    }
}

impl std::fmt::Display for CurrencyCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.asset(), f)
    }
}

#[cfg(test)]
mod tests;
