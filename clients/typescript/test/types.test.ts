// The generated types: in step with the server's OpenAPI document, and every named type
// in src/types.ts resolves to a real type (a path or method renamed in the document would
// otherwise turn its type into never, which the compiler accepts without a word).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import ts from "typescript";
import { startServer, type TestServer } from "./server.js";

const pkg = fileURLToPath(new URL("../../", import.meta.url));

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server?.stop());

test("src/schema.ts matches the served /openapi.json (else: npm run gen -- URL)", () => {
  const run = spawnSync(process.execPath, ["scripts/gen.mjs", server.url, "--check"], { cwd: pkg, encoding: "utf8" });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /matches/);
});

test("no type in src/types.ts is never", () => {
  const file = `${pkg}src/types.ts`;
  const program = ts.createProgram([file], { strict: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  assert.ok(source, "src/types.ts not found");
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const concrete = exports.filter((s) => {
    const decl = s.declarations?.[0];
    return decl && ts.isTypeAliasDeclaration(decl) && !decl.typeParameters;
  });
  assert.ok(concrete.length > 40, `only ${concrete.length} types found`);
  const never = concrete
    .filter((s) => checker.getDeclaredTypeOfSymbol(s).flags & ts.TypeFlags.Never)
    .map((s) => s.name);
  assert.deepEqual(never, [], "these types are never: their operation has no such part (a 200 JSON body, a query) in src/schema.ts");
});
