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
