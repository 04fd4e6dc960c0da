import { retryAfterSeconds } from "../domain/auth/sign-in-throttle";
import type { Env } from "../env";
import { findUserByEmail, type UserRecord } from "../storage/accounts";
import { DUMMY_PASSWORD_HASH, verifyPassword } from "./password";

export type SignInCheck =
  | { outcome: "signed_in"; user: UserRecord }
  | { outcome: "wrong_credentials" }
  /** Too many failures for this account or this address: refused before the password is checked. */
  | { outcome: "throttled"; retryAfterSeconds: number };

/** The address a request comes from: Cloudflare sets `CF-Connecting-IP`; locally there is none. */
export const clientAddress = (request: Request): string => request.headers.get("cf-connecting-ip")?.trim().slice(0, 64) || "local";

async function accountKey(email: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase()));
  return `account:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * One password sign-in, for the consent flow and the dashboard alike,
 * throttled per account and per client address. Unknown e-mails are counted
 * and locked exactly like known ones, and verify against a dummy hash, so
 * neither the answers nor their timing say which accounts exist.
 */
export async function checkPassword(env: Env, request: Request, email: string, password: string): Promise<SignInCheck> {
  const now = Date.now();
  const account = env.SIGNIN_THROTTLE.getByName(await accountKey(email));
  const address = env.SIGNIN_THROTTLE.getByName(`address:${clientAddress(request)}`);
  const locks = await Promise.all([account.lockRemaining("account", now), address.lockRemaining("address", now)]);
  const locked = Math.max(...locks);
  if (locked > 0) return { outcome: "throttled", retryAfterSeconds: retryAfterSeconds(locked) };

  const user = await findUserByEmail(env.DB, email);
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (user && valid) {
    // Only the account's counter resets: one good password must not clear an address guessing at others.
    await account.recordSuccess();
    return { outcome: "signed_in", user };
  }
  await Promise.all([account.recordFailure("account", now), address.recordFailure("address", now)]);
  return { outcome: "wrong_credentials" };
}

/** "2 minutes", "45 seconds": how long a throttled person waits, in words. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
