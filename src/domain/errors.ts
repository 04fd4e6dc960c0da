/**
 * The one error union of Cairn. Every failure an operation can report is a
 * `CairnError` with one of these codes; each face (MCP, REST) maps it once.
 * Messages are written for the caller and must never carry SQL, stack traces,
 * table names or text that came from outside (only trusted text reaches the model).
 */
export const ERROR_CODES = [
  "validation",
  "not_found",
  "conflict",
  "import_in_progress",
  "org_erasing",
  "invalid_transition",
  "forbidden",
  "insufficient_scope",
  "payload_too_large",
  "method_not_allowed",
  "rate_limited",
  "sources_pending",
  "not_configured",
  "unavailable",
  "internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `metadata.clarifyingQuestions.2`. */
  path: string;
  message: string;
}

export interface ErrorDetails {
  issues?: ValidationIssue[];
  requiredScopes?: string[];
  /** rate_limited, import_in_progress, sources_pending, unavailable: when a retry can succeed (the faces send it as `Retry-After`). */
  retryAfterSeconds?: number;
  /** method_not_allowed: the methods the resource answers (sent as `Allow`). */
  allow?: string[];
  /** forbidden: where a person does what this caller may not (the dashboard's approval page of a plan). */
  url?: string;
}

export class CairnError extends Error {
  override readonly name = "CairnError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

export const isCairnError = (error: unknown): error is CairnError => error instanceof CairnError;

export const validationError = (message: string, issues: ValidationIssue[] = []) =>
  new CairnError("validation", message, { issues });

/** Used for missing records and for records of another org alike, so the two are indistinguishable. */
export const notFound = (what: string, id: string) => new CairnError("not_found", `No ${what} with id "${id}" exists.`);

export const conflict = (message: string) => new CairnError("conflict", message);

export const invalidTransition = (message: string) => new CairnError("invalid_transition", message);

export const forbidden = (message: string, details: ErrorDetails = {}) => new CairnError("forbidden", message, details);

export const insufficientScope = (
  requiredScopes: string[],
  message = `This operation needs the scope ${requiredScopes.map((s) => `"${s}"`).join(", ")}, which this token does not carry.`,
) => new CairnError("insufficient_scope", message, { requiredScopes });

export const payloadTooLarge = (message: string) => new CairnError("payload_too_large", message);

/** A limit was reached; `retryAfterSeconds` says when trying again can work (rounded up, at least 1). */
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new CairnError("rate_limited", message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** A strict deliverable cites sources whose check has not run yet: retry after `retryAfterSeconds`. */
export const sourcesPending = (message: string, retryAfterSeconds: number) =>
  new CairnError("sources_pending", message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** A feature this deployment has not set up: the message names the setting that turns it on. */
export const notConfigured = (message: string) => new CairnError("not_configured", message);

/** A service Cairn depends on is busy or down for now: retry after `retryAfterSeconds`. */
export const unavailable = (message: string, retryAfterSeconds: number) =>
  new CairnError("unavailable", message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** The HTTP status each error code maps to. Exhaustive: adding a code without a status fails typecheck. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case "validation":
      return 400;
    case "not_found":
      return 404;
    case "conflict":
    case "import_in_progress":
    case "org_erasing":
    case "invalid_transition":
    case "sources_pending":
      return 409;
    case "forbidden":
    case "insufficient_scope":
      return 403;
    case "payload_too_large":
      return 413;
    case "method_not_allowed":
      return 405;
    case "rate_limited":
      return 429;
    case "not_configured":
      return 501;
    case "unavailable":
      return 503;
    case "internal":
      return 500;
    default:
      return assertNever(code);
  }
}

export function assertNever(value: never): never {
  throw new Error(`Unhandled value: ${String(value)}`);
}

/** What the caller sees for an unexpected failure: nothing of it but a correlation id. */
export const INTERNAL_MESSAGE = "An unexpected error occurred. Quote the correlation id when reporting it.";
