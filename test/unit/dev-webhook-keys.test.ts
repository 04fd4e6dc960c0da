import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseKeyringSetting } from "../../src/domain/webhooks/secret-box";
// @ts-expect-error: plain ESM scripts without type declarations
import { devWebhookSecretKeys } from "../../scripts/lib/dev-server.mjs";

describe("local development's webhook secret key", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cairn-dev-keys-"));
  const file = path.join(dir, ".wrangler", "cairn-dev-webhook-keys");
  const devVars = path.join(dir, ".dev.vars");
  afterEach(() => rmSync(path.join(dir, ".wrangler"), { recursive: true, force: true }));

  it("is generated once, readable only by its owner, accepted by the Worker, and the same on every start", () => {
    const first = devWebhookSecretKeys({ file, devVars, environment: {} });
    expect(parseKeyringSetting(first.WEBHOOK_SECRET_KEYS)).toMatchObject({ ok: true, keys: [{ id: "dev1" }] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(devWebhookSecretKeys({ file, devVars, environment: {} })).toEqual(first);
    expect(readFileSync(file, "utf8").trim()).toBe(first.WEBHOOK_SECRET_KEYS);
  });

  it("gives way to the environment's key, and to one set in .dev.vars (wrangler reads that itself)", () => {
    expect(devWebhookSecretKeys({ file, devVars, environment: { WEBHOOK_SECRET_KEYS: "mine:abc" } })).toEqual({ WEBHOOK_SECRET_KEYS: "mine:abc" });
    writeFileSync(devVars, "BRAVE_API_KEY=x\nWEBHOOK_SECRET_KEYS=k1:abc\n");
    expect(devWebhookSecretKeys({ file, devVars, environment: {} })).toEqual({});
    rmSync(devVars);
  });
});
