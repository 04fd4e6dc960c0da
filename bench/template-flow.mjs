/**
 * An OAuth access token from row T's Worker through the provider's own
 * endpoints: dynamic client registration, authorization code with PKCE (S256)
 * and the resource indicator, token exchange. Its /authorize approves the
 * bench admin at once (bench/template-worker.mjs).
 */
import { createHash, randomBytes } from "node:crypto";

const base64url = (bytes) => Buffer.from(bytes).toString("base64url");

export async function obtainTemplateToken(templateUrl, email) {
  const redirectUri = "http://127.0.0.1/callback";
  const registered = await fetch(`${templateUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "bench", redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"] }),
  });
  if (!registered.ok) throw new Error(`template: client registration HTTP ${registered.status} ${await registered.text()}`);
  const { client_id: clientId } = await registered.json();
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash("sha256").update(verifier).digest());
  const authorize = new URL(`${templateUrl}/authorize`);
  for (const [key, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "bench",
    resource: templateUrl,
    login_hint: email,
  })) {
    authorize.searchParams.set(key, value);
  }
  const approved = await fetch(authorize, { redirect: "manual" });
  const location = approved.headers.get("location");
  const code = location ? new URL(location).searchParams.get("code") : null;
  if (!code) throw new Error(`template: /authorize gave no code (HTTP ${approved.status}) ${await approved.text()}`);
  const exchanged = await fetch(`${templateUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier, resource: templateUrl }),
  });
  const tokens = await exchanged.json();
  if (!exchanged.ok || !tokens.access_token) throw new Error(`template: token exchange HTTP ${exchanged.status} ${JSON.stringify(tokens)}`);
  return tokens.access_token;
}
