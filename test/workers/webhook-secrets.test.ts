import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { importKeyring, newKeyringEntry, openSecret, parseKeyringSetting, sealedWith, sealSecret } from "../../src/domain/webhooks/secret-box";
import { newWebhookSecret } from "../../src/domain/webhooks/signing";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { adminOf, at, deliveriesOf, runPlanToCompletion, subscribe, useStandInReceivers, waitFor } from "../support/webhooks";
import { fetchWorkerOver, ORIGIN } from "../support/worker";

/**
 * Webhook signing secrets at rest, on workerd with D1: sealed with the deployment's key
 * (WEBHOOK_SECRET_KEYS; the tests' own in vitest.workers.config.ts), never in clear; rows
 * from before sealing keep working and are sealed on first use; a new key reseals them all
 * through the sweeper; a sealed secret moved onto another subscription opens nowhere.
 */

useStandInReceivers();

const TEST_KEYS = (env as unknown as Env).WEBHOOK_SECRET_KEYS ?? "";
const stored = (id: string) => env.DB.prepare("SELECT secret, previous_secret FROM webhook_subscriptions WHERE id = ?").bind(id).first<{ secret: string; previous_secret: string | null }>();

async function ringOf(setting: string) {
  const parsed = parseKeyringSetting(setting);
  if (!parsed.ok) throw new Error(parsed.reason);
  return importKeyring(parsed.keys);
}

