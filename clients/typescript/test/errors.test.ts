// Errors: every non-2xx answer is a FactbaseError read from application/problem+json.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Factbase, FactbaseError } from "../src/index.js";
import { startServer, type TestServer } from "./server.js";

let server: TestServer;
let fb: Factbase;

before(async () => {
  server = await startServer();
  fb = new Factbase({ baseUrl: server.url, apiKey: server.key });
});
after(() => server?.stop());

/** Runs call, which must fail, and returns its FactbaseError. */
async function failure(call: Promise<unknown>): Promise<FactbaseError> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof FactbaseError, `threw ${err}, not a FactbaseError`);
    return err;
  }
  assert.fail("the call succeeded");
}

test("401 with a wrong key, and with none", async () => {
  const wrong = new Factbase({ baseUrl: server.url, apiKey: "fb_" + "A".repeat(43) });
  const err = await failure(wrong.say(crypto.randomUUID(), "My email is a@example.com"));
  assert.equal(err.status, 401);
  assert.equal(err.title, "Unauthorized");
  assert.ok(err.detail.length > 0);
  assert.match(err.requestId ?? "", /^[0-9a-f]+$/);
  assert.match(err.message, /^401 Unauthorized: /);

  const none = new Factbase({ baseUrl: server.url });
  assert.equal((await failure(none.facts.list(crypto.randomUUID()))).status, 401);
});

test("422 with a user id that is not a UUID names path.user", async () => {
  const err = await failure(fb.ask("alice", "What is my email?"));
  assert.equal(err.status, 422);
  assert.equal(err.title, "Unprocessable Entity");
  assert.match(err.detail, /not a UUID/);
  assert.equal(err.errors[0]?.location, "path.user");
  assert.equal(err.errors[0]?.value, "alice");
});

test("422 for a rank below 1 names body.rank", async () => {
  const err = await failure(fb.lists.rank(crypto.randomUUID(), "favorites.color", "blue", 0));
  assert.equal(err.status, 422);
  assert.ok(err.errors.some((e) => e.location === "body.rank"), JSON.stringify(err.errors));
});

test("403 with a user key on another user's data; the key's own user works", async () => {
  const own = new Factbase({ baseUrl: server.url, apiKey: server.userKey });
  assert.deepEqual(await own.me(), { kind: "user", key: (await own.me()).key, user: server.userKeyUser });
  await own.say(server.userKeyUser, "My email is own@example.com");
  const err = await failure(own.facts.list(crypto.randomUUID()));
  assert.equal(err.status, 403);
  assert.equal(err.title, "Forbidden");
});

test("404 for a fact that does not exist", async () => {
  const err = await failure(fb.facts.get(crypto.randomUUID(), crypto.randomUUID()));
  assert.equal(err.status, 404);
});

test("429 over the key's rate says when to retry", async () => {
  const slow = await startServer(["--rate-limit", "1", "--rate-burst", "1"]);
  try {
    const c = new Factbase({ baseUrl: slow.url, apiKey: slow.key });
    await c.me();
    const err = await failure(c.me());
    assert.equal(err.status, 429);
    assert.ok(err.retryAfter !== undefined && err.retryAfter >= 1, `retryAfter ${err.retryAfter}`);
  } finally {
    await slow.stop();
  }
});

test("a body that is not problem+json still becomes a FactbaseError", async () => {
  const html = async () => new Response("<h1>Bad Gateway</h1>", { status: 502, headers: { "Content-Type": "text/html" } });
  const proxied = new Factbase({ baseUrl: server.url, fetch: html });
  const err = await failure(proxied.me());
  assert.equal(err.status, 502);
  assert.equal(err.title, "HTTP 502");
  assert.equal(err.detail, "<h1>Bad Gateway</h1>");
  assert.equal(err.problem, undefined);
});

test("timeoutMs aborts a request that takes too long", async () => {
  const hang: typeof fetch = (_input, init) =>
    new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
  const c = new Factbase({ baseUrl: server.url, fetch: hang, timeoutMs: 50 });
  await assert.rejects(c.me(), { name: "TimeoutError" });
});

test("requests carry the key, JSON and the path percent-encoded", async () => {
  const seen: { url: string; init: RequestInit }[] = [];
  const spy: typeof fetch = async (input, init) => {
    seen.push({ url: String(input), init: init ?? {} });
    return fetch(input, init);
  };
  const c = new Factbase({ baseUrl: server.url + "/", apiKey: server.key, fetch: spy, headers: { "User-Agent": "t" } });
  const u = crypto.randomUUID();
  await c.lists.show(u, "favorites.x/y", { limit: 5, as_of: undefined });
  await c.facts.set(u, { key: "contact.email", value: "a@example.com" });
  assert.equal(seen[0]!.url, `${server.url}/v1/users/${u}/lists/favorites.x%2Fy?limit=5`);
  const h0 = seen[0]!.init.headers as Record<string, string>;
  assert.equal(h0.Authorization, `Bearer ${server.key}`);
  assert.equal(h0["User-Agent"], "t");
  assert.equal(seen[1]!.init.method, "POST");
  assert.equal((seen[1]!.init.headers as Record<string, string>)["Content-Type"], "application/json");
  assert.deepEqual(JSON.parse(String(seen[1]!.init.body)), { key: "contact.email", value: "a@example.com" });
});
