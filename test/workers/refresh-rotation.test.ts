import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RotationState } from "../../src/domain/auth/refresh-rotation";
import type { GrantGuardObject } from "../../src/durable-objects/grant-guard-object";
import { callTool, fetchWorker, mcpRequest, ORIGIN, seedTenant, tokensFor } from "../support/worker";

interface TokenResponse {
  access_token: string;
  refresh_token: string;
  scope: string;
  error?: string;
}

async function signedInClient(scopes?: string) {
  const { admin } = await seedTenant();
  const flow = await tokensFor({ email: admin.email, password: admin.password, ...(scopes ? { requestScope: scopes } : {}) });
  const refresh = async (token: string, extra: Record<string, string> = {}) => {
    const response = await fetchWorker(
      new Request(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: flow.clientId, ...extra }),
      }),
    );
    return { status: response.status, body: (await response.json()) as TokenResponse };
  };
  return { refresh, tokens: flow.tokens as TokenResponse };
}

/** Whether an access token still opens /mcp. */
const works = async (accessToken: string) => (await fetchWorker(mcpRequest(accessToken, "tools/list"))).status === 200;

const guardOf = (refreshToken: string) => {
  const [userId, grantId] = refreshToken.split(":");
  return env.GRANT_GUARD.getByName(`${userId}:${grantId}`);
};

describe("refresh-token rotation (RFC 9700 §4.14.2)", () => {
  it("answers a retry with the preceding token within the grace window with the same successor, never a second one", async () => {
    const { refresh, tokens } = await signedInClient();
    const first = await refresh(tokens.refresh_token);
    expect(first.status).toBe(200);
    const retry = await refresh(tokens.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).toBe(first.body.refresh_token);
    expect(retry.body.access_token).toBe(first.body.access_token);
    // The successor keeps rotating normally.
    const next = await refresh(first.body.refresh_token);
    expect(next.status).toBe(200);
    expect(await works(next.body.access_token)).toBe(true);
  });

  it("revokes the whole grant when an older generation comes back", async () => {
    const { refresh, tokens } = await signedInClient();
    const second = await refresh(tokens.refresh_token);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
    expect(await works(third.body.access_token)).toBe(true);
    const replayed = await refresh(tokens.refresh_token);
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe("invalid_grant");
    // Everything of the grant is dead, the newest pair included.
    expect(await works(third.body.access_token)).toBe(false);
    expect(await works(second.body.access_token)).toBe(false);
    expect((await refresh(third.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("revokes the grant when the preceding token comes back after the window", async () => {
    const { refresh, tokens } = await signedInClient();
    const next = await refresh(tokens.refresh_token);
    await runInDurableObject(guardOf(tokens.refresh_token), async (_guard: GrantGuardObject, state) => {
      const rotation = state.storage.kv.get<RotationState>("rotation");
      if (!rotation?.rotatedAt) throw new Error("no rotation recorded");
      state.storage.kv.put("rotation", { ...rotation, rotatedAt: rotation.rotatedAt - 61_000 });
    });
    const late = await refresh(tokens.refresh_token);
    expect(late.status).toBe(400);
    expect(late.body.error).toBe("invalid_grant");
    expect(await works(next.body.access_token)).toBe(false);
    expect((await refresh(next.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("leaves one live pair after 8 parallel refreshes of one token", async () => {
    const { refresh, tokens } = await signedInClient();
    const answers = await Promise.all(Array.from({ length: 8 }, () => refresh(tokens.refresh_token)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.body.access_token)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.refresh_token)).size).toBe(1);
    expect(await works(tokens.access_token)).toBe(true); // the original access token lives out its hour
  });

  it("replays only to the client that made the rotation", async () => {
    const { refresh, tokens } = await signedInClient();
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
    const otherClient = await refresh(tokens.refresh_token, { client_id: "someone-else" });
    expect(otherClient.status).toBe(400);
    expect(otherClient.body.access_token).toBeUndefined();
  });

  it("refuses a made-up token for a real grant without revoking the grant", async () => {
    const { refresh, tokens } = await signedInClient();
    const [userId, grantId] = tokens.refresh_token.split(":");
    const guess = await refresh(`${userId}:${grantId}:not-a-real-secret`);
    expect(guess.body.error).toBe("invalid_grant");
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
  });
});

describe("scope on refresh", () => {
  it("gives a narrower token when asked, which then cannot write", async () => {
    const { refresh, tokens } = await signedInClient();
    expect(tokens.scope).toBe("research:read research:write");
    const narrowed = await refresh(tokens.refresh_token, { scope: "research:read" });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe("research:read");
    const write = await fetchWorker(mcpRequest(narrowed.body.access_token, "tools/call", { name: "log_skill_execution", arguments: { skillName: "research" } }));
    expect(write.status).toBe(403);
    expect((await callTool(narrowed.body.access_token, "list_skill_executions", {})).isError).toBe(false);
    // The refresh token keeps the grant's scope: the next refresh without a scope is whole again.
    const whole = await refresh(narrowed.body.refresh_token);
    expect(whole.body.scope).toBe("research:read research:write");
  });

  it("refuses a wider scope with invalid_scope and leaves the token usable", async () => {
    const { refresh, tokens } = await signedInClient("research:read");
    expect(tokens.scope).toBe("research:read");
    const wider = await refresh(tokens.refresh_token, { scope: "research:read research:write" });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe("invalid_scope");
    const plain = await refresh(tokens.refresh_token);
    expect(plain.status).toBe(200);
    expect(plain.body.scope).toBe("research:read");
  });
});
