import { afterEach, describe, expect, it, vi } from "vitest";
import { CookieJar, hiddenField, pkcePair } from "../support/oauth-flow";
import { fetchWorker, mcpRequest, ORIGIN, seedTenant } from "../support/worker";

const CLIENT_ID = "https://notes.example.com/oauth/client.json";
const REDIRECT = "https://notes.example.com/callback";

/** The client's own metadata host is third-party network: the one thing these tests mock. */
function serveClientMetadata(document: Record<string, unknown>) {
  const realFetch = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === CLIENT_ID) return new Response(JSON.stringify(document), { headers: { "content-type": "application/json", "cache-control": "max-age=60" } });
    return realFetch(input, init);
  });
}

afterEach(() => vi.restoreAllMocks());

describe("Client ID Metadata Documents", () => {
  it("lets a client identified by its metadata URL sign a person in, showing its verified domain", async () => {
    serveClientMetadata({ client_id: CLIENT_ID, client_name: "Notes App", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
    const { admin } = await seedTenant();
    const { verifier, challenge } = await pkcePair();
    const query = new URLSearchParams({ response_type: "code", client_id: CLIENT_ID, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "s", resource: ORIGIN });
    const url = `${ORIGIN}/authorize?${query}`;
    const jar = new CookieJar();
    const page = await fetchWorker(new Request(url));
    jar.store(page);
    expect(page.status).toBe(200);
    const signInHtml = await page.text();
    expect(signInHtml).toContain("Notes App");
    const consent = await fetchWorker(
      new Request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
        body: new URLSearchParams({ step: "signin", csrf: hiddenField(signInHtml, "csrf"), email: admin.email, password: admin.password }),
      }),
    );
    jar.store(consent);
    const consentHtml = await consent.text();
    expect(consentHtml).toContain("Published by <strong>notes.example.com</strong>");
    const approve = await fetchWorker(
      new Request(url, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
        body: new URLSearchParams({ step: "consent", handle: hiddenField(consentHtml, "handle"), decision: "approve", orgId: hiddenField(consentHtml, "orgId"), scope: "research:read" }),
      }),
    );
    const location = new URL(approve.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    const token = await fetchWorker(
      new Request(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: location.searchParams.get("code") ?? "", redirect_uri: REDIRECT, client_id: CLIENT_ID, code_verifier: verifier, resource: `${ORIGIN}/mcp` }),
      }),
    );
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    expect((await fetchWorker(mcpRequest(access_token, "tools/list"))).status).toBe(200);
  });

  it("refuses a redirect URI the metadata document does not list, without redirecting", async () => {
    serveClientMetadata({ client_id: CLIENT_ID, client_name: "Notes App", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
    const { challenge } = await pkcePair();
    const query = new URLSearchParams({ response_type: "code", client_id: CLIENT_ID, redirect_uri: "https://evil.example/callback", code_challenge: challenge, code_challenge_method: "S256", state: "s" });
    const response = await fetchWorker(new Request(`${ORIGIN}/authorize?${query}`, { redirect: "manual" }));
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  it.each([
    "https://127.0.0.1/client.json",
    "https://localhost/client.json",
    "https://0x7f000001/client.json",
    "https://2130706433/client.json",
    "https://127.1/client.json",
    "https://[::1]/client.json",
    "https://169.254.169.254/latest/meta-data",
    "https://10.1.2.3/client.json",
    "http://notes.example.com/client.json",
    // IPv6 leftovers of ::/8 and ISATAP identifiers carrying a local address
    "https://[::ffff:0:0:7f00:1]/client.json",
    "https://[::1:0:0:0]/client.json",
    "https://[2001:4860::200:5efe:169.254.169.254]/client.json",
  ])("never fetches a metadata URL aimed at a local or private address: %s", async (clientId) => {
    const spy = vi.spyOn(globalThis, "fetch");
    const { challenge } = await pkcePair();
    const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "s" });
    const page = await fetchWorker(new Request(`${ORIGIN}/authorize?${query}`, { redirect: "manual" }));
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(await page.text()).toContain("cannot be used");
    const token = await fetchWorker(
      new Request(`${ORIGIN}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT, client_id: clientId, code_verifier: "v" }),
      }),
    );
    expect(token.status).toBe(401);
    expect(((await token.json()) as { error: string }).error).toBe("invalid_client");
    const fetched = spy.mock.calls.map(([input]) => (input instanceof Request ? input.url : String(input)));
    expect(fetched.filter((url) => !url.startsWith(ORIGIN))).toEqual([]);
  });
});
