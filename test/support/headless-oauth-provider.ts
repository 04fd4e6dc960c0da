/**
 * An MCP client OAuth provider for tests: it keeps everything in memory and,
 * instead of opening a browser, remembers the authorization URL so the test can
 * act as the person (sign in, consent) with `authorizeInBrowser`. Its shape
 * satisfies both the v1 (`@modelcontextprotocol/sdk`) and v2 client interfaces.
 */
export class HeadlessOAuthProvider {
  authorizationUrl: URL | undefined;
  #client: Record<string, unknown> | undefined;
  #tokens: { access_token: string; refresh_token?: string; token_type: string } | undefined;
  #verifier = "";
  #discovery: unknown;
  readonly savedTokens: { access_token: string; refresh_token?: string }[] = [];

  constructor(
    readonly redirectUrl: string,
    readonly clientName: string,
  ) {}

  get clientMetadata() {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    };
  }

  clientInformation() {
    return this.#client as never;
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.#client = info;
  }
  tokens() {
    return this.#tokens as never;
  }
  saveTokens(tokens: { access_token: string; refresh_token?: string; token_type: string }) {
    this.#tokens = tokens;
    this.savedTokens.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  saveDiscoveryState(state: unknown) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery as never;
  }
  /** Makes the stored access token useless, so the next call must refresh. */
  spoilAccessToken() {
    if (this.#tokens) this.#tokens = { ...this.#tokens, access_token: "expired-or-revoked" };
  }
}
