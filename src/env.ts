import type { OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import type { GrantGuardObject } from "./durable-objects/grant-guard-object";
import type { PlanObject } from "./durable-objects/plan-object";
import type { SearchSessionObject } from "./durable-objects/search-session-object";
import type { SignInThrottleObject } from "./durable-objects/sign-in-throttle-object";
import type { SourceCheckerObject } from "./durable-objects/source-checker-object";
import type { SourceCheckMessage } from "./domain/ports";
import type { WebhookMessage } from "./domain/webhooks/model";

/** The Worker's bindings (wrangler.toml) plus what the OAuth provider injects. */
export interface Env {
  DB: D1Database;
  OAUTH_KV: KVNamespace;
  /** One Durable Object per research plan, named "<orgId>:<planId>". */
  PLAN: DurableObjectNamespace<PlanObject>;
  /** One Durable Object per sequential search session, named "<orgId>:<sessionId>". */
  SEARCH_SESSION: DurableObjectNamespace<SearchSessionObject>;
  /** One Durable Object per OAuth grant, named "<userId>:<grantId>": refresh rotation and reuse detection. */
  GRANT_GUARD: DurableObjectNamespace<GrantGuardObject>;
  /** One Durable Object per sign-in counter ("account:<hash>", "address:<ip>"): failures and lockouts. */
  SIGNIN_THROTTLE: DurableObjectNamespace<SignInThrottleObject>;
  /** One Durable Object per org, named by the org's id: stores and runs the org's source checks. */
  SOURCE_CHECKER: DurableObjectNamespace<SourceCheckerObject>;
  /** Cloudflare Rate Limiting: requests per credential on /mcp and /api/v1 (absent: no per-credential limit). */
  API_RATE_LIMITER?: RateLimit;
  /** Cloudflare Rate Limiting: views of share links' public pages, per link and per client address. */
  SHARE_LINK_RATE_LIMITER: RateLimit;
  SHARE_ADDRESS_RATE_LIMITER: RateLimit;
  /** Cloudflare Rate Limiting: Dynamic Client Registrations per client address. */
  REGISTRATION_RATE_LIMITER: RateLimit;
  /**
   * Cloudflare Rate Limiting: single sign-on's public routes (src/domain/auth/sso/sign-in-limits.ts), sign-ins started
   * and callbacks per client address, and sign-ins started per org.
   */
  SSO_ADDRESS_RATE_LIMITER: RateLimit;
  SSO_ORG_RATE_LIMITER: RateLimit;
  /** Minutes without a step before a search session expires (default 240). */
  SEARCH_SESSION_TTL_MINUTES?: string;
  /** Active search sessions per org (default 20). */
  SEARCH_SESSION_MAX_ACTIVE?: string;
  /** Active search sessions one member may hold (default 5, at most the org's). */
  SEARCH_SESSION_MAX_ACTIVE_PER_MEMBER?: string;
  /** Steps per search session (default 100). */
  SEARCH_SESSION_MAX_STEPS?: string;
  /**
   * Cloudflare Browser Rendering (`[browser] binding = "BROWSER"`): prints the PDF download (src/web/downloads/pdf.ts).
   * Absent: a PDF download answers 501 naming this setting; the other formats need no browser.
   */
  BROWSER?: Fetcher;
  /** Secrets: the web search provider for depth=thorough (Brave, then Tavily, then SearXNG); none means the org's research index. */
  BRAVE_API_KEY?: string;
  TAVILY_API_KEY?: string;
  SEARXNG_URL?: string;
  /**
   * Public origin of this deployment: the OAuth issuer and resource. Optional in
   * the configuration (unset: the origin each request arrives on); the entry point
   * always sets it before any handler runs, so handlers read it as a string.
   */
  PUBLIC_URL: string;
  /** Webhook events and deliveries (src/platform/webhooks). */
  WEBHOOK_QUEUE: Queue<WebhookMessage>;
  /** Recorded sources to check: its consumer (this Worker) hands each org's checks to that org's SOURCE_CHECKER (src/platform/sources). */
  SOURCE_CHECK_QUEUE: Queue<SourceCheckMessage>;
  /** The source-check queue's dead-letter queue: a checker sends here a check whose unchecked verdict it could not write. */
  SOURCE_CHECK_DLQ: Queue<SourceCheckMessage>;
  /** Seconds before a failed source check's second attempt, doubling after (default 5; 0 retries at once). */
  SOURCE_CHECK_RETRY_BASE_SECONDS?: string;
  /** Snapshots of fetched sources, under "orgs/<orgId>/", content-addressed by the SHA-256 of their text. */
  SOURCE_SNAPSHOTS: R2Bucket;
  /** Source checks one org may request a minute (default 300) and a day (default 5000). */
  SOURCE_CHECKS_PER_MINUTE?: string;
  SOURCE_CHECKS_PER_DAY?: string;
  /** Bytes of page snapshots one org may keep (default 1 GiB); past it a check keeps no copy and answers unchecked. */
  SOURCE_SNAPSHOT_BYTES_PER_ORG?: string;
  /** Hosts source checks may fetch from, comma-separated (unset: any public host); the tests allow only their loopback fixtures. */
  SOURCE_CHECK_HOSTS?: string;
  /** Seconds before a failed delivery's first retry, doubling after (default 30). */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  /** Seconds a delivery may sit pending before the sweeper sends it again (default 7200: twice the longest retry delay). */
  WEBHOOK_STUCK_AFTER_SECONDS?: string;
  /**
   * Secret: the keys that seal webhook signing secrets at rest, `id:base64` (32 bytes each), comma-separated;
   * the first seals, the others only open what they sealed (src/domain/webhooks/secret-box.ts).
   */
  WEBHOOK_SECRET_KEYS?: string;
  /**
   * Cloudflare Email Service `send_email` binding: notification e-mails (src/platform/notifications). Absent: e-mail
   * notifications are recorded as failed with why. NOTIFICATION_FROM is the sender, an address of a domain onboarded
   * to Email Service (default notifications@ the PUBLIC_URL host).
   */
  SEND_EMAIL?: SendEmail;
  NOTIFICATION_FROM?: string;
  /** Messages one org may send a day, UTC (default 500); seconds of a recipient's digest window (default 300). */
  NOTIFICATION_DAILY_CAP?: string;
  NOTIFICATION_DIGEST_SECONDS?: string;
  /** Milliseconds an org erasure waits after cutting access, before it deletes (default: the membership cache bound, 5000). */
  ORG_ERASURE_SETTLE_MS?: string;
  /** Days the tool-call log is kept (default 90), and ended webhook deliveries (default 30); removed by the daily cron. */
  TOOL_CALL_LOG_RETENTION_DAYS?: string;
  WEBHOOK_DELIVERY_RETENTION_DAYS?: string;
  /**
   * D1 bindings new orgs may be placed in, e.g. "DB,RESEARCH_DB_2" (default: DB alone). Each listed
   * binding is declared in the configuration like DB and migrated like it; DB keeps the directory.
   */
  ORG_DATABASES?: string;
  /** What one org may import per UTC day: records (default 200000) and bytes of file (default 536870912). */
  ORG_IMPORT_DAILY_ROWS?: string;
  ORG_IMPORT_DAILY_BYTES?: string;
  /** "production" when deployed with `npm run deploy`; "development" locally. */
  CAIRN_ENV?: string;
  /** Injected by OAuthProvider into the default handler's env. */
  OAUTH_PROVIDER: OAuthHelpers;
}
