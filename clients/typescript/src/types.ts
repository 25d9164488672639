// Request and response types of the Factbase API, taken from the generated schema by path
// and method (not by operation id or schema name, so they survive a renaming of either).
import type { paths } from "./schema.js";

export type Method = "get" | "post" | "delete";
/** The methods the document defines at path P (an undefined one is `?: never` there). */
export type MethodOf<P extends keyof paths> = {
  [K in Method]-?: undefined extends paths[P][K] ? never : K;
}[Method];
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends MethodOf<P>> =
  Op<P, M> extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

/** The JSON body of an operation's 200 response. */
export type ResponseBody<P extends keyof paths, M extends MethodOf<P>> =
  Op<P, M> extends { responses: { 200: { content: { "application/json": infer R } } } } ? R : never;

/** The query parameters an operation takes. */
export type QueryParams<P extends keyof paths, M extends MethodOf<P>> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The path parameters an operation takes. */
export type PathParams<P extends keyof paths, M extends MethodOf<P>> =
  Op<P, M> extends { parameters: { path: infer A } } ? A : Record<string, never>;

type U = "/v1/users/{user}";

// Messages and questions.
export type SayRequest = RequestBody<`${U}/messages`, "post">;
export type SayResult = ResponseBody<`${U}/messages`, "post">;
export type AskRequest = RequestBody<`${U}/questions`, "post">;
export type AskResult = ResponseBody<`${U}/questions`, "post">;
export type RememberRequest = RequestBody<`${U}/memories`, "post">;
export type Remembered = ResponseBody<`${U}/memories`, "post">;
export type RecallRequest = RequestBody<`${U}/recall`, "post">;
export type Recollection = ResponseBody<`${U}/recall`, "post">;
export type SearchRequest = RequestBody<`${U}/search`, "post">;
export type SearchResult = ResponseBody<`${U}/search`, "post">;
export type QueryRequest = RequestBody<`${U}/query`, "post">;
export type QueryAnswer = ResponseBody<`${U}/query`, "post">;
export type LookupQuery = QueryParams<`${U}/lookup`, "get">;
export type LookupResult = ResponseBody<`${U}/lookup`, "get">;

// Facts.
export type Fact = ResponseBody<`${U}/facts/{id}`, "get">;
export type FactRequest = RequestBody<`${U}/facts`, "post">;
export type WriteResult = ResponseBody<`${U}/facts`, "post">;
export type FactsQuery = QueryParams<`${U}/facts`, "get">;
export type FactsPage = ResponseBody<`${U}/facts`, "get">;
export type HistoryQuery = QueryParams<`${U}/history/{key}`, "get">;
export type History = ResponseBody<`${U}/history/{key}`, "get">;

// Ranked lists.
export type ListQuery = QueryParams<`${U}/lists/{key}`, "get">;
export type ListPage = ResponseBody<`${U}/lists/{key}`, "get">;
export type ListOptions = QueryParams<`${U}/lists/{key}`, "post">;

// People and conflicts.
export type EntitiesQuery = QueryParams<`${U}/entities`, "get">;
export type EntitiesPage = ResponseBody<`${U}/entities`, "get">;
export type EntityRequest = RequestBody<`${U}/entities`, "post">;
export type EntityResult = ResponseBody<`${U}/entities`, "post">;
export type EntityQuery = QueryParams<`${U}/entities/{id}`, "get">;
export type EntityView = ResponseBody<`${U}/entities/{id}`, "get">;
export type Entity = EntityResult["entity"];
export type ConflictsQuery = QueryParams<`${U}/conflicts`, "get">;
export type ConflictsPage = ResponseBody<`${U}/conflicts`, "get">;
export type Conflict = NonNullable<ConflictsPage["conflicts"]>[number];
export type ConflictResult = ResponseBody<`${U}/conflicts/{id}/confirm`, "post">;

// Episodes.
export type EpisodesQuery = QueryParams<`${U}/episodes`, "get">;
export type EpisodePage = ResponseBody<`${U}/episodes`, "get">;
export type EpisodeRequest = RequestBody<`${U}/episodes`, "post">;
export type EpisodeResult = ResponseBody<`${U}/episodes`, "post">;
export type EpisodeQuery = QueryParams<`${U}/episodes/{id}`, "get">;
export type EpisodeWithFacts = ResponseBody<`${U}/episodes/{id}`, "get">;
export type Episode = EpisodeResult["episode"];
export type EpisodeFact = NonNullable<RequestBody<`${U}/episodes/{id}/facts`, "post">["facts"]>[number];
export type BackfillQuery = QueryParams<`${U}/episodes/backfill`, "post">;
export type BackfillResult = ResponseBody<`${U}/episodes/backfill`, "post">;
export type DeleteEpisodeQuery = QueryParams<`${U}/episodes/{id}`, "delete">;
export type EpisodeDeletion = ResponseBody<`${U}/episodes/{id}`, "delete">;

// The fact sheet.
export type FactSheet = ResponseBody<`${U}/fact-sheet`, "get">;
export type SheetPromptQuery = QueryParams<`${U}/fact-sheet/prompt`, "get">;
export type SheetPrompt = ResponseBody<`${U}/fact-sheet/prompt`, "get">;

// Transcripts.
export type TranscriptOptions = QueryParams<`${U}/transcripts`, "post">;
export type IngestSummary = ResponseBody<`${U}/transcripts`, "post">;
export type TranscriptQuery = QueryParams<`${U}/transcripts/facts`, "get">;
export type TranscriptFacts = ResponseBody<`${U}/transcripts/facts`, "get">;
export type TranscriptObjects = ResponseBody<`${U}/transcripts/objects`, "get">;
export type SessionsQuery = QueryParams<`${U}/transcripts/sessions`, "get">;
export type TranscriptSessions = ResponseBody<`${U}/transcripts/sessions`, "get">;

// Operations.
export type Me = ResponseBody<"/v1/me", "get">;
export type Health = ResponseBody<"/healthz", "get">;
