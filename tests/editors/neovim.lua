-- Neovim's built-in LSP client (0.7 and later) driving `mdbook-contract lsp` headless, for
-- tests/testsuite/editors.rs. It opens the appendix of the book at $BOOK, waits for the
-- diagnostics, hovers a claim's axis code, asks for completion after `{{#profile readiness `,
-- types a typo and waits for its diagnostic, then writes what it saw to $OUT, a line each.
local out = assert(io.open(os.getenv("OUT"), "w"))
local function say(...) out:write(table.concat({ ... }, " "), "\n") out:flush() end

local root = os.getenv("BOOK")
vim.cmd("edit " .. vim.fn.fnameescape(root .. "/src/appendix/existing.md"))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = "mdbook-contract",
  cmd = { os.getenv("MDBOOK_CONTRACT"), "lsp" },
  root_dir = root,
})
vim.lsp.buf_attach_client(buf, id)

local function codes()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(found, (lsp.code or d.code or "?") .. "@" .. (d.lnum + 1) .. ":" .. (d.col + 1))
  end
  table.sort(found)
  return table.concat(found, " ")
end

say("attached", tostring(vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20)))
say("diagnostics", codes())

-- The first claim's axis code, as the buffer has it.
local line, col
for n, text in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  local at = text:find("{{#profile readiness", 1, true)
  if at then line, col = n - 1, at - 1 + #"{{#profile " + 2 break end
end
local position = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", position, 5000) or {}
for _, answer in pairs(hover) do
  local value = answer.result and answer.result.contents.value or ""
  say("hover", (value:gsub("\n.*", "")))
end

-- A new line `{{#profile readiness ` and completion at its end.
vim.api.nvim_buf_set_lines(buf, -1, -1, false, { "", "{{#profile readiness " })
local last = vim.api.nvim_buf_line_count(buf) - 1
local completion = vim.lsp.buf_request_sync(buf, "textDocument/completion",
  { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = last, character = 21 } }, 5000) or {}
for _, answer in pairs(completion) do
  local labels = {}
  for _, item in ipairs(answer.result or {}) do table.insert(labels, item.label) end
  say("completion", table.concat(labels, " "))
end

-- A typo, typed: its diagnostic arrives.
vim.api.nvim_buf_set_lines(buf, last, last + 1, false, { "{{#axis readines}}" })
say("typo", tostring(vim.wait(10000, function() return codes():find("unknown-axis", 1, true) ~= nil end, 20)))
say("diagnostics", codes())

vim.lsp.stop_client(id)
vim.wait(2000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
out:close()
vim.cmd("qa!")
