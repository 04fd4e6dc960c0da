import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../domain/pagination";

/** Shared parameter schemas, so one field means the same thing in every operation. */
export const ParamId = (what: string) =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, `Not a ${what} id`);

export const ParamExecutionId = ParamId("skill execution").describe("From log_skill_execution");

export const ParamSessionId = z.string().min(1).max(200);

export const ParamLimit = z.number().int().min(1).max(MAX_PAGE_SIZE).describe(`Default ${DEFAULT_PAGE_SIZE}`);

export const ParamCursor = z.string().min(1).max(200);

/** ISO 8601 timestamps in responses; epoch milliseconds inside. */
export const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
