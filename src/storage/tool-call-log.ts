import { newId } from "../domain/ids";
import type { Principal } from "../domain/principal";
import type { CallRecord } from "../operations/invoke";
import type { Database } from "./database";
import { toolCallLog } from "./schema";

export async function recordToolCall(db: Database, principal: Principal, call: CallRecord, at: number): Promise<void> {
  await db.insert(toolCallLog).values({
    id: newId("call"),
    orgId: principal.orgId,
    userId: principal.userId,
    clientId: principal.clientId ?? null,
    apiKeyId: principal.apiKeyId ?? null,
    face: call.face,
    operation: call.operation,
    durationMs: call.durationMs,
    outcome: call.outcome,
    errorCode: call.errorCode,
    correlationId: call.correlationId,
    createdAt: at,
  });
}
