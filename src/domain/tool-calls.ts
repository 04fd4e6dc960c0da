import type { ErrorCode } from "./errors";

/** The face a call came through. */
export type Face = "mcp" | "rest";

/** One operation call as the tool-call log keeps it (analytics' source): what ran, through which face, how it ended. */
export interface CallRecord {
  operation: string;
  face: Face;
  durationMs: number;
  outcome: "ok" | "error";
  errorCode: ErrorCode | null;
  correlationId: string;
}
