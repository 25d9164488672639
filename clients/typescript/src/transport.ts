import { FactbaseError } from "./errors.js";
import type { paths } from "./schema.js";
import type { MethodOf, PathParams, QueryParams, RequestBody, ResponseBody } from "./types.js";

export interface FactbaseOptions {
  /** Where "factbase serve" listens. Default http://127.0.0.1:7411. */
  baseUrl?: string;
  /** An API key from "factbase keys create"; omit it for a server run with --no-auth. */
  apiKey?: string;
  /** The fetch to use: default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Headers sent with every request (a User-Agent, say). */
  headers?: Record<string, string>;
  /** Abort each request after this many milliseconds. Default: no limit. */
  timeoutMs?: number;
}

/** Query parameters: undefined values are left out, arrays repeat the name. */
export type Query = object | undefined;

export interface CallOptions {
  query?: Query;
  /** A JSON body. */
  json?: unknown;
  /** A raw body, sent with contentType. */
  body?: BodyInit;
  contentType?: string;
}

/** The options of one operation, typed from the schema by its path and method. */
export interface OpOptions<P extends keyof paths, M extends MethodOf<P>> {
  query?: QueryParams<P, M>;
  json?: RequestBody<P, M>;
  body?: BodyInit;
  contentType?: string;
}

/** Fills a path template ("/v1/users/{user}/facts/{id}"), percent-encoding each value. */
export function fillPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === "") throw new TypeError(`Factbase: ${template} needs ${name}`);
    return encodeURIComponent(String(v));
  });
}

/** Sends requests to one Factbase server and turns every non-2xx answer into a FactbaseError. */
export class Transport {
  readonly baseUrl: string;
  readonly #apiKey?: string;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs?: number;

  constructor(options: FactbaseOptions = {}) {
    this.baseUrl = (options.baseUrl ?? "http://127.0.0.1:7411").replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") throw new TypeError("Factbase: no fetch: pass options.fetch");
    this.#fetch = f;
    this.#headers = { ...options.headers };
    this.#timeoutMs = options.timeoutMs;
  }

  url(path: string, query?: Query): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
    }
    const qs = params.toString();
    return this.baseUrl + path + (qs ? `?${qs}` : "");
  }

  /**
   * Calls the operation at template and method, as the OpenAPI document names them: the
   * compiler checks the path exists and types its parameters, body and response.
   */
  op<P extends keyof paths, M extends MethodOf<P>>(
    method: M,
    template: P,
    params: PathParams<P, M>,
    options: OpOptions<P, M> = {},
  ): Promise<ResponseBody<P, M>> {
    const path = fillPath(template, params as Record<string, string>);
    return this.call(method.toUpperCase(), path, options as CallOptions);
  }

  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = {
      Accept: "application/json, application/problem+json",
      ...this.#headers,
    };
    if (this.#apiKey) headers.Authorization = `Bearer ${this.#apiKey}`;
    const init: RequestInit & { duplex?: "half" } = { method, headers };
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      headers["Content-Type"] = options.contentType ?? "application/octet-stream";
      init.body = options.body;
      if (typeof ReadableStream !== "undefined" && options.body instanceof ReadableStream) init.duplex = "half";
    } else if (method !== "GET" && method !== "HEAD") {
      // A server without keys refuses a state-changing request with another content type.
      headers["Content-Type"] = "application/json";
    }
    if (this.#timeoutMs !== undefined) init.signal = AbortSignal.timeout(this.#timeoutMs);
    const doFetch = this.#fetch; // called unbound: a browser's fetch refuses another `this`
    const res = await doFetch(this.url(path, options.query), init);
    if (!res.ok) throw await FactbaseError.fromResponse(res);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
