export { Factbase } from "./client.js";
export { FactbaseError, type Problem, type ProblemError } from "./errors.js";
export type { FactbaseOptions } from "./transport.js";
export { Conflicts, Episodes, Facts, Lists, People, Sheet, Transcripts } from "./resources.js";
export type * from "./types.js";
export type { components, paths, operations } from "./schema.js";
