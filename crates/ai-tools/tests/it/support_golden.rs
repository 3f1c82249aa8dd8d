//! Golden files: compared byte for byte, rewritten only with `CARTERA_BLESS=1`.

use std::path::PathBuf;

pub(crate) fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
        .join(name)
}

pub(crate) fn check_golden(name: &str, actual: &str) {
    let path = golden_path(name);
    #[allow(
        clippy::disallowed_methods,
        reason = "goldens are re-blessed on request"
    )]
    let bless = std::env::var_os("CARTERA_BLESS").is_some_and(|v| v == "1");
    if bless {
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "missing golden {} ({e}); run with CARTERA_BLESS=1 to create it",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{} differs from the output; review and rerun with CARTERA_BLESS=1",
        path.display()
    );
}
