/**
 * Webhook signing secrets at rest: sealed with AES-256-GCM (WebCrypto) under a
 * key of the deployment's keyring, never stored in clear. The keyring comes
 * from one setting, `WEBHOOK_SECRET_KEYS`: `id:base64key` entries separated by
 * commas; the first is current (new secrets are sealed with it), the others
 * only open what they sealed, so a key is rotated by putting a new one first
 * and keeping the old one until every secret has been sealed again.
 *
 * A sealed value is `sealed:v1:<key id>:<iv>:<ciphertext>` (base64url). The
 * subscription's id is the additional data, so a sealed value copied onto
 * another subscription (of any org) does not open. A value starting `whsec_`
 * is a secret stored before sealing existed: it still works, and is sealed on
 * first use.
 */

import { SECRET_PREFIX } from "./signing";

const SEALED_PREFIX = "sealed:v1:";
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const KEY_BYTES = 32;
const IV_BYTES = 12;
/** A handful is plenty: rotation needs two, an operator who never drops old keys maybe a few more. */
const MAX_KEYS = 16;

export interface SecretKey {
  id: string;
  key: CryptoKey;
}

/** The keys in their order: the first seals, any of them opens what carries its id. */
export interface SecretKeyring {
  current: SecretKey;
  byId: ReadonlyMap<string, CryptoKey>;
}

export type KeyringSetting = { ok: true; keys: { id: string; bytes: Uint8Array }[] } | { ok: false; reason: string };

const toBase64Url = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

function fromBase64(text: string): Uint8Array | null {
  const normalized = text.replaceAll("-", "+").replaceAll("_", "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normalized)) return null;
  try {
    return Uint8Array.from(atob(normalized.padEnd(Math.ceil(normalized.length / 4) * 4, "=")), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Reads the setting; what is wrong with it is said without echoing any key material. */
export function parseKeyringSetting(setting: string | undefined): KeyringSetting {
  const entries = (setting ?? "").split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) return { ok: false, reason: "WEBHOOK_SECRET_KEYS is not set" };
  if (entries.length > MAX_KEYS) return { ok: false, reason: `WEBHOOK_SECRET_KEYS lists ${entries.length} keys; at most ${MAX_KEYS}` };
  const keys: { id: string; bytes: Uint8Array }[] = [];
  for (const [position, entry] of entries.entries()) {
    const colon = entry.indexOf(":");
    const id = colon > 0 ? entry.slice(0, colon) : "";
    const bytes = colon > 0 ? fromBase64(entry.slice(colon + 1)) : null;
    if (!KEY_ID.test(id)) return { ok: false, reason: `WEBHOOK_SECRET_KEYS entry ${position + 1} needs an id (letters, digits, - or _) before a colon, as in k1:<base64 key>` };
    if (!bytes || bytes.length !== KEY_BYTES) return { ok: false, reason: `WEBHOOK_SECRET_KEYS key "${id}" is not ${KEY_BYTES} bytes of base64` };
    if (keys.some((key) => key.id === id)) return { ok: false, reason: `WEBHOOK_SECRET_KEYS names key "${id}" twice` };
    keys.push({ id, bytes });
  }
  return { ok: true, keys };
}

export async function importKeyring(keys: readonly { id: string; bytes: Uint8Array }[]): Promise<SecretKeyring> {
  const imported = await Promise.all(keys.map(async ({ id, bytes }) => ({ id, key: await crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]) })));
  const [current] = imported;
  if (!current) throw new Error("A keyring needs at least one key.");
  return { current, byId: new Map(imported.map(({ id, key }) => [id, key])) };
}

/** A new key for the setting, e.g. for local development: `id:base64`. */
export function newKeyringEntry(id: string): string {
  if (!KEY_ID.test(id)) throw new Error("A key id is letters, digits, - or _.");
  return `${id}:${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(KEY_BYTES))))}`;
}

const additionalData = (subscriptionId: string) => new TextEncoder().encode(`cairn webhook secret ${subscriptionId}`);

export async function sealSecret(keyring: SecretKeyring, subscriptionId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: additionalData(subscriptionId) }, keyring.current.key, new TextEncoder().encode(secret));
  return `${SEALED_PREFIX}${keyring.current.id}:${toBase64Url(iv)}:${toBase64Url(new Uint8Array(sealed))}`;
}

/** The id of the key a stored value is sealed with; null for a secret stored in clear. */
export function sealedWith(stored: string): string | null {
  if (!stored.startsWith(SEALED_PREFIX)) return null;
  return stored.slice(SEALED_PREFIX.length).split(":")[0] ?? "";
}

/** Whether a stored value should be sealed (again) with the current key: it is clear text, or sealed with an older key. */
export const needsResealing = (keyring: SecretKeyring, stored: string): boolean => sealedWith(stored) !== keyring.current.id;

export class SecretUnavailable extends Error {
  override readonly name = "SecretUnavailable";
}

/**
 * The secret a stored value holds. Clear text (from before sealing) opens without a key; a sealed value
 * needs the key it names, and fails as `SecretUnavailable` (never with key material) when the keyring
 * lacks it, the value was altered, or it belongs to another subscription.
 */
export async function openSecret(keyring: SecretKeyring | null, subscriptionId: string, stored: string): Promise<string> {
  if (stored.startsWith(SECRET_PREFIX)) return stored;
  const keyId = sealedWith(stored);
  if (keyId === null) throw new SecretUnavailable("The stored secret is in no known form.");
  const key = keyring?.byId.get(keyId);
  if (!key) throw new SecretUnavailable(`The secret is sealed with key "${keyId}", which WEBHOOK_SECRET_KEYS does not hold.`);
  const [, , , ivText = "", sealedText = ""] = stored.split(":");
  const iv = fromBase64(ivText);
  const sealed = fromBase64(sealedText);
  if (!iv || !sealed) throw new SecretUnavailable("The stored secret is damaged.");
  try {
    const clear = await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: additionalData(subscriptionId) }, key, sealed);
    return new TextDecoder().decode(clear);
  } catch {
    throw new SecretUnavailable("The stored secret does not open with its key: it was altered or belongs elsewhere.");
  }
}
