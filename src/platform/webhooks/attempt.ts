import { deliveredStatus, WEBHOOK_LIMITS } from "../../domain/webhooks/policy";
import { webhookHeaders } from "../../domain/webhooks/signing";

export interface AttemptOutcome {
  delivered: boolean;
  httpStatus: number | null;
  error: string | null;
}

/**
 * One delivery attempt: the stored body, signed now (the timestamp is the attempt's,
 * as receivers check it against their clock), POSTed with a time limit. Redirects
 * are not followed: a receiver that moved is a failure its admin should see.
 */
export async function attemptDelivery(target: { url: string; secrets: string[] }, eventId: string, body: string, now: number): Promise<AttemptOutcome> {
  const headers = await webhookHeaders(target.secrets, eventId, Math.floor(now / 1000), body);
  try {
    const response = await fetch(target.url, {
      method: "POST",
      body,
      headers: { ...headers, "user-agent": "Cairn-Webhooks/1" },
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_LIMITS.timeoutMs),
    });
    if (deliveredStatus(response.status)) {
      await response.body?.cancel();
      return { delivered: true, httpStatus: response.status, error: null };
    }
    const text = (await response.text().catch(() => "")).slice(0, WEBHOOK_LIMITS.errorChars);
    return { delivered: false, httpStatus: response.status, error: `HTTP ${response.status}${text ? `: ${text}` : ""}` };
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError");
    const message = timedOut ? `no answer within ${WEBHOOK_LIMITS.timeoutMs / 1000} s` : error instanceof Error ? error.message : String(error);
    return { delivered: false, httpStatus: null, error: message.slice(0, WEBHOOK_LIMITS.errorChars) };
  }
}
