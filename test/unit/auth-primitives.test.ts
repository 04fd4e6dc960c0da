import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, looksLikeApiKey } from "../../src/auth/api-keys";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../../src/auth/password";
import { normalizeResource, normalizeResourceParams } from "../../src/auth/resource";

describe("passwords", () => {
  it("verify only the password they were made from, with a fresh salt each time", async () => {
    const a = await hashPassword("correct horse battery staple");
    const b = await hashPassword("correct horse battery staple");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(await verifyPassword("correct horse battery staple", a)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", a)).toBe(false);
  });

  it.each(["", "plain", "md5$1$x$y", "pbkdf2-sha256$999999999$AA==$AA==", DUMMY_PASSWORD_HASH])("never verifies against %j", async (stored) => {
    expect(await verifyPassword("anything", stored)).toBe(false);
  });
});

describe("API keys", () => {
  it("are recognisable, unique, and stored only as a hash", async () => {
    const { key, prefix, hash } = await generateApiKey();
    expect(looksLikeApiKey(key)).toBe(true);
    expect(key.startsWith(prefix)).toBe(true);
    expect(hash).toBe(await hashApiKey(key));
    expect(hash).not.toContain(key.slice(6));
    expect((await generateApiKey()).key).not.toBe(key);
    expect(looksLikeApiKey("cairn_short")).toBe(false);
    expect(looksLikeApiKey(`cairn_${"!".repeat(40)}`)).toBe(false);
  });
});

describe("resource normalization", () => {
  const origin = "https://cairn.example.com";
  it.each([
    [origin, origin],
    [`${origin}/`, origin],
    [`${origin}/mcp`, origin],
    [`${origin}/mcp/`, origin],
    [`${origin}/api/v1`, origin],
    ["HTTPS://CAIRN.EXAMPLE.COM/mcp", origin],
  ])("maps %s to the canonical origin", (value, expected) => {
    expect(normalizeResource(value, origin)).toBe(expected);
  });

  it.each([
    "https://other.example.com/mcp",
    `${origin}/mcpx`,
    `${origin}/mcp?x=1`,
    `${origin}/mcp#f`,
    `${origin}:8443/mcp`,
    "http://cairn.example.com/mcp",
    "not a url",
  ])("leaves %s for the provider to refuse", (value) => {
    expect(normalizeResource(value, origin)).toBe(value);
  });

  it("rewrites only a single resource parameter", () => {
    expect(normalizeResourceParams(new URLSearchParams({ resource: `${origin}/mcp`, a: "1" }), origin)?.toString()).toBe(
      `resource=${encodeURIComponent(origin)}&a=1`,
    );
    const twice = new URLSearchParams([["resource", `${origin}/mcp`], ["resource", origin]]);
    expect(normalizeResourceParams(twice, origin)).toBeNull();
    expect(normalizeResourceParams(new URLSearchParams({ a: "1" }), origin)).toBeNull();
  });
});
