// The API's resources: each method is one route, named by its path and method as the
// OpenAPI document names them, so the compiler checks it and types its response body.
import type { Transport } from "./transport.js";
import type * as T from "./types.js";

const U = "/v1/users/{user}" as const;

/** Facts: POST/GET .../facts, .../facts/{id}, .../history/{key}. */
export class Facts {
  constructor(private readonly t: Transport) {}

  /** Creates or sets a fact, by the key's cardinality. */
  set(user: string, fact: T.FactRequest): Promise<T.WriteResult> {
    return this.t.op("post", `${U}/facts`, { user }, { json: fact });
  }
  get(user: string, id: string): Promise<T.Fact> {
    return this.t.op("get", `${U}/facts/{id}`, { user, id });
  }
  list(user: string, query?: T.FactsQuery): Promise<T.FactsPage> {
    return this.t.op("get", `${U}/facts`, { user }, { query });
  }
  /** Ends the fact's validity and keeps its history. */
  retract(user: string, id: string): Promise<T.WriteResult> {
    return this.t.op("post", `${U}/facts/{id}/retract`, { user, id });
  }
  /** Erases the fact, history included. */
  delete(user: string, id: string): Promise<T.WriteResult> {
    return this.t.op("delete", `${U}/facts/{id}`, { user, id });
  }
  /** A page of a key's versions, newest first. */
  history(user: string, key: string, query?: T.HistoryQuery): Promise<T.History> {
    return this.t.op("get", `${U}/history/{key}`, { user, key }, { query });
  }
}

/** Ranked lists (favorites.*): ranks are kept exactly 1..N. */
export class Lists {
  constructor(private readonly t: Transport) {}

  show(user: string, key: string, query?: T.ListQuery): Promise<T.ListPage> {
    return this.t.op("get", `${U}/lists/{key}`, { user, key }, { query });
  }
  /** Appends one value or several in order; values already present come back in duplicates. */
  add(user: string, key: string, values: string | string[], options?: T.ListOptions): Promise<T.WriteResult> {
    const json = typeof values === "string" ? { value: values } : { values };
    return this.t.op("post", `${U}/lists/{key}`, { user, key }, { json, query: options });
  }
  /** Places value at rank: moves a present value, inserts an absent one, appends beyond the end. */
  rank(user: string, key: string, value: string, rank: number, options?: T.ListOptions): Promise<T.WriteResult> {
    return this.t.op("post", `${U}/lists/{key}/rank`, { user, key }, { json: { value, rank }, query: options });
  }
  /** Removes value and closes the gap. */
  remove(user: string, key: string, value: string, options?: T.ListOptions): Promise<T.WriteResult> {
    return this.t.op("delete", `${U}/lists/{key}/items/{value}`, { user, key, value }, { query: options });
  }
}

/** People (entities): whom facts are about. */
export class People {
  constructor(private readonly t: Transport) {}

  list(user: string, query?: T.EntitiesQuery): Promise<T.EntitiesPage> {
    return this.t.op("get", `${U}/entities`, { user }, { query });
  }
  create(user: string, entity: T.EntityRequest): Promise<T.EntityResult> {
    return this.t.op("post", `${U}/entities`, { user }, { json: entity });
  }
  /** An entity with a page of its facts. */
  get(user: string, id: string, query?: T.EntityQuery): Promise<T.EntityView> {
    return this.t.op("get", `${U}/entities/{id}`, { user, id }, { query });
  }
  /** Erases the entity and its facts. */
  delete(user: string, id: string): Promise<T.EntityResult> {
    return this.t.op("delete", `${U}/entities/{id}`, { user, id });
  }
  rename(user: string, id: string, name: string): Promise<T.Entity> {
    return this.t.op("post", `${U}/entities/{id}/rename`, { user, id }, { json: { name } });
  }
  addAlias(user: string, id: string, alias: string): Promise<T.Entity> {
    return this.t.op("post", `${U}/entities/{id}/aliases`, { user, id }, { json: { alias } });
  }
  /** Merges the entity `from` into `id`. */
  merge(user: string, id: string, from: string): Promise<T.EntityResult> {
    return this.t.op("post", `${U}/entities/{id}/merge`, { user, id }, { json: { from } });
  }
  /** Moves the given facts to a new entity. */
  split(user: string, id: string, factIds: string[]): Promise<T.EntityResult> {
    return this.t.op("post", `${U}/entities/{id}/split`, { user, id }, { json: { fact_ids: factIds } });
  }
}

