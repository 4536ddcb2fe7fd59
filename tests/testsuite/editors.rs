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

#[test]
#[ignore = "needs Neovim: cargo test -- --ignored editors::"]
fn the_guides_neovim_set_up_attaches_on_the_neovim_debian_ships() {
    // The guide's `init.lua` as it is, the binary found by name on the PATH.
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("guide/src/how-to/editors.md"),
    )
    .unwrap();
    let from = page
        .find("## Neovim")
        .expect("the guide has a Neovim section");
    let block = &page[from..];
    let start = block.find("```lua\n").expect("a lua block") + "```lua\n".len();
    let end = start + block[start..].find("```").expect("the block ends");
    let book = Fixture::new(&contract_book());
    let init = book.root().join("init.lua");
    let out = book.root().join("neovim.out");
    std::fs::write(
        &init,
        format!(
            "{}\nvim.api.nvim_create_autocmd('VimEnter', {{ callback = function()\n  local ok = vim.wait(10000, function() return #vim.diagnostic.get(0) > 0 end, 20)\n  local f = io.open(os.getenv('OUT'), 'w') f:write(tostring(ok), ' ', #vim.diagnostic.get(0)) f:close()\n  vim.cmd('qa!')\nend }})\n",
            &block[start..end]
        ),
    )
    .unwrap();
    let folder = Path::new(binary()).parent().unwrap();
    let path = format!("{}:{}", folder.display(), std::env::var("PATH").unwrap());
    let status = Command::new("nvim")
        .args(["--headless", "-i", "NONE", "-n", "-u"])
        .arg(&init)
        .arg(book.root().join("src/appendix/existing.md"))
        .env("OUT", &out)
        .env("PATH", path)
        .status()
        .expect("nvim runs (Debian's `neovim` package)");
    assert!(status.success(), "{status}");
    let seen = std::fs::read_to_string(&out).expect("the set-up wrote what it saw");
    assert_eq!(seen, "true 1", "the appendix's one unknown-claim warning");
}
