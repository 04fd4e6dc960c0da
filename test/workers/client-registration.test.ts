import { describe, expect, it } from "vitest";
import { REGISTRATION_LIMITS } from "../../src/domain/auth/client-registration";
import { fetchWorker, ORIGIN } from "../support/worker";

const register = (document: unknown, address = "203.0.113.50") =>
  fetchWorker(
    new Request(`${ORIGIN}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": address },
      body: typeof document === "string" ? document : JSON.stringify(document),
    }),
  );

const valid = (extra: Record<string, unknown> = {}) => ({
  redirect_uris: ["http://localhost:9999/callback"],
  client_name: "A client",
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  ...extra,
});

describe("Dynamic Client Registration bounds", () => {
  it("refuses a 200 KB client_name and 1,000 redirect URIs, and accepts a normal registration", async () => {
    const name = await register(valid({ client_name: "x".repeat(200_000) }), "203.0.113.51");
    expect(name.status).toBe(413);
    const longName = await register(valid({ client_name: "x".repeat(REGISTRATION_LIMITS.clientNameChars + 1) }), "203.0.113.51");
    expect(longName.status).toBe(400);
    expect(((await longName.json()) as { error: string }).error).toBe("invalid_client_metadata");
    const uris = await register(valid({ redirect_uris: Array.from({ length: 1_000 }, (_, i) => `http://localhost:9999/cb${i}`) }), "203.0.113.51");
    expect(uris.status).toBe(413);
    const elevenUris = await register(valid({ redirect_uris: Array.from({ length: 11 }, (_, i) => `http://localhost:9999/cb${i}`) }), "203.0.113.51");
    expect(elevenUris.status).toBe(400);
    expect(((await elevenUris.json()) as { error: string }).error).toBe("invalid_redirect_uri");
    expect((await register("{not json", "203.0.113.51")).status).toBe(400);
    expect((await register(valid({ contacts: Array.from({ length: 50 }, () => "a@b.c") }), "203.0.113.51")).status).toBe(400);
    expect((await register(valid(), "203.0.113.51")).status).toBe(201);
  });

  it("limits registrations per client address with 429 and Retry-After, other addresses unaffected", async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    // Windows are aligned to the clock and may roll over once during the loop: 2 × limit + 1 attempts always meet a refusal.
    for (let i = 0; i < 41 && !refused; i++) {
      const response = await register(valid(), "203.0.113.60");
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(20);
    expect((await register(valid(), "203.0.113.61")).status).toBe(201);
  });
});
