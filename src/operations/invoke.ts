import type { z } from "zod";
import { CairnError, INTERNAL_MESSAGE, insufficientScope, validationError } from "../domain/errors";
import { refusedByDatabaseGate, writeRefusal } from "../domain/org-data/write-gate";
import { hasScope } from "../domain/scopes";
import { cleanStrings, storedJsonIssue } from "../domain/stored-input";
import type { CallRecord, Face } from "../domain/tool-calls";
import type { AnyOperation, OperationContext } from "./operation";

export type InvokeResult = { ok: true; value: unknown } | { ok: false; error: CairnError };

/** Zod issues as the caller should read them: a dotted path and a sentence. */
export function toValidationError(error: z.ZodError, message = "The input is not valid."): CairnError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(input)",
    message: issue.message,
  }));
  const first = issues[0];
  return validationError(first ? `${message} ${first.path}: ${first.message}` : message, issues);
}

/**
 * A caller's input as the operation may use it, or a validation error: the
 * shape first (depth, size, keys: nothing stored can later break a query),
 * then one text policy for every field, then the operation's own schema.
 * Every way into an operation (MCP, REST, the dashboard) goes through here.
 */
export function validInput<O extends AnyOperation>(operation: O, rawInput: unknown, message?: string): z.output<O["input"]> {
  const shapeIssue = storedJsonIssue(rawInput ?? {});
  if (shapeIssue) throw validationError(`${message ?? "The input is not valid."} ${shapeIssue.path}: ${shapeIssue.message}`, [shapeIssue]);
  const parsed = operation.input.safeParse(cleanStrings(rawInput ?? {}));
  if (!parsed.success) throw toValidationError(parsed.error, message);
  return parsed.data as z.output<O["input"]>;
}

/**
 * Runs one operation for one caller: scope, the org's write gate (an operation that writes is refused
 * while an import runs into the org or its erasure has begun; reads go on), input validation, handler. Every
 * failure comes back as a `CairnError`; anything unexpected is logged with the
 * correlation id and replaced by a message that reveals nothing.
 */
export async function invoke(
  operation: AnyOperation,
  rawInput: unknown,
  ctx: OperationContext,
  face: Face,
  record: (call: CallRecord) => void,
): Promise<InvokeResult> {
  const started = Date.now();
  const result = await run(operation, rawInput, ctx);
  record({
    operation: operation.name,
    face,
    durationMs: Date.now() - started,
    outcome: result.ok ? "ok" : "error",
    errorCode: result.ok ? null : result.error.code,
    correlationId: ctx.correlationId,
  });
  return result;
}

async function run(operation: AnyOperation, rawInput: unknown, ctx: OperationContext): Promise<InvokeResult> {
  try {
    if (!hasScope(ctx.principal.scopes, operation.scope)) throw insufficientScope([operation.scope]);
    const refusal = operation.annotations.readOnlyHint ? null : writeRefusal(ctx.principal.orgMarks, ctx.now());
    if (refusal) throw refusal;
    return { ok: true, value: await operation.handler(validInput(operation, rawInput), ctx) };
  } catch (error) {
    if (error instanceof CairnError) return { ok: false, error };
    // A write that passed the gate before the erasure's mark, landing after it: the database itself refused it.
    const erasing = refusedByDatabaseGate(error);
    if (erasing) return { ok: false, error: erasing };
    console.error(JSON.stringify({ level: "error", correlationId: ctx.correlationId, operation: operation.name, error: describe(error) }));
    return { ok: false, error: new CairnError("internal", INTERNAL_MESSAGE) };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
}
