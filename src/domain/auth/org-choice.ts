/**
 * Which org a sign-in opens in (the consent page's preselected org, the
 * dashboard after sign-in). Never the first by name: being added to an org,
 * by an import or an admin, must not move where a person's assistant writes.
 * The only org a person has; else the one they used last (approved a consent
 * for, or chose in the dashboard); else none, and they choose.
 */
export interface OrgUse {
  orgId: string;
  /** When the person last chose this org (ms), or null if never. */
  lastUsedAt: number | null;
}

export function defaultOrg(memberships: readonly OrgUse[]): string | null {
  if (memberships.length === 1) return memberships[0]?.orgId ?? null;
  let best: OrgUse | null = null;
  for (const membership of memberships) {
    if (membership.lastUsedAt === null) continue;
    if (!best || (best.lastUsedAt ?? 0) < membership.lastUsedAt) best = membership;
  }
  return best?.orgId ?? null;
}
