import { forgetVerifiedGrant } from "../auth/verified-callers";
import { getOAuthApi, OAuthProvider } from "@cloudflare/workers-oauth-provider";
import { DurableObject } from "cloudflare:workers";
import { TOKEN_PATH, tokenEndpointOptions } from "../auth/oauth-provider";
import {
  afterRevocation,
  afterRotation,
  decideRefresh,
  INITIAL_ROTATION_STATE,
  REFRESH_GRACE_MS,
  type RotationState,
  scopesBeyondGrant,
} from "../domain/auth/refresh-rotation";
import type { Env } from "../env";

/** What the Worker sends back to the client: a token response or an OAuth error. */
export interface TokenAnswer {
  status: number;
  body: string;
}

/** The last rotation's response, sealed with a key only the token it answered can derive. */
interface SealedReplay {
  iv: string;
  data: string;
}

const STATE_KEY = "rotation";
const REPLAY_KEY = "replay";
/** A hash of the client credentials (client_id, secret, Authorization header) the rotation was made with. */
const REPLAY_CLIENT_KEY = "replay-client";
/** After this long without a refresh the grant's refresh token has expired (30 days): the guard forgets it. */
const FORGET_AFTER_MS = 31 * 24 * 3_600_000;

const oauthError = (status: number, error: string, description: string): TokenAnswer => ({
  status,
  body: JSON.stringify({ error, error_description: description }),
});

/**
 * One per OAuth grant (named "<userId>:<grantId>"): every refresh of the grant
 * runs here, one at a time, through the rotation policy in
 * domain/auth/refresh-rotation.ts, and only a refresh the policy lets through
 * reaches the provider's own token endpoint. KV cannot compare-and-set, so
 * without this two refreshes of one token could both succeed.
 */
export class GrantGuardObject extends DurableObject<Env> {
  /** Refreshes of this grant, in arrival order: each starts when the one before has finished. */
  #queue: Promise<unknown> = Promise.resolve();

  refresh(form: string, authorization: string | null, origin: string): Promise<TokenAnswer> {
    const run = this.#queue.then(() => this.#refresh(new URLSearchParams(form), authorization, origin));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #refresh(form: URLSearchParams, authorization: string | null, origin: string): Promise<TokenAnswer> {
    const token = form.get("refresh_token") ?? "";
    const [userId = "", grantId = ""] = token.split(":");
    const presented = await sha256Hex(token);
    const now = Date.now();
    const state = this.ctx.storage.kv.get<RotationState>(STATE_KEY) ?? INITIAL_ROTATION_STATE;
    const decision = decideRefresh(state, presented, now);
    switch (decision.kind) {
      case "refuse":
        return oauthError(400, "invalid_grant", "The refresh token is not valid.");
      case "revoke":
        await getOAuthApi(tokenEndpointOptions(origin), this.env).revokeGrant(grantId, userId);
        forgetVerifiedGrant(userId, grantId);
        this.ctx.storage.kv.put(STATE_KEY, afterRevocation(state));
        this.ctx.storage.kv.delete(REPLAY_KEY);
        this.ctx.storage.kv.delete(REPLAY_CLIENT_KEY);
        console.warn(JSON.stringify({ level: "warn", message: "refresh token reused: grant revoked", grantId, reason: decision.reason }));
        return oauthError(400, "invalid_grant", "This refresh token was already used. Sign in again.");
      case "replay": {
        // Only to the client that made the rotation, with the same credentials: the provider checked those then.
        const sameClient = this.ctx.storage.kv.get<string>(REPLAY_CLIENT_KEY) === (await clientBinding(form, authorization));
        const sealed = sameClient ? this.ctx.storage.kv.get<SealedReplay>(REPLAY_KEY) : undefined;
        const body = sealed ? await unseal(sealed, token) : null;
        if (body === null) return oauthError(400, "invalid_grant", "The refresh token is not valid.");
        return { status: 200, body };
      }
      case "rotate":
        return this.#rotate(form, authorization, origin, { userId, grantId, presented, state, now, token });
    }
  }

  async #rotate(
    form: URLSearchParams,
    authorization: string | null,
    origin: string,
    at: { userId: string; grantId: string; presented: string; state: RotationState; now: number; token: string },
  ): Promise<TokenAnswer> {
    // A narrower scope is the provider's to grant; a wider one is refused here, before anything rotates.
    if (form.has("scope")) {
      const grant = await this.env.OAUTH_KV.get<{ scope?: string[] }>(`grant:${at.userId}:${at.grantId}`, "json");
      const beyond = scopesBeyondGrant(form.get("scope"), grant?.scope ?? []);
      if (grant && beyond.length) return oauthError(400, "invalid_scope", `The grant does not include ${beyond.join(", ")}.`);
    }
    const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
    if (authorization) headers.set("authorization", authorization);
    const request = new Request(`${origin}${TOKEN_PATH}`, { method: "POST", headers, body: form.toString() });
    const response = await new OAuthProvider<Env>(tokenEndpointOptions(origin)).fetch(request, this.env, this.#executionContext());
    const body = await response.text();
    if (response.status !== 200) return { status: response.status, body };
    const successor = (JSON.parse(body) as { refresh_token?: string }).refresh_token;
    if (successor) {
      this.ctx.storage.kv.put(STATE_KEY, afterRotation(at.state, at.presented, await sha256Hex(successor), at.now));
      this.ctx.storage.kv.put(REPLAY_KEY, await seal(body, at.token));
      this.ctx.storage.kv.put(REPLAY_CLIENT_KEY, await clientBinding(form, authorization));
      await this.ctx.storage.setAlarm(at.now + REFRESH_GRACE_MS + 1_000);
    }
    return { status: 200, body };
  }

  /** The sealed replay is useless after the grace window: drop it; forget the grant once its tokens have expired. */
  override async alarm(): Promise<void> {
    const state = this.ctx.storage.kv.get<RotationState>(STATE_KEY);
    const now = Date.now();
    if (!state?.rotatedAt || now - state.rotatedAt >= FORGET_AFTER_MS) {
      await this.ctx.storage.deleteAll();
      return;
    }
    if (now - state.rotatedAt > REFRESH_GRACE_MS) {
      this.ctx.storage.kv.delete(REPLAY_KEY);
      this.ctx.storage.kv.delete(REPLAY_CLIENT_KEY);
    }
    await this.ctx.storage.setAlarm(state.rotatedAt + FORGET_AFTER_MS);
  }

  #executionContext(): ExecutionContext {
    return { waitUntil: (promise: Promise<unknown>) => this.ctx.waitUntil(promise), passThroughOnException() {}, props: {} } as ExecutionContext;
  }
}

/** The client credentials of a token request, hashed: what a replay must present again. */
const clientBinding = (form: URLSearchParams, authorization: string | null) =>
  sha256Hex([form.get("client_id") ?? "", form.get("client_secret") ?? "", authorization ?? ""].join("\u0000"));

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** AES-GCM with a key derived from the refresh token: the guard never holds a usable token in the clear. */
async function replayKey(token: string): Promise<CryptoKey> {
  const material = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`cairn-refresh-replay\u0000${token}`));
  return crypto.subtle.importKey("raw", material, "AES-GCM", false, ["encrypt", "decrypt"]);
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function seal(body: string, token: string): Promise<SealedReplay> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await replayKey(token), new TextEncoder().encode(body));
  return { iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
}

async function unseal(sealed: SealedReplay, token: string): Promise<string | null> {
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(sealed.iv) }, await replayKey(token), fromBase64(sealed.data));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
