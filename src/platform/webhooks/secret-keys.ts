import { CairnError } from "../../domain/errors";
import type { WebhookSubscription } from "../../domain/webhooks/model";
import { signingSecrets } from "../../domain/webhooks/policy";
import { importKeyring, needsResealing, openSecret, parseKeyringSetting, type SecretKeyring, sealSecret } from "../../domain/webhooks/secret-box";
import type { Env } from "../../env";
import { replaceStoredSecrets } from "../../storage/webhook-repository";
import { log } from "../log";

/**
 * The deployment's keyring for webhook signing secrets, from the Worker secret
 * WEBHOOK_SECRET_KEYS (see secret-box.ts for its form), imported once per
 * isolate and setting. Only the current setting is kept: a rotated setting
 * replaces it.
 */
let cached: { setting: string; keyring: Promise<SecretKeyring> } | null = null;

/** The keyring, or null when the setting is absent or malformed (logged once per setting, without key material). */
export async function secretKeyring(env: Env): Promise<SecretKeyring | null> {
  const setting = env.WEBHOOK_SECRET_KEYS ?? "";
  if (cached?.setting !== setting) {
    const parsed = parseKeyringSetting(setting);
    if (!parsed.ok) {
      log("error", "webhook secret keys unusable", { reason: parsed.reason });
      cached = { setting, keyring: Promise.reject(new Error(parsed.reason)) };
      cached.keyring.catch(() => {});
    } else {
      cached = { setting, keyring: importKeyring(parsed.keys) };
    }
  }
  return cached.keyring.catch(() => null);
}

/** The keyring where a secret must be sealed: its absence is the operator's to fix, said plainly (never to whom). */
export async function requiredKeyring(env: Env): Promise<SecretKeyring> {
  const keyring = await secretKeyring(env);
  if (keyring) return keyring;
  const reason = parseKeyringSetting(env.WEBHOOK_SECRET_KEYS).ok ? "could not be loaded" : "is not set or not valid";
  throw new CairnError(
    "internal",
    `Webhook signing secrets cannot be stored: this deployment's encryption key (the Worker secret WEBHOOK_SECRET_KEYS) ${reason}. An operator must set it; see the README's configuration table.`,
  );
}

export const sealWebhookSecret = async (env: Env, subscriptionId: string, secret: string): Promise<string> => sealSecret(await requiredKeyring(env), subscriptionId, secret);

/** The secrets that sign now, opened (clear text from before sealing opens without a key). */
export async function openSigningSecrets(keyring: SecretKeyring | null, subscription: WebhookSubscription, now: number): Promise<string[]> {
  const stored = signingSecrets({ secret: subscription.storedSecret, previousSecret: subscription.storedPreviousSecret, previousSecretExpiresAt: subscription.previousSecretExpiresAt }, now);
  return Promise.all(stored.map((value) => openSecret(keyring, subscription.id, value)));
}

/**
 * Seals a subscription's secrets with the current key when they are in clear text or under an older key.
 * Only if they are unchanged since read: a rotation meanwhile keeps its own. Returns whether it wrote.
 */
export async function resealIfNeeded(db: D1Database, keyring: SecretKeyring, subscription: WebhookSubscription): Promise<boolean> {
  const { storedSecret, storedPreviousSecret } = subscription;
  const stale = needsResealing(keyring, storedSecret) || (storedPreviousSecret !== null && needsResealing(keyring, storedPreviousSecret));
  if (!stale) return false;
  const reseal = async (value: string) => (needsResealing(keyring, value) ? sealSecret(keyring, subscription.id, await openSecret(keyring, subscription.id, value)) : value);
  const sealed = { storedSecret: await reseal(storedSecret), storedPreviousSecret: storedPreviousSecret === null ? null : await reseal(storedPreviousSecret) };
  return replaceStoredSecrets(db, subscription, sealed);
}
