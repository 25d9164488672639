// Drives factbase's MCP server with the official TypeScript SDK's client: over stdio
// ("factbase mcp") and over streamable HTTP ("factbase serve --no-auth" on a
// loopback port). FACTBASE_BIN names the binary (.ci/mcp-sdk-test builds it).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const bin = process.env.FACTBASE_BIN;
const user = '0b7c2a4e-2f1d-4c3b-9a8e-5d6f7a8b9c0d';
const newTools = ['add_episode', 'get_fact', 'erase_fact'];
const procs = []; // every process started, killed at the end if still running
let dir;

before(async () => {
  assert.ok(bin, 'FACTBASE_BIN must name the factbase binary');
  dir = await mkdtemp(path.join(tmpdir(), 'factbase-mcp-sdk-'));
});

after(async () => {
  for (const p of procs) {
    if (p.exitCode === null && p.signalCode === null) {
      p.kill('SIGKILL');
    }
  }
  await rm(dir, { recursive: true, force: true });
});

// start starts the binary with args on a database of its own.
function start(name, args, stdio) {
  const p = spawn(bin, args, { env: env(name), stdio });
  procs.push(p);
  return p;
}

// env is the environment of a factbase process on its own database.
function env(name) {
  return { ...process.env, FACTBASE_DB: path.join(dir, `${name}.db`), FACTBASE_USER: user };
}

function text(result) {
  return (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

// call calls a tool that must succeed and returns its structured content.
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, `${name}: tool error ${text(result)}`);
  return result.structuredContent;
}

// callError calls a tool that must fail with a tool error and returns its message.
async function callError(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name}(${JSON.stringify(args)}) succeeded`);
  return text(result);
}

function newClient() {
  return new Client({ name: 'factbase-ci', version: '1.0.0' });
}

// exercise runs what every transport must serve; extra is added to each tool's
// arguments (the user, on a server without keys).
async function exercise(client, extra) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of ['remember', 'ask', 'search', 'set_fact', 'forget', ...newTools]) {
    assert.ok(names.includes(name), `tools/list lacks ${name}: ${names}`);
  }
  const schema = (tool) => tools.find((t) => t.name === tool).inputSchema.properties;
  assert.equal(schema('set_fact').rank.minimum, 1);
  assert.deepEqual(schema('forget').mode.enum, ['retract', 'delete']);
  assert.equal(schema('list_facts').limit.maximum, 1000);
  assert.equal(schema('add_episode').created_at.format, 'date-time');

  const rem = await call(client, 'remember', { text: 'My favorite editors are Helix and Neovim', ...extra });
  assert.equal(rem.counts.stored, 2);
  const ask = await call(client, 'ask', { question: 'What is my second favorite editor?', ...extra });
  assert.equal(ask.items[0].value, 'Neovim');
  const id = ask.items[0].id;

  const ep = await call(client, 'add_episode', {
    content: 'Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions.',
    tags: ['nexus'], importance: 0.8, ...extra,
  });
  assert.ok(ep.episode.id);
  assert.deepEqual(ep.episode.tags, ['nexus']);

  const got = await call(client, 'get_fact', { id, ...extra });
  assert.equal(got.fact.value, 'Neovim');
  assert.equal(got.fact.rank, 2);

  assert.match(await callError(client, 'erase_fact', { id, ...extra }), /not erased.*Neovim.*confirm: true/s);
  assert.equal((await call(client, 'get_fact', { id, ...extra })).fact.value, 'Neovim');
  const erased = await call(client, 'erase_fact', { id, confirm: true, reason: 'CI', ...extra });
  assert.ok(erased.counts.deleted >= 1);
  assert.match(await callError(client, 'get_fact', { id, ...extra }), /not found/);

  assert.match(await callError(client, 'set_fact', { key: 'favorites.movie', value: 'Alien', rank: 0, ...extra }),
    /rank must be at least 1, got 0/);

  const sheet = await client.readResource({ uri: `factbase://users/${user}/fact-sheet` });
  assert.equal(sheet.cacheScope, 'private');
  assert.match(sheet.contents[0].text, /Helix/);
  await assert.rejects(client.readResource({ uri: 'factbase://users/alice/fact-sheet' }),
    (err) => err.code === -32602 && /not a UUID/.test(err.message));
}

