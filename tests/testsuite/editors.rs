//! A real editor's client: Neovim's built-in LSP client, headless, driving `mdbook-contract
//! lsp` through `tests/editors/neovim.lua`. Needs Debian's `neovim` (0.7 or later), so it is
//! ignored by `cargo test`; `.ci/run` installs Neovim and runs it.

use std::path::Path;
use std::process::Command;

use super::common::{Fixture, binary, contract_book};

#[test]
#[ignore = "needs Neovim: cargo test -- --ignored editors::"]
fn neovim_shows_diagnostics_hover_and_completion() {
    let book = Fixture::new(&contract_book());
    let out = book.root().join("neovim.out");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/editors/neovim.lua");
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n"])
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .env("BOOK", book.root())
        .env("OUT", &out)
        .env("MDBOOK_CONTRACT", binary())
        .status()
        .expect("nvim runs (Debian's `neovim` package)");
    assert!(status.success(), "{status}");
    let seen = std::fs::read_to_string(&out).expect("the script wrote what it saw");
    let lines: Vec<&str> = seen.lines().collect();
    assert_eq!(
        lines,
        [
            "attached true",
            "diagnostics unknown-claim@16:48",
            "hover **axis `readiness`** (contract.md)",
            "completion immediate provisioning-window unknown",
            "typo true",
            "diagnostics unknown-axis@18:9 unknown-claim@16:48",
        ],
        "{seen}"
    );
}
