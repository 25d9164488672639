// Starts a real "factbase serve" ($FACTBASE_BIN) on a free loopback port, with a fresh
// SQLite database in a temporary directory and an application key made by "keys create".
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface TestServer {
  url: string;
  /** An application key: every user. */
  key: string;
  /** A user key for userKeyUser only. */
  userKey: string;
  userKeyUser: string;
  stop(): Promise<void>;
}

export function binary(): string {
  const bin = process.env.FACTBASE_BIN;
  if (!bin) throw new Error("FACTBASE_BIN is not set: run the tests with npm test (it builds the binary)");
  return bin;
}

/** Starts a server; extra are more serve flags (the default lifts the per-key rate limit). */
export async function startServer(extra: string[] = ["--rate-limit", "-1"]): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "factbase-ts-test-"));
  const env = { ...process.env, FACTBASE_DB: join(dir, "factbase.db") };
  const keys = (...args: string[]) =>
    execFileSync(binary(), ["keys", "create", ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  const key = keys("--name", "ts-tests");
  const userKeyUser = crypto.randomUUID();
  const userKey = keys("--name", "ts-tests-user", "--user", userKeyUser);

  const log = join(dir, "serve.log");
  const proc = spawn(binary(), ["serve", "--addr", "127.0.0.1:0", ...extra], {
    env,
    stdio: ["ignore", "pipe", openSync(log, "w")],
  });
  const url = await listening(proc, log);
  return {
    url,
    key,
    userKey,
    userKeyUser,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads the server's stdout until it says where it listens. */
function listening(proc: ChildProcess, log: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    const fail = (why: string) => {
      let tail = "";
      try {
        tail = readFileSync(log, "utf8").split("\n").slice(-20).join("\n");
      } catch {}
      reject(new Error(`factbase serve ${why}; its log:\n${tail}`));
    };
    const timer = setTimeout(() => {
      proc.kill();
      fail("did not say where it listens within 30s");
    }, 30_000);
    lines.on("line", (line) => {
      const m = /^factbase: listening on (http:\/\/\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once("exit", (code) => {
      clearTimeout(timer);
      fail(`exited with ${code}`);
    });
  });
}
