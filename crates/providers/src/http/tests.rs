use super::*;

#[test]
fn no_proxy_matches_hosts_and_domain_suffixes() {
    let url = "https://api.kraken.com/0/public/OHLC?pair=XBTEUR";
    assert!(bypasses_proxy(Some("*"), url));
    assert!(bypasses_proxy(Some("localhost, kraken.com"), url));
    assert!(bypasses_proxy(Some(".kraken.com"), url));
    assert!(bypasses_proxy(Some("api.kraken.com:443"), url));
    assert!(!bypasses_proxy(Some("coinbase.com"), url));
    assert!(!bypasses_proxy(Some("ken.com"), url));
    assert!(!bypasses_proxy(None, url));
    assert!(bypasses_proxy(Some("127.0.0.1"), "http://127.0.0.1:8080/x"));
}

#[test]
fn a_proxy_url_that_cannot_be_read_is_named() {
    let config = crate::Config {
        proxy: Some("http://[::1".to_owned()),
        ..crate::Config::default()
    };
    let error = Client::new(config, Box::new(SystemPause::new())).unwrap_err();
    assert!(
        error.starts_with("the proxy http://[::1 cannot be used"),
        "{error}"
    );
}
