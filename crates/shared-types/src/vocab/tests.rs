use super::*;

fn names<T: Copy + std::fmt::Display>(all: &[T]) -> Vec<String> {
    all.iter().map(ToString::to_string).collect()
}

#[test]
fn spot_tx_types_are_the_16_of_domain_4_2_in_canonical_order() {
    assert_eq!(
        names(SpotTxType::ALL).join(","),
        "BUY,SELL,SWAP,DEPOSIT,WITHDRAWAL,STAKING,AIRDROP,REWARD,MINING,SPEND,FEE,TRANSFER_IN,\
         TRANSFER_OUT,MIGRATION_SWAP,PROMOTION,FORK"
    );
    for tx_type in SpotTxType::ALL {
        assert_eq!(SpotTxType::parse(tx_type.as_str()), Some(*tx_type));
    }
    assert_eq!(SpotTxType::parse("buy"), None);
}

#[test]
fn quality_flags_severities_and_effects_of_domain_10_1() {
    let table: Vec<String> = QualityFlag::ALL
        .iter()
        .map(|flag| {
            format!(
                "{flag}:{}:{}:{:?}",
                flag.severity(),
                flag.pending_review(),
                flag.effect()
            )
        })
        .collect();
    assert_eq!(
        table,
        [
            "MISSING_PRICE:medium:true:Blocking",
            "MISSING_FX_RATE:medium:true:Blocking",
            "CURRENCY_MISMATCH:medium:true:Advisory",
            "NEGATIVE_COST_BASIS:high:true:Blocking",
            "MISSING_ACQUISITION:high:true:Blocking",
            "CUSTODY_RESIDUAL:low:true:Advisory",
            "UNTRACKED_INFLOW:high:true:Advisory",
            "CUSTODY_IMBALANCE:medium:false:Advisory",
            "UNKNOWN_TX_TYPE:medium:true:RowIgnored",
            "AMOUNT_OUT_OF_RANGE:high:true:Blocking",
        ]
    );
    assert!(Severity::High > Severity::Medium && Severity::Medium > Severity::Low);
}

#[test]
fn fiat_list_is_eur_plus_the_ecb_columns() {
    assert_eq!(
        FIAT_CODES.join(","),
        "EUR,USD,JPY,BGN,CYP,CZK,DKK,EEK,GBP,HUF,LTL,LVL,MTL,PLN,ROL,RON,SEK,SIT,SKK,CHF,ISK,NOK,\
         HRK,RUB,TRL,TRY,AUD,BRL,CAD,CNY,HKD,IDR,ILS,INR,KRW,MXN,MYR,NZD,PHP,SGD,THB,ZAR"
    );
    assert!(is_fiat_code(" usd "));
    assert!(!is_fiat_code("USDT"));
    assert!(!is_fiat_code("BTC"));
}

#[test]
fn stablecoins_are_exact_and_case_sensitive() {
    assert_eq!(
        STABLECOINS.join(","),
        "USDT,USDC,DAI,EURC,FDUSD,PYUSD,TUSD,USDE"
    );
    assert!(is_stablecoin("USDC"));
    assert!(!is_stablecoin("usdc"));
}

#[test]
fn custody_kinds_and_futures_kinds() {
    assert_eq!(
        names(CustodyKind::ALL).join(","),
        "FOREIGN_PROVIDER,SPANISH_PROVIDER,SELF_CUSTODY,UNCLASSIFIED"
    );
    assert_eq!(CustodyKind::default(), CustodyKind::Unclassified);
    assert_eq!(
        names(FuturesKind::ALL).join(","),
        "TRADE,FUNDING_FEE,SETTLEMENT,LIQUIDATION"
    );
}

#[test]
fn wire_spelling_round_trips_through_serde() {
    let json = serde_json::to_string(&QualityFlag::MissingFxRate).unwrap();
    assert_eq!(json, "\"MISSING_FX_RATE\"");
    let back: SpotTxType = serde_json::from_str("\"MIGRATION_SWAP\"").unwrap();
    assert_eq!(back, SpotTxType::MigrationSwap);
}
