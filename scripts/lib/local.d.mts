// Types for local.mjs, so TypeScript tests can import it (the project does not type-check JS).
import type { ChildProcess } from "node:child_process";

/** Where the database is: local (default; optional persist dir) or the deployed D1. `config` is a wrangler.toml path. */
export interface Target {
  remote?: boolean;
  persistTo?: string;
  config?: string;
}

export declare const projectRoot: string;
export declare const D1_BINDING: "DB";
export declare const SCOPES: readonly ["research:read", "research:write", "org:admin"];
export declare const DEFAULT_SCOPES: readonly ["research:read", "research:write"];
export declare const ROLES: readonly ["member", "admin"];
export declare const OFFLINE_ENV: Readonly<Record<string, string>>;
export declare const DEFAULT_DEMO_STATE_FILE: string;
/** The demo API key's scopes, as `npm start` prints them: never plans:approve. */
export declare const DEMO_KEY_SCOPES: readonly ["research:read", "research:write", "org:admin"];

export declare class UsageError extends Error {
  readonly exitCode: 2;
}
export declare class OperatorError extends Error {
  constructor(message: string, details?: { code?: string; output?: string });
  readonly code: string;
  readonly exitCode: 1;
  readonly output?: string;
}

export declare function nodeBinary(): string;
export declare function wranglerEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export declare function runWrangler(
  args: string[],
  options?: { env?: Record<string, string>; cwd?: string },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;

export type Row = Record<string, unknown>;
export declare function sqlString(value: unknown): string;
export declare function sqlInt(value: unknown): string;
/** Which D1 database a statement runs in: the directory (`DB`, default) or another binding of the configuration. */
export interface SqlTarget extends Target {
  database?: string;
}
/** Rows of every statement, in order. */
export declare function runSqlAll(sql: string, options?: SqlTarget): Promise<Row[][]>;
/** Rows of the last statement. */
export declare function runSql(sql: string, options?: SqlTarget): Promise<Row[]>;
/** Applies pending migrations to every D1 database the configuration declares; wrangler's output, per database. */
export declare function applyMigrations(
  options?: Target,
): Promise<{ output: string; databases: Array<{ binding: string; output: string; upToDate: boolean }> }>;
/** The D1 bindings a configuration declares (default: the project's wrangler.toml), `DB` first. */
export declare function configuredDatabases(config?: string): string[];

export declare function normalizeSlug(slug: unknown): string;
export declare function normalizeEmail(email: unknown): string;
export declare function normalizeRole(role: unknown): "member" | "admin";
export declare function normalizeScopes(scopes: string | string[] | undefined): string[];
export declare function generatePassword(): string;

export interface OrgResult {
  id: string;
  slug: string;
  name: string;
  createdAt: number;
  /** The D1 binding holding the org's research; null until the Worker places it at first use. */
  database: string | null;
  created: boolean;
}
export declare function createOrg(input: { slug: string; name: string; database?: string } & Target, options?: Target): Promise<OrgResult>;
export declare function listOrgs(
  options?: Target,
): Promise<Array<{ id: string; slug: string; name: string; createdAt: number; database: string | null; members: number; admins: number; activeKeys: number }>>;

export interface AddUserResult {
  userId: string;
  email: string;
  displayName: string;
  orgId: string;
  orgSlug: string;
  role: "member" | "admin";
  previousRole: "member" | "admin" | null;
  userCreated: boolean;
  /** Set only when a password was generated (new user or reset without one). */
  password: string | null;
  passwordGenerated: boolean;
  passwordChanged: boolean;
  /** An existing user's different password was given without resetPassword, and left unchanged. */
  passwordIgnored: boolean;
  /** The org requires single sign-on and a password was given: this member's password still signs in (audited). */
  breakGlass: boolean;
}
export declare function addUser(
  input: { org: string; email: string; name?: string; role: "member" | "admin"; password?: string; resetPassword?: boolean } & Target,
  options?: Target,
): Promise<AddUserResult>;
export declare function listUsers(
  input: { org: string } & Target,
  options?: Target,
): Promise<Array<{ id: string; email: string; displayName: string; role: "member" | "admin"; joinedAt: number }>>;

export interface CreatedApiKey {
  id: string;
  /** The key itself: returned once, never stored. */
  key: string;
  prefix: string;
  name: string;
  scopes: string[];
  orgSlug: string;
  userEmail: string;
  createdAt: number;
}
export declare function createApiKey(
  input: { org: string; userEmail: string; name: string; scopes?: string | string[] } & Target,
  options?: Target,
): Promise<CreatedApiKey>;

export interface ApiKeyListing {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  userEmail: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}
export declare function listApiKeys(input: { org: string } & Target, options?: Target): Promise<ApiKeyListing[]>;
export declare function revokeApiKey(
  input: { org: string; id: string } & Target,
  options?: Target,
): Promise<{ id: string; name: string; prefix: string; revokedAt: number; alreadyRevoked: boolean }>;

export interface DemoCredentials {
  email: string;
  password: string;
  apiKey: string;
  orgSlug: string;
  /** What this run had to (re)create: "org", "user", "password", "membership", "apiKey". */
  changed: string[];
}
export declare function seedDemo(options?: { persistTo?: string; stateFile?: string; config?: string; remote?: false }): Promise<DemoCredentials>;

export interface DevServer {
  /** `http://localhost:PORT` (also PUBLIC_URL inside the Worker). */
  url: string;
  port: number;
  child: ChildProcess;
  /** Collected wrangler output (background mode only). */
  log: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Ends wrangler and its workerd; resolves once they are gone. */
  stop: () => Promise<void>;
}
export declare function findFreePort(): Promise<number>;
/** Where local development keeps its generated WEBHOOK_SECRET_KEYS (under .wrangler/). */
export declare const DEV_WEBHOOK_KEYS_FILE: string;
/** Local development's WEBHOOK_SECRET_KEYS for wrangler dev: the environment's, none if .dev.vars sets it, else generated once into `file`. */
export declare function devWebhookSecretKeys(options?: { file?: string; devVars?: string; environment?: Record<string, string | undefined> }): { WEBHOOK_SECRET_KEYS?: string };
export declare function startDevServer(options?: {
  port?: number;
  persistTo?: string;
  vars?: Record<string, string>;
  inspectorPort?: number;
  logFile?: string;
  config?: string;
  timeoutMs?: number;
  foreground?: boolean;
  extraArgs?: string[];
  /** Say in the state's directory that this server serves it, until it stops: the operator CLI then uses it. */
  announce?: boolean;
}): Promise<DevServer>;
/** The file where a running `wrangler dev` says it serves a local state (its directory: .wrangler/state or persistTo). */
export declare function runningServerFile(persistTo?: string): string;
/** The URL of the `wrangler dev` serving this local state now (its file, a live process, GET /health 200), or null. */
export declare function runningDevServer(target?: { persistTo?: string; config?: string }): Promise<string | null>;