/** Changes waiting for the user to confirm. */
export class Conflicts {
  constructor(private readonly t: Transport) {}

  list(user: string, query?: T.ConflictsQuery): Promise<T.ConflictsPage> {
    return this.t.op("get", `${U}/conflicts`, { user }, { query });
  }
  /** Applies the proposed value through the write path (the old one stays in history). */
  confirm(user: string, id: string): Promise<T.ConflictResult> {
    return this.t.op("post", `${U}/conflicts/{id}/confirm`, { user, id });
  }
  /** Records the decision and changes nothing. */
  reject(user: string, id: string): Promise<T.Conflict> {
    return this.t.op("post", `${U}/conflicts/{id}/reject`, { user, id });
  }
}

/** Episodes: narrative records, and the facts extracted from them. */
export class Episodes {
  constructor(private readonly t: Transport) {}

  list(user: string, query?: T.EpisodesQuery): Promise<T.EpisodePage> {
    return this.t.op("get", `${U}/episodes`, { user }, { query });
  }
  add(user: string, episode: T.EpisodeRequest): Promise<T.EpisodeResult> {
    return this.t.op("post", `${U}/episodes`, { user }, { json: episode });
  }
  /** An episode with a page of its facts. */
  get(user: string, id: string, query?: T.EpisodeQuery): Promise<T.EpisodeWithFacts> {
    return this.t.op("get", `${U}/episodes/{id}`, { user, id }, { query });
  }
  /** Deletes the episode and, unless keep_facts, its facts. */
  delete(user: string, id: string, query?: T.DeleteEpisodeQuery): Promise<T.EpisodeDeletion> {
    return this.t.op("delete", `${U}/episodes/{id}`, { user, id }, { query });
  }
  /** Links facts to an episode by hand. */
  addFacts(user: string, id: string, facts: T.EpisodeFact[]): Promise<T.WriteResult> {
    return this.t.op("post", `${U}/episodes/{id}/facts`, { user, id }, { json: { facts } });
  }
  /** Extracts facts from episodes stored without extraction. */
  backfill(user: string, query?: T.BackfillQuery): Promise<T.BackfillResult> {
    return this.t.op("post", `${U}/episodes/backfill`, { user }, { query });
  }
}

/** The fact sheet: the scored top facts, ready for a prompt. */
export class Sheet {
  constructor(private readonly t: Transport) {}

  /** The latest saved sheet (a FactbaseError with status 404 before the first). */
  get(user: string): Promise<T.FactSheet> {
    return this.t.op("get", `${U}/fact-sheet`, { user });
  }
  generate(user: string): Promise<T.FactSheet> {
    return this.t.op("post", `${U}/fact-sheet`, { user });
  }
  /** The sheet as a prompt block (generated first if there is none). */
  prompt(user: string, query?: T.SheetPromptQuery): Promise<T.SheetPrompt> {
    return this.t.op("get", `${U}/fact-sheet/prompt`, { user }, { query });
  }
}

/** Agent session transcripts (JSON Lines). */
export class Transcripts {
  constructor(private readonly t: Transport) {}

  /**
   * Ingests a transcript. Upload the whole file each time under the same name: only the
   * lines after the last upload's are read.
   */
  ingest(
    user: string,
    file: string,
    body: string | Uint8Array | Blob | ReadableStream<Uint8Array>,
    options?: Omit<T.TranscriptOptions, "file">,
  ): Promise<T.IngestSummary> {
    return this.t.op("post", `${U}/transcripts`, { user }, {
      query: { ...options, file },
      body: body as BodyInit,
      contentType: "application/x-ndjson",
    });
  }
  facts(user: string, query?: T.TranscriptQuery): Promise<T.TranscriptFacts> {
    return this.t.op("get", `${U}/transcripts/facts`, { user }, { query });
  }
  /** Transcript facts grouped by object. */
  objects(user: string, query?: T.TranscriptQuery): Promise<T.TranscriptObjects> {
    return this.t.op("get", `${U}/transcripts/objects`, { user }, { query });
  }
  sessions(user: string, query?: T.SessionsQuery): Promise<T.TranscriptSessions> {
    return this.t.op("get", `${U}/transcripts/sessions`, { user }, { query });
  }
}