test('stdio: the SDK client calls the tools, and a bad line does not end the session', { timeout: 60_000 }, async () => {
  const transport = new StdioClientTransport({ command: bin, args: ['mcp'], env: env('stdio'), stderr: 'pipe' });
  const client = newClient();
  const errors = [];
  client.onerror = (err) => errors.push(err);
  await client.connect(transport);
  try {
    await exercise(client, {});
    // A line that is not JSON, written past the SDK: the server answers it with a
    // parse error (which the client reports, having no request of that id) and
    // goes on serving.
    transport._process.stdin.write('this is not json\n');
    const ask = await call(client, 'ask', { question: 'What is my favorite editor?' });
    assert.equal(ask.items[0].value, 'Helix');
    assert.ok(errors.length > 0, 'the client saw no answer to the bad line');
  } finally {
    await client.close();
  }
});

// lines reads the JSON lines a process writes.
function lines(stream) {
  const it = readline.createInterface({ input: stream })[Symbol.asyncIterator]();
  return async () => {
    const { value, done } = await it.next();
    return done ? undefined : JSON.parse(value);
  };
}

test('stdio: a parse error is -32700 with a null id, and the answers in flight survive the end of input', { timeout: 60_000 }, async () => {
  const proc = start('raw', ['mcp'], ['pipe', 'pipe', 'inherit']);
  try {
    const next = lines(proc.stdout);
    const send = (msg) => proc.stdin.write((typeof msg === 'string' ? msg : JSON.stringify(msg)) + '\n');
    send({ jsonrpc: '2.0', id: 0, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    assert.equal((await next())?.id, 0);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    // Half a message on a line of its own: a parse error, not the start of a
    // message the next line would complete.
    send('{"jsonrpc": "2.0", "id": 1, "method": ');
    const parseError = await next();
    assert.equal(parseError?.id, null, JSON.stringify(parseError));
    assert.equal(parseError.error.code, -32700);
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: { question: 'What is my email?' } } });
    const answer = await next();
    assert.equal(answer?.id, 2, JSON.stringify(answer));
    assert.ok(answer.result, JSON.stringify(answer));

    const n = 30;
    for (let i = 0; i < n; i++) {
      send({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call',
        params: { name: 'remember', arguments: { text: `My favorite number is ${i}` } } });
    }
    proc.stdin.end();
    const answered = new Set();
    for (let msg = await next(); msg !== undefined; msg = await next()) {
      assert.ok(msg.result && !msg.result.isError, JSON.stringify(msg));
      answered.add(msg.id);
    }
    assert.equal(answered.size, n, `${answered.size} of ${n} calls answered before the server exited`);
    const [code] = proc.exitCode !== null ? [proc.exitCode] : await once(proc, 'exit');
    assert.equal(code, 0);
  } finally {
    if (proc.exitCode === null) {
      proc.kill('SIGKILL');
    }
  }
});

test('http: the SDK client calls the tools of "factbase serve --no-auth", and errors are JSON-RPC', { timeout: 60_000 }, async () => {
  const proc = start('http', ['serve', '--no-auth', '--addr', '127.0.0.1:0'], ['ignore', 'pipe', 'pipe']);
  let log = ''; // its JSON log lines, drained so that the pipe never fills
  proc.stderr.on('data', (b) => { log += b; });
  try {
    const base = await new Promise((resolve, reject) => {
      const rl = readline.createInterface({ input: proc.stdout });
      rl.on('line', (line) => {
        const m = line.match(/listening on (http:\/\/\S+)/);
        if (m) resolve(m[1]);
      });
      proc.on('exit', (code) => reject(new Error(`factbase serve exited with ${code}: ${log}`)));
    });
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      await exercise(client, { user });
    } finally {
      await client.close();
    }

    const resp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    assert.equal(resp.status, 400);
    assert.match(resp.headers.get('content-type'), /^application\/json/);
    const body = await resp.json();
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.error.code, -32700);

    const metrics = await (await fetch(`${base}/metrics`)).text();
    assert.match(metrics, /factbase_mcp_tool_calls_total\{outcome="ok",tool="remember"\} 1/);
    assert.match(metrics, /factbase_mcp_tool_calls_total\{outcome="refused",tool="set_fact"\} 1/);
    assert.match(metrics, /factbase_mcp_tool_call_duration_seconds_count\{tool="erase_fact"\} 2/);
  } finally {
    proc.kill('SIGTERM');
    if (proc.exitCode === null) await once(proc, 'exit');
  }
});
