use super::*;

#[test]
fn entries_parse_and_print_back() {
    let m = LabelMapping::parse("binance:Card Cashback=REWARD").unwrap();
    assert_eq!(m.profile, "binance-statement");
    assert_eq!(m.label, "Card Cashback");
    assert_eq!(m.tx_type, SpotTxType::Reward);
    assert_eq!(m.to_text(), "binance:Card Cashback=REWARD");
    let k = LabelMapping::parse(" kraken-ledgers : earn foo = transfer_out ").unwrap();
    assert_eq!(k.to_text(), "kraken:earn foo=TRANSFER_OUT");
    assert!(k.is_out());
}

#[test]
fn bad_entries_say_why() {
    assert_eq!(
        LabelMapping::parse("binance Card=REWARD").unwrap_err(),
        "\"binance Card=REWARD\" is not PROFILE:LABEL=TYPE"
    );
    assert_eq!(
        LabelMapping::parse("okx:Card=REWARD").unwrap_err(),
        "\"okx\" is not binance, bitvavo, coinbase or kraken"
    );
    assert_eq!(
        LabelMapping::parse("binance:Card=SWAP").unwrap_err(),
        "\"SWAP\" is not one of DEPOSIT, WITHDRAWAL, TRANSFER_IN, TRANSFER_OUT, STAKING, REWARD, AIRDROP, PROMOTION, MINING, FORK, SPEND, FEE"
    );
    assert!(LabelMapping::parse("binance:=REWARD").is_err());
}

#[test]
fn account_entries_parse_and_print_back() {
    let e = MapEntry::parse(" binance : account: Trading Bots = wallet ").unwrap();
    assert_eq!(
        e,
        MapEntry::Account(AccountMapping {
            profile: "binance-statement",
            account: "Trading Bots".to_owned(),
            reading: AccountReading::Wallet,
        })
    );
    assert_eq!(e.to_text(), "binance:account:Trading Bots=WALLET");
    let f = MapEntry::parse("binance-statement:ACCOUNT:Portfolio Margin=FUTURES").unwrap();
    assert_eq!(f.to_text(), "binance:account:Portfolio Margin=FUTURES");
    assert!(
        MapEntry::parse("binance:account:trading bots=FUTURES")
            .unwrap()
            .same_key(&e)
    );
    assert!(!f.same_key(&e));
    // A label entry still reads as one.
    assert_eq!(
        MapEntry::parse("binance:Card Cashback=REWARD")
            .unwrap()
            .to_text(),
        "binance:Card Cashback=REWARD"
    );
}

#[test]
fn bad_account_entries_say_why() {
    assert_eq!(
        MapEntry::parse("kraken:account:Spot=WALLET").unwrap_err(),
        "\"kraken:account:Spot=WALLET\" maps an account: only binance statements have accounts"
    );
    assert_eq!(
        MapEntry::parse("binance:account:Bots=REWARD").unwrap_err(),
        "\"REWARD\" is not WALLET (read every operation, on an account of its own) or FUTURES (read only its transfers)"
    );
    assert!(MapEntry::parse("binance:account: =WALLET").is_err());
    assert_eq!(
        MapEntry::parse("binance Card=REWARD").unwrap_err(),
        "\"binance Card=REWARD\" is not PROFILE:LABEL=TYPE"
    );
}
