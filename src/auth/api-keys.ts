/**
 * API keys: `cairn_` + 40 random base-62 characters (≈238 bits). Only the
 * SHA-256 of a key is stored; the key is shown once, when created. A fast hash
 * is right here: unlike a password, the key has far too much entropy to guess.
 * This module imports nothing: the operator CLI loads it directly.
 */
export const API_KEY_PREFIX = "cairn_";
const BODY_LENGTH = 40;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const looksLikeApiKey = (token: string) =>
  token.startsWith(API_KEY_PREFIX) && token.length === API_KEY_PREFIX.length + BODY_LENGTH && /^[0-9A-Za-z]+$/.test(token.slice(API_KEY_PREFIX.length));

export async function hashApiKey(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function generateApiKey(): Promise<{ key: string; prefix: string; hash: string }> {
  let body = "";
  while (body.length < BODY_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      // 248 = 4 × 62: dropping the bytes above it keeps every character uniform.
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  const key = `${API_KEY_PREFIX}${body}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + 6), hash: await hashApiKey(key) };
}
