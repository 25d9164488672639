// Regenerates src/schema.ts from a Factbase OpenAPI document with openapi-typescript.
//
//   npm run gen -- http://127.0.0.1:7411          # a running "factbase serve"
//   npm run gen -- ./openapi.json                 # a saved document
//   npm run gen -- URL_OR_FILE --check            # compare only; exit 1 if src/schema.ts differs
//
// Without an argument it reads $FACTBASE_URL, else http://127.0.0.1:7411. A URL that does
// not end in .json gets /openapi.json appended.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const target = join(root, "src", "schema.ts");
const args = process.argv.slice(2);
const check = args.includes("--check");
let source = args.find((a) => a !== "--check") ?? process.env.FACTBASE_URL ?? "http://127.0.0.1:7411";
if (/^https?:\/\//.test(source) && !source.endsWith(".json")) {
  source = source.replace(/\/+$/, "") + "/openapi.json";
}

const tmp = mkdtempSync(join(tmpdir(), "factbase-gen-"));
const out = check ? join(tmp, "schema.ts") : target;
try {
  const cli = join(root, "node_modules", "openapi-typescript", "bin", "cli.js");
  const run = spawnSync(process.execPath, [cli, source, "--output", out], { encoding: "utf8" });
  if (run.status !== 0) {
    process.stderr.write(run.stdout + run.stderr);
    console.error(`gen: openapi-typescript failed on ${source} (is "npm ci" done, is the server up?)`);
    process.exit(1);
  }
  if (!check) {
    console.log(`gen: wrote src/schema.ts from ${source}`);
    process.exit(0);
  }
  const want = readFileSync(out, "utf8").split("\n");
  const have = readFileSync(target, "utf8").split("\n");
  const n = Math.max(want.length, have.length);
  for (let i = 0; i < n; i++) {
    if (want[i] !== have[i]) {
      console.error(`gen: src/schema.ts is out of date with ${source}: line ${i + 1} is`);
      console.error(`  committed: ${JSON.stringify(have[i] ?? "<end of file>")}`);
      console.error(`  generated: ${JSON.stringify(want[i] ?? "<end of file>")}`);
      console.error(`Regenerate it: cd clients/typescript && npm run gen -- ${source}  (or run clients/regen)`);
      process.exit(1);
    }
  }
  console.log(`gen: src/schema.ts matches ${source}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
