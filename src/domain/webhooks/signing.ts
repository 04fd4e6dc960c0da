/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256
 * over `${webhook-id}.${webhook-timestamp}.${body}` with the secret's bytes
 * (base64 after `whsec_`), sent as `v1,<base64>`; during a secret rotation both
 * secrets sign, space-separated, so receivers on either secret verify.
 */

export const SECRET_PREFIX = "whsec_";

const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** A new signing secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

export async function signature(secret: string, messageId: string, timestampSeconds: number, body: string): Promise<string> {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error("A webhook secret starts with whsec_.");
  const key = await crypto.subtle.importKey("raw", fromBase64(secret.slice(SECRET_PREFIX.length)), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${messageId}.${timestampSeconds}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The three headers of one delivery attempt; `secrets` are the current one and, during an overlap, the previous one. */
export async function webhookHeaders(secrets: string[], messageId: string, timestampSeconds: number, body: string): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((secret) => signature(secret, messageId, timestampSeconds, body)));
  return {
    "content-type": "application/json",
    "webhook-id": messageId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signatures.join(" "),
  };
}
