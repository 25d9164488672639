/** One entry of a problem's errors: what was wrong, and where (body.rank, path.user). */
export interface ProblemError {
  message?: string;
  location?: string;
  value?: unknown;
}

/** An application/problem+json body (RFC 9457), as Factbase sends on every error. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  errors?: ProblemError[] | null;
}

/**
 * A non-2xx answer from Factbase. status is the HTTP status; title, detail and errors
 * come from the problem+json body (detail names what was wrong, errors[].location the
 * field). A body that is not problem+json (a proxy's page, say) is kept in detail.
 */
export class FactbaseError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: ProblemError[];
  readonly type?: string;
  readonly instance?: string;
  /** The X-Request-Id of the response: the server's log lines for the request carry it. */
  readonly requestId?: string;
  /** The problem as sent, or undefined when the body was not JSON. */
  readonly problem?: Problem;
  /** Seconds to wait before trying again, from Retry-After (a 429 over the key's rate, say). */
  readonly retryAfter?: number;

  constructor(status: number, problem: Problem | undefined, text: string, requestId?: string, retryAfter?: number) {
    const title = problem?.title ?? `HTTP ${status}`;
    const detail = problem?.detail ?? text.slice(0, 500);
    super(detail ? `${status} ${title}: ${detail}` : `${status} ${title}`);
    this.name = "FactbaseError";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = problem?.errors ?? [];
    this.type = problem?.type;
    this.instance = problem?.instance;
    this.requestId = requestId;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }

  /** Reads a failed response into a FactbaseError. */
  static async fromResponse(res: Response): Promise<FactbaseError> {
    const text = await res.text().catch(() => "");
    let problem: Problem | undefined;
    if (/json/i.test(res.headers.get("content-type") ?? "")) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) problem = parsed as Problem;
      } catch {
        // Not JSON after all: the text is the detail.
      }
    }
    const retry = Number.parseInt(res.headers.get("retry-after") ?? "", 10);
    return new FactbaseError(
      res.status,
      problem,
      text,
      res.headers.get("x-request-id") ?? undefined,
      Number.isFinite(retry) ? retry : undefined,
    );
  }
}
