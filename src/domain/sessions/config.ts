import type { SessionConfig } from "./model";

export const DEFAULT_SESSION_CONFIG: SessionConfig = { ttlMinutes: 240, maxActivePerOrg: 20, maxActivePerMember: 5, maxStepsPerSession: 100 };

/** The longest a deployment may let a session sit idle (a week). */
export const MAX_SESSION_TTL_MINUTES = 7 * 24 * 60;

const BOUNDS: Record<keyof SessionConfig, [number, number]> = {
  ttlMinutes: [1, MAX_SESSION_TTL_MINUTES],
  maxActivePerOrg: [1, 10_000],
  maxActivePerMember: [1, 10_000],
  maxStepsPerSession: [2, 1_000],
};

export interface SessionVars {
  SEARCH_SESSION_TTL_MINUTES?: string;
  SEARCH_SESSION_MAX_ACTIVE?: string;
  SEARCH_SESSION_MAX_ACTIVE_PER_MEMBER?: string;
  SEARCH_SESSION_MAX_STEPS?: string;
}

/**
 * Session settings from the deployment's variables. A value that is not a whole
 * number keeps the default and one out of range is clamped, so a typo in
 * wrangler.toml can never disable expiry or the limits.
 */
export function sessionConfig(vars: SessionVars): SessionConfig {
  const read = (key: keyof SessionConfig, raw: string | undefined): number => {
    const [min, max] = BOUNDS[key];
    const value = raw === undefined || !/^\s*\d+\s*$/.test(raw) ? DEFAULT_SESSION_CONFIG[key] : Number(raw);
    return Math.min(max, Math.max(min, value));
  };
  const maxActivePerOrg = read("maxActivePerOrg", vars.SEARCH_SESSION_MAX_ACTIVE);
  return {
    ttlMinutes: read("ttlMinutes", vars.SEARCH_SESSION_TTL_MINUTES),
    maxActivePerOrg,
    // A member's share never exceeds the org's whole allowance.
    maxActivePerMember: Math.min(maxActivePerOrg, read("maxActivePerMember", vars.SEARCH_SESSION_MAX_ACTIVE_PER_MEMBER)),
    maxStepsPerSession: read("maxStepsPerSession", vars.SEARCH_SESSION_MAX_STEPS),
  };
}
