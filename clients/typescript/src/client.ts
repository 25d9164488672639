import { Conflicts, Episodes, Facts, Lists, People, Sheet, Transcripts } from "./resources.js";
import { Transport, type FactbaseOptions } from "./transport.js";
import type * as T from "./types.js";

const U = "/v1/users/{user}" as const;

/**
 * A client of one Factbase server. Users are UUIDs and every method takes the user first;
 * each returns the response body, typed from the OpenAPI document, and throws a
 * FactbaseError (status, title, detail, errors) on any answer but 2xx.
 *
 *   const fb = new Factbase({ baseUrl: "http://127.0.0.1:7411", apiKey: process.env.FACTBASE_KEY });
 *   await fb.say(user, "My favorite cryptos are BTC, ETH and XMR");
 *   (await fb.ask(user, "What's my second favorite crypto?")).reply;
 */
export class Factbase {
  readonly transport: Transport;
  readonly facts: Facts;
  readonly lists: Lists;
  readonly people: People;
  readonly conflicts: Conflicts;
  readonly episodes: Episodes;
  readonly sheet: Sheet;
  readonly transcripts: Transcripts;

  constructor(options: FactbaseOptions = {}) {
    const t = (this.transport = new Transport(options));
    this.facts = new Facts(t);
    this.lists = new Lists(t);
    this.people = new People(t);
    this.conflicts = new Conflicts(t);
    this.episodes = new Episodes(t);
    this.sheet = new Sheet(t);
    this.transcripts = new Transcripts(t);
  }

  /** Remembers what a user's message states (rules, no model). */
  say(user: string, text: string, options?: Omit<T.SayRequest, "text">): Promise<T.SayResult> {
    return this.transport.op("post", `${U}/messages`, { user }, { json: { ...options, text } });
  }

  /**
   * Remembers a conversation's turns, as chat APIs write them: user turns state the
   * user's facts, assistant turns never do, system and tool turns are skipped.
   */
  sayMessages(
    user: string,
    messages: NonNullable<T.SayRequest["messages"]>,
    options?: Omit<T.SayRequest, "text" | "messages">,
  ): Promise<T.SayResult> {
    return this.transport.op("post", `${U}/messages`, { user }, { json: { ...options, messages } });
  }

  /** Answers a question from the stored facts, citing them; "I don't know" rather than a guess. */
  ask(user: string, text: string, options?: Omit<T.AskRequest, "text">): Promise<T.AskResult> {
    return this.transport.op("post", `${U}/questions`, { user }, { json: { ...options, text } });
  }

  /** Stores a message's rule facts at once, and queues it for the model when one is configured. */
  remember(user: string, text: string, options?: Omit<T.RememberRequest, "text">): Promise<T.Remembered> {
    return this.transport.op("post", `${U}/memories`, { user }, { json: { ...options, text } });
  }

  /** What bears on a question, grouped by person, with a prompt block. */
  recall(user: string, query: string, options?: Omit<T.RecallRequest, "query">): Promise<T.Recollection> {
    return this.transport.op("post", `${U}/recall`, { user }, { json: { ...options, query } });
  }

  /** Hybrid search over facts and episodes. */
  search(user: string, query: string, options?: Omit<T.SearchRequest, "query">): Promise<T.SearchResult> {
    return this.transport.op("post", `${U}/search`, { user }, { json: { ...options, query } });
  }

  /** The hybrid query: facts first, else episodes. */
  query(user: string, question: string, options?: Omit<T.QueryRequest, "question">): Promise<T.QueryAnswer> {
    return this.transport.op("post", `${U}/query`, { user }, { json: { ...options, question } });
  }

  /** Direct fact look-up by type or key, with tag and date filters. */
  lookup(user: string, query?: T.LookupQuery): Promise<T.LookupResult> {
    return this.transport.op("get", `${U}/lookup`, { user }, { query });
  }

  /** Which key this client carries and whose data it opens. */
  me(): Promise<T.Me> {
    return this.transport.op("get", "/v1/me", {});
  }

  /** Liveness and the server's build (needs no key). */
  health(): Promise<T.Health> {
    return this.transport.op("get", "/healthz", {});
  }
}
