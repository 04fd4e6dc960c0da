import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { outboundPolicyFor } from "../outbound-gate";
import { webhookBody, webhookTypeOfPlanAction } from "./events";
import { checkEventTypes, checkWebhookTarget, deliveredStatus, failureVerdict, outboxRetryDelayMs, retryDelaySeconds, signingSecrets, WEBHOOK_LIMITS } from "./policy";
import { newWebhookSecret, signature, webhookHeaders } from "./signing";

const T0 = 1_795_000_000_000;

describe("Standard Webhooks signatures", () => {
  it("verify with the reference library, and fail on any change", async () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = webhookBody({ eventId: "msg_1", orgId: "org_1", type: "plan.completed", occurredAt: T0, data: { planId: "plan_1" } });
    const now = Math.floor(Date.now() / 1000);
    const headers = await webhookHeaders([secret], "msg_1", now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: "plan.completed", timestamp: new Date(T0).toISOString(), data: { planId: "plan_1" } });
    expect(() => new Webhook(secret).verify(body.replace("plan_1", "plan_2"), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "msg_2" })).toThrow();
  });

  it("during a rotation both secrets sign, so a receiver on either verifies", async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const now = Math.floor(Date.now() / 1000);
    const headers = await webhookHeaders([current, previous], "msg_9", now, "{}");
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify("{}", headers)).toEqual({});
    expect(new Webhook(previous).verify("{}", headers)).toEqual({});
  });

  it("matches the specification's published example", async () => {
    // From the Standard Webhooks specification's test vectors.
    const sig = await signature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});

describe("webhook policy", () => {
  it("retries with doubling delays, capped at an hour", () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(n, 30))).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(20, 30)).toBe(WEBHOOK_LIMITS.maxRetryDelaySeconds);
    expect(retryDelaySeconds(3, 0)).toBe(0);
  });

  it("tries an outbox event again after a minute, doubling to an hour; leaves live deliveries to the queue", () => {
    expect([1, 2, 3].map(outboxRetryDelayMs)).toEqual([60_000, 120_000, 240_000]);
    expect(outboxRetryDelayMs(30)).toBe(3_600_000);
    // A delivery still in the queue is attempted within the longest retry delay: the sweeper's bound is well past it.
    expect(WEBHOOK_LIMITS.stuckAfterMs).toBeGreaterThan(WEBHOOK_LIMITS.maxRetryDelaySeconds * 1000);
  });

  it("disables a subscription only after it has failed for the whole limit, and says why", () => {
    expect(failureVerdict(null, T0, "500")).toEqual({ failingSince: T0, disable: null });
    expect(failureVerdict(T0, T0 + WEBHOOK_LIMITS.disableAfterMs - 1, "500").disable).toBeNull();
    const verdict = failureVerdict(T0, T0 + WEBHOOK_LIMITS.disableAfterMs, "HTTP 500");
    expect(verdict.failingSince).toBe(T0);
    expect(verdict.disable).toContain("HTTP 500");
    expect(verdict.disable).toContain(new Date(T0).toISOString());
  });

  it("counts only 2xx as delivered", () => {
    expect([200, 204, 299].every(deliveredStatus)).toBe(true);
    expect([199, 301, 400, 500].some(deliveredStatus)).toBe(false);
  });

  it("accepts https to public hosts; http loopback only in development (the gate's policy for CAIRN_ENV)", () => {
    const production = outboundPolicyFor("production", "webhook");
    const development = outboundPolicyFor("development", "webhook");
    expect(checkWebhookTarget("https://hooks.example.com/cairn", production)).toEqual({ ok: true, url: "https://hooks.example.com/cairn" });
    expect(checkWebhookTarget("http://hooks.example.com/cairn", production).ok).toBe(false);
    expect(checkWebhookTarget("http://127.0.0.1:9999/hook", production).ok).toBe(false);
    expect(checkWebhookTarget("http://127.0.0.1:9999/hook", development).ok).toBe(true);
    for (const url of ["https://169.254.169.254/latest", "https://10.0.0.1/", "https://[::ffff:7f00:1]/", "https://0x7f000001/", "https://intranet/", "https://u:p@hooks.example.com/"]) {
      expect(checkWebhookTarget(url, production).ok, url).toBe(false);
    }
    expect(checkWebhookTarget(`https://hooks.example.com/${"a".repeat(WEBHOOK_LIMITS.urlChars)}`, production).ok).toBe(false);
  });

  it("names unknown event types", () => {
    expect(checkEventTypes(["plan.completed", "plan.completed"])).toEqual({ ok: true, types: ["plan.completed"] });
    expect(checkEventTypes(["plan.completed", "plan.exploded"])).toEqual({ ok: false, unknown: ["plan.exploded"] });
  });

  it("signs with the previous secret only while its overlap lasts", () => {
    const sub = { secret: "whsec_new", previousSecret: "whsec_old", previousSecretExpiresAt: T0 + 1000 };
    expect(signingSecrets(sub, T0)).toEqual(["whsec_new", "whsec_old"]);
    expect(signingSecrets(sub, T0 + 1000)).toEqual(["whsec_new"]);
  });

  it("maps the plan's audit actions to event types", () => {
    expect(webhookTypeOfPlanAction("review.requested")).toBe("plan.review_requested");
    expect(webhookTypeOfPlanAction("plan.stalled")).toBe("plan.stalled");
    expect(webhookTypeOfPlanAction("step.claimed")).toBeNull();
  });
});
