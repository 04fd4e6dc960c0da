/**
 * Remembering tokens this isolate has verified, so the same token within a
 * short window costs no storage read and no decryption. The rules, pure:
 *   - an entry lives at most VERIFIED_TOKEN_TTL_MS, and never past the token's own expiry;
 *   - an OAuth token is keyed by the origin the request arrived on and the token together
 *     (a token verified for one hostname proves nothing on another); an API key, good on
 *     every hostname the deployment serves, by itself;
 *   - the map is bounded: the least recently stored entry goes first;
 *   - a hit never extends an entry, so a revocation elsewhere is seen within the bound.
 * Revocations made through this isolate drop the matching entries at once.
 */
export const VERIFIED_TOKEN_TTL_MS = 30_000;
export const VERIFIED_TOKEN_ENTRIES = 10_000;

export interface VerifiedToken<T> {
  value: T;
  /** Epoch ms after which the entry is not used. */
  until: number;
  /** Who it belongs to, for dropping entries on revocation. */
  userId: string;
  orgId: string;
  apiKeyId: string | null;
  grantId: string | null;
}

/** How long a token verified at `now` may be trusted: the window, cut to the token's expiry (epoch seconds) if it has one. */
export function trustedUntil(now: number, tokenExpiresAtSeconds: number | undefined): number {
  const window = now + VERIFIED_TOKEN_TTL_MS;
  return tokenExpiresAtSeconds === undefined ? window : Math.min(window, tokenExpiresAtSeconds * 1000);
}

export class VerifiedTokens<T> {
  readonly #entries = new Map<string, VerifiedToken<T>>();

  constructor(readonly capacity = VERIFIED_TOKEN_ENTRIES) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, now: number): T | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return null;
    }
    return entry.value;
  }

  set(key: string, entry: VerifiedToken<T>, now: number): void {
    if (entry.until <= now) return;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Drops every entry matching: a member removed, a key revoked, a grant revoked. */
  forget(match: (entry: VerifiedToken<T>) => boolean): number {
    let dropped = 0;
    for (const [key, entry] of this.#entries) {
      if (match(entry)) {
        this.#entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }
}