describe("webhook signing secrets at rest", () => {
  it("are stored sealed with the deployment's key, never in clear, and still sign (rotation included)", async () => {
    const { apiKey, adminKey } = await adminOf();
    const { subscription, secret } = await subscribe(adminKey, "/sealed", ["plan.completed"]);
    const row = await stored(subscription.id);
    expect(row?.secret).toMatch(/^sealed:v1:k-test:/);
    expect(row?.secret).not.toContain(secret.slice("whsec_".length, 20));
    expect(await openSecret(await ringOf(TEST_KEYS), subscription.id, row?.secret ?? "")).toBe(secret);

    const rotated = (await (await fetchWorkerOver(env)(new Request(`${ORIGIN}/api/v1/webhooks/${subscription.id}/rotate-secret`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` } }))).json()) as { secret: string };
    const after = await stored(subscription.id);
    expect(after?.secret).toMatch(/^sealed:v1:k-test:/);
    expect(after?.previous_secret).toMatch(/^sealed:v1:k-test:/);
    expect(JSON.stringify(after)).not.toContain(rotated.secret.slice(6, 20));

    await runPlanToCompletion(apiKey);
    const delivery = await waitFor("the delivery", async () => at("/sealed")[0]);
    expect(new Webhook(rotated.secret).verify(delivery.body, delivery.headers)).toMatchObject({ type: "plan.completed" });
    expect(new Webhook(secret).verify(delivery.body, delivery.headers)).toMatchObject({ type: "plan.completed" });
  });

  it("a secret stored in clear before sealing keeps signing, and is sealed on first use", async () => {
    const { apiKey, adminKey } = await adminOf();
    const { subscription } = await subscribe(adminKey, "/legacy", ["plan.completed"]);
    const legacy = newWebhookSecret();
    await env.DB.prepare("UPDATE webhook_subscriptions SET secret = ? WHERE id = ?").bind(legacy, subscription.id).run();

    await runPlanToCompletion(apiKey);
    const delivery = await waitFor("the delivery", async () => at("/legacy")[0]);
    expect(new Webhook(legacy).verify(delivery.body, delivery.headers)).toMatchObject({ type: "plan.completed" });
    const row = await waitFor("the sealed row", async () => {
      const now = await stored(subscription.id);
      return now?.secret.startsWith("sealed:") ? now : null;
    });
    expect(await openSecret(await ringOf(TEST_KEYS), subscription.id, row.secret)).toBe(legacy);
  });

  it("a new first key reseals every secret through the sweeper; the old key keeps opening until then", async () => {
    const { adminKey } = await adminOf();
    const { subscription, secret } = await subscribe(adminKey, "/rekey", ["plan.completed"]);
    const clear = await subscribe(adminKey, "/rekey-clear", ["plan.completed"]);
    const legacy = newWebhookSecret();
    await env.DB.prepare("UPDATE webhook_subscriptions SET secret = ? WHERE id = ?").bind(legacy, clear.subscription.id).run();

    const rotatedKeys = `${newKeyringEntry("k-next")},${TEST_KEYS}`;
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), { ...(env as unknown as Env), WEBHOOK_SECRET_KEYS: rotatedKeys } as never);
    const next = await ringOf(rotatedKeys);
    for (const [id, expected] of [
      [subscription.id, secret],
      [clear.subscription.id, legacy],
    ] as const) {
      const row = await stored(id);
      expect(sealedWith(row?.secret ?? "")).toBe("k-next");
      expect(await openSecret(next, id, row?.secret ?? "")).toBe(expected);
    }
  });

  it("a sealed secret copied onto another org's subscription opens nowhere: nothing is sent, the log says why", async () => {
    const a = await adminOf();
    const b = await adminOf();
    const { subscription: subA } = await subscribe(a.adminKey, "/victim", ["plan.completed"]);
    const { subscription: subB } = await subscribe(b.adminKey, "/thief", ["plan.completed"]);
    const sealedA = (await stored(subA.id))?.secret ?? "";
    await env.DB.prepare("UPDATE webhook_subscriptions SET secret = ? WHERE id = ?").bind(sealedA, subB.id).run();

    await runPlanToCompletion(b.apiKey);
    const row = await waitFor("the refused attempt", async () => (await deliveriesOf(subB.id)).results.find((r) => r.attempts > 0));
    expect(row.status).toBe("pending");
    expect(row.last_error).toContain("signing secret cannot be opened");
    expect(at("/thief")).toHaveLength(0);
  });

  it("a secret whose key was lost is replaced by a rotation that signs alone, and deliveries resume", async () => {
    const { apiKey, adminKey } = await adminOf();
    const { subscription } = await subscribe(adminKey, "/lost", ["plan.completed"]);
    const lostRing = await ringOf(newKeyringEntry("k-lost"));
    await env.DB.prepare("UPDATE webhook_subscriptions SET secret = ? WHERE id = ?").bind(await sealSecret(lostRing, subscription.id, newWebhookSecret()), subscription.id).run();

    const response = await fetchWorkerOver(env)(new Request(`${ORIGIN}/api/v1/webhooks/${subscription.id}/rotate-secret`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` } }));
    expect(response.status).toBe(200);
    const rotated = (await response.json()) as { secret: string; previousSecretValidUntil: string | null };
    expect(rotated.previousSecretValidUntil).toBeNull();
    expect((await stored(subscription.id))?.previous_secret).toBeNull();
    await runPlanToCompletion(apiKey);
    const delivery = await waitFor("the delivery", async () => at("/lost")[0]);
    expect(delivery.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(new Webhook(rotated.secret).verify(delivery.body, delivery.headers)).toMatchObject({ type: "plan.completed" });
  });

  it("without a key, a subscription is refused with what the operator must do, and nothing is stored", async () => {
    const { adminKey, orgId } = await adminOf();
    const keyless = { ...(env as unknown as Env), WEBHOOK_SECRET_KEYS: undefined };
    const response = await fetchWorkerOver(keyless)(
      new Request(`${ORIGIN}/api/v1/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: "https://hooks.example.com/keyless", events: ["plan.completed"] }),
      }),
    );
    expect(response.status).toBe(500);
    expect(((await response.json()) as { detail: string }).detail).toContain("WEBHOOK_SECRET_KEYS");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE org_id = ?").bind(orgId).first("n")).toBe(0);
  });
});
