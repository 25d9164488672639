// npm test: compiles afresh (tsc into dist/), then runs the tests with node's test runner against a real
// "factbase serve". The tests start the binary at $FACTBASE_BIN; without it this script
// builds one from the repository (go build ./cmd/factbase) into a temporary directory.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
rmSync(join(pkg, "dist"), { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [join(pkg, "node_modules", "typescript", "bin", "tsc"), "-p", pkg], { stdio: "inherit" });
if (tsc.status !== 0) {
  console.error("test: tsc failed (run npm ci first if node_modules is missing)");
  process.exit(1);
}

const env = { ...process.env };
let tmp;
if (!env.FACTBASE_BIN) {
  let repo = pkg;
  while (!existsSync(join(repo, "go.mod"))) {
    const up = dirname(repo);
    if (up === repo) {
      console.error("test: no go.mod above clients/typescript and no $FACTBASE_BIN: set FACTBASE_BIN to a factbase binary");
      process.exit(1);
    }
    repo = up;
  }
  tmp = mkdtempSync(join(tmpdir(), "factbase-ts-"));
  env.FACTBASE_BIN = join(tmp, "factbase");
  console.log(`test: go build -o ${env.FACTBASE_BIN} ./cmd/factbase`);
  const build = spawnSync("go", ["build", "-o", env.FACTBASE_BIN, "./cmd/factbase"], { cwd: repo, stdio: "inherit" });
  if (build.status !== 0) {
    console.error("test: go build failed");
    process.exit(1);
  }
}
env.FACTBASE_BIN = resolve(env.FACTBASE_BIN);
const files = readdirSync(join(pkg, "dist", "test")).filter((f) => f.endsWith(".test.js")).map((f) => join("dist", "test", f));
const run = spawnSync(process.execPath, ["--test", ...process.argv.slice(2), ...files], { cwd: pkg, env, stdio: "inherit" });
if (tmp) rmSync(tmp, { recursive: true, force: true });
process.exit(run.status ?? 1);
