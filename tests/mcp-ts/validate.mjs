// The MCP server driven by the protocol's official TypeScript SDK (pinned in package.json and
// package-lock.json), whose client checks every tool's structured content against the tool's
// `outputSchema` with its own validator (Ajv) and throws on a mismatch; on a copy of the broker
// fixture. Anything the validator says while it compiles the schemas (an unknown `format`, a
// keyword it does not know) fails the run: clients print it on every `tools/list`.
//
// Run by `.ci/run`, copied beside its `node_modules` (`npm ci` of this folder's lockfile):
//     node validate.mjs path/to/mdbook-contract path/to/tests/fixtures/broker

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const calls = [
  ["contract_overview", {}],
  ["contract_axis", { code: "delivery" }],
  ["contract_rule", { id: "r[verify publish.reject-oversized]" }],
  ["contract_rule", { id: "ordering.per-key" }],
  ["contract_rules", {}],
  ["contract_rules", { provider: "redis-streams", status: "profile-unknown" }],
  ["contract_rules", { status: "failed" }],
  ["contract_provider", { name: "kafka" }],
  ["contract_provider", { name: "redis-streams" }],
  ["contract_brief", { provider: "redis-streams" }],
  ["contract_brief", { provider: "redis-streams", section: "rules", page_size: 4000 }],
  ["contract_check", {}],
  ["contract_check", { path: "contract.md", page_size: 2000 }],
  ["contract_uncovered", {}],
  ["contract_uncovered", { provider: "redis-streams", page_size: 1000 }],
  ["contract_new_spec", { name: "gcp-pubsub" }],
  ["contract_provider", { name: "gcp-pubsub" }],
];

/** What the validator says on the console, which a client shows its user. */
const said = [];
for (const level of ["warn", "error", "log"]) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    said.push(args.map(String).join(" "));
    original(...args);
  };
}

function fail(message) {
  process.stderr.write(`mcp-ts: ${message}\n`);
  process.exit(1);
}

const [binary, fixture] = process.argv.slice(2);
if (!binary || !fixture) fail("usage: node validate.mjs path/to/mdbook-contract path/to/broker");
const root = mkdtempSync(join(tmpdir(), "mcp-ts-"));
try {
  cpSync(fixture, root, { recursive: true });
  const toml = join(root, "book.toml");
  writeFileSync(
    toml,
    readFileSync(toml, "utf8") +
      'test-results = ["results/conformance.xml", "results/adapters.json"]\n',
  );
  const transport = new StdioClientTransport({ command: binary, args: ["mcp", root], stderr: "ignore" });
  const client = new Client({ name: "mcp-ts", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const listed = tools.map((t) => t.name).sort();
  const called = [...new Set(calls.map(([name]) => name))].sort();
  if (JSON.stringify(listed) !== JSON.stringify(called)) {
    fail(`tools listed ${listed}, called ${called}`);
  }
  for (const tool of tools) {
    if (!tool.outputSchema) fail(`${tool.name} has no outputSchema`);
  }
  for (const [name, args] of calls) {
    // The SDK validates the structured content against the tool's output schema.
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) fail(`${name} ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
    const first = JSON.parse(result.content[0].text);
    if (JSON.stringify(first) !== JSON.stringify(result.structuredContent)) {
      fail(`${name}: the first block is not the structured content`);
    }
    process.stdout.write(`${name} ${JSON.stringify(args)}: valid, ${result.content[0].text.length} bytes\n`);
  }
  const refused = await client.callTool({ name: "contract_rule", arguments: { id: "publish.akc" } });
  if (!refused.isError || !refused.content[0].text.includes("did you mean")) {
    fail(`an unknown rule: ${JSON.stringify(refused)}`);
  }
  await client.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (said.length > 0) fail(`the SDK's validator said ${said.length} things:\n${said.join("\n")}`);
process.stdout.write(`mcp-ts: ${calls.length} answers valid, nothing said by the validator\n`);
