// The client against a real "factbase serve": each test uses a user of its own.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { Factbase } from "../src/index.js";
import { startServer, type TestServer } from "./server.js";

let server: TestServer;
let fb: Factbase;
const newUser = () => crypto.randomUUID();

before(async () => {
  server = await startServer();
  fb = new Factbase({ baseUrl: server.url, apiKey: server.key });
});
after(() => server?.stop());

test("sayMessages: a conversation's turns", async () => {
  const u = newUser();
  const said = await fb.sayMessages(u, [
    { role: "system", content: "You are helpful." },
    { role: "user", content: "My favorite teas are oolong and chai." },
    { role: "assistant", content: "My favorite tea is green tea." },
  ]);
  assert.equal(said.result.stored, 2);
  const answer = await fb.ask(u, "What are my favorite teas?");
  assert.deepEqual(answer.items?.map((i) => i.value), ["oolong", "chai"]);
});

test("say then ask: a ranked list round trip", async () => {
  const u = newUser();
  const said = await fb.say(u, "My favorite cryptos are BTC, ETH, and XMR");
  assert.equal(said.route, "write");
  assert.equal(said.result.stored, 3);
  assert.equal(said.reply, "Added BTC, ETH and XMR to your favorite cryptocurrencies (#1-#3).");
  assert.equal(said.topics?.[0]?.key, "favorites.cryptocurrency");

  const moved = await fb.say(u, "Move XMR to #1 in my favorite cryptocurrencies");
  assert.deepEqual(
    moved.result.mutations?.map((m) => [m.value, m.action, m.from, m.to]),
    [["XMR", "MOVE", 3, 1]],
  );
  const answer = await fb.ask(u, "What's my second favorite crypto?");
  assert.equal(answer.route, "read");
  assert.equal(answer.key, "favorites.cryptocurrency");
  assert.deepEqual(answer.items?.map((i) => [i.rank, i.value]), [[2, "BTC"]]);
  assert.equal(answer.reply, "Your #2 favorite cryptocurrency is BTC.");

  const unknown = await fb.ask(u, "What is my favorite movie?");
  assert.deepEqual(unknown.items, []);
  assert.match(unknown.reply, /I don't know/);
});

test("remember, recall and search", async () => {
  const u = newUser();
  const remembered = await fb.remember(u, "My son Leo is 8 and loves dinosaurs.");
  assert.equal(remembered.extraction, "rules");
  assert.equal(remembered.result.stored, 3);
  assert.equal(remembered.job, undefined, "no model is configured, so no job");
  assert.match(remembered.reply, /Leo \(son\): age 8/);

  const recalled = await fb.recall(u, "How old is Leo?", { limit: 5 });
  assert.equal(recalled.query, "How old is Leo?");
  assert.equal(recalled.hits?.[0]?.key, "age");
  assert.equal(recalled.hits?.[0]?.value, "8");
  assert.match(recalled.prompt, /- Leo \(son\) is 8 years old/);
  assert.equal(recalled.facts_by_entity?.[0]?.about, "Leo");

  const found = await fb.search(u, "dinosaurs", { kinds: ["fact"], limit: 3 });
  assert.ok(found.hits && found.hits.length > 0, "search found nothing");
  assert.equal(found.hits[0]!.kind, "fact");
  assert.match(found.hits[0]!.text, /dinosaurs/);
  assert.ok(found.hits.length <= 3);
});

test("facts: set, get, list, history, retract, delete", async () => {
  const u = newUser();
  const first = await fb.facts.set(u, { key: "contact.email", value: "anna@example.com", category: "core" });
  assert.equal(first.stored, 1);
  const id = first.facts?.[0]?.id;
  assert.ok(id, "the write result names the fact");
  const fact = await fb.facts.get(u, id);
  assert.equal(fact.key, "contact.email");
  assert.equal(fact.value, "anna@example.com");
  assert.equal(fact.current, true);

  await fb.facts.set(u, { key: "contact.email", value: "anna@work.example" });
  const current = await fb.facts.list(u, { key: "contact.email" });
  assert.deepEqual(current.facts?.map((f) => f.value), ["anna@work.example"]);
  assert.equal(current.more, false);
  const all = await fb.facts.list(u, { key: "contact.email", history: true });
  assert.equal(all.facts?.length, 2);
  const history = await fb.facts.history(u, "contact.email");
  assert.deepEqual(history.versions?.map((f) => f.value), ["anna@work.example", "anna@example.com"]);

  const newest = current.facts![0]!.id;
  const retracted = await fb.facts.retract(u, newest);
  assert.equal(retracted.retracted, 1);
  assert.deepEqual((await fb.facts.list(u, { key: "contact.email" })).facts, []);
  const deleted = await fb.facts.delete(u, id);
  assert.equal(deleted.deleted, 1);
});

test("lists: add, rank (move), show, remove", async () => {
  const u = newUser();
  const key = "favorites.text_editor";
  const added = await fb.lists.add(u, key, ["Helix", "Neovim", "Emacs"]);
  assert.equal(added.stored, 3);
  const again = await fb.lists.add(u, key, "Neovim");
  assert.equal(again.stored, 0);
  assert.equal(again.duplicates?.[0]?.rank, 2);

  const moved = await fb.lists.rank(u, key, "Emacs", 1);
  assert.deepEqual(moved.mutations?.map((m) => [m.action, m.from, m.to, m.shifted]), [["MOVE", 3, 1, 2]]);
  let page = await fb.lists.show(u, key);
  assert.equal(page.total, 3);
  assert.deepEqual(page.items?.map((f) => [f.rank, f.value]), [[1, "Emacs"], [2, "Helix"], [3, "Neovim"]]);

  await fb.lists.remove(u, key, "Helix");
  page = await fb.lists.show(u, key, { limit: 1 });
  assert.equal(page.total, 2);
  assert.deepEqual(page.items?.map((f) => [f.rank, f.value]), [[1, "Emacs"]]);

  // A value with a slash travels percent-encoded in the path.
  await fb.lists.add(u, "favorites.band", "AC/DC");
  await fb.lists.remove(u, "favorites.band", "AC/DC");
  assert.equal((await fb.lists.show(u, "favorites.band")).total, 0);
});

test("people: create, list, get, rename, alias", async () => {
  const u = newUser();
  const created = await fb.people.create(u, { name: "Martin", role: "colleague", relation: "accountant" });
  const id = created.entity.id;
  assert.equal(created.entity.name, "Martin");
  assert.equal(created.entity.role, "colleague");

  const listed = await fb.people.list(u);
  assert.deepEqual(listed.entities?.map((e) => e.name), ["Martin"]);
  const renamed = await fb.people.rename(u, id, "Martin Berg");
  assert.equal(renamed.name, "Martin Berg");
  const aliased = await fb.people.addAlias(u, id, "Marty");
  assert.ok(aliased.aliases?.includes("Marty"), `aliases ${aliased.aliases}`);
  const view = await fb.people.get(u, id);
  assert.equal(view.name, "Martin Berg");
  assert.deepEqual(view.facts?.map((f) => [f.key, f.value]), [["relation", "accountant"]]);
});

test("conflicts: a changed employer waits; confirm applies it", async () => {
  const u = newUser();
  await fb.say(u, "My wife Sarah works at Google.");
  const said = await fb.say(u, "Sarah works at Apple.");
  assert.match(said.reply, /until you confirm/);

  const pending = await fb.conflicts.list(u);
  assert.equal(pending.conflicts?.length, 1);
  const c = pending.conflicts![0]!;
  assert.equal(c.key, "work.employer");
  assert.equal(c.current_value, "Google");
  assert.equal(c.proposed.value, "Apple");
  assert.equal(c.status, "pending");

  const confirmed = await fb.conflicts.confirm(u, c.id);
  assert.equal(confirmed.conflict.status, "confirmed");
  assert.deepEqual((await fb.conflicts.list(u)).conflicts, []);
  assert.equal((await fb.conflicts.list(u, { status: "all" })).conflicts?.length, 1);
  const answer = await fb.ask(u, "Where does Sarah work?");
  assert.match(answer.reply, /Apple/);
});

test("episodes: add, get, list", async () => {
  const u = newUser();
  const content = "Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions.";
  const added = await fb.episodes.add(u, { content, tags: ["Nexus", "deploy"], importance: 0.8 });
  const id = added.episode.id;
  assert.deepEqual(added.episode.tags, ["deploy", "nexus"], "tags are lower-cased and sorted");
  assert.equal(added.episode.importance, 0.8);

  const got = await fb.episodes.get(u, id);
  assert.equal(got.episode.content, content);
  assert.equal(got.facts?.length, added.facts?.length);
  const page = await fb.episodes.list(u, { tags: "nexus" });
  assert.equal(page.total, 1);
  assert.equal(page.episodes?.[0]?.id, id);
  const removed = await fb.episodes.delete(u, id);
  assert.equal(removed.episodes, 1);
});

test("the fact sheet and its prompt", async () => {
  const u = newUser();
  await assert.rejects(fb.sheet.get(u), { name: "FactbaseError", status: 404 });
  await fb.say(u, "My email is anna@example.com"); // every write regenerates the sheet
  assert.match((await fb.sheet.get(u)).entries?.[0]?.text ?? "", /anna@example\.com/);
  const sheet = await fb.sheet.generate(u);
  assert.ok(sheet.count >= 1);
  assert.ok(sheet.entries?.some((e) => e.text.includes("anna@example.com")));
  assert.equal((await fb.sheet.get(u)).id, sheet.id);

  const prompt = await fb.sheet.prompt(u, { max_chars: 2000 });
  assert.match(prompt.text, /anna@example\.com/);
  assert.ok(prompt.tokens > 0);
});

test("transcripts: ingest a JSONL session, then query it", async () => {
  const u = newUser();
  const jsonl = readFileSync(new URL("../../../testdata/session.jsonl", import.meta.url), "utf8");
  const summary = await fb.transcripts.ingest(u, "ref.jsonl", jsonl);
  assert.equal(summary.file, "ref.jsonl");
  assert.equal(summary.lines, 2);
  assert.equal(summary.stored, 8);
  const again = await fb.transcripts.ingest(u, "ref.jsonl", new TextEncoder().encode(jsonl));
  assert.equal(again.stored, 0, "an unchanged file stores nothing again");
  const streamed = await fb.transcripts.ingest(u, "ref.jsonl", new Blob([jsonl + "{oops\n"]).stream());
  assert.deepEqual([streamed.resumed, streamed.lines, streamed.malformed], [true, 1, 1], "a stream, sent chunked");

  const hosts = await fb.transcripts.facts(u, { predicate: "connects_to_host", min_confidence: 0.9 });
  assert.deepEqual(hosts.facts?.map((f) => [f.object, f.source.id]), [
    ["192.168.20.4", "ref.jsonl:2:a1000000-0000-4000-8000-000000000002"],
  ]);
  const objects = await fb.transcripts.objects(u, { predicate: "operation_type" });
  assert.deepEqual(objects.objects?.map((o) => o.object), ["verification"]);
  const sessions = await fb.transcripts.sessions(u);
  assert.deepEqual(sessions.sessions?.map((s) => [s.file, s.cwd]), [["ref.jsonl", "/home/anna/homelab"]]);
});

test("me, health, and any other route by its path", async () => {
  assert.equal((await fb.me()).kind, "application");
  const health = await fb.health();
  assert.equal(health.status, "ok");
  const jobs = await fb.transport.op("get", "/v1/users/{user}/jobs", { user: newUser() }, { query: { limit: 5 } });
  assert.deepEqual(jobs.jobs, []);
});
