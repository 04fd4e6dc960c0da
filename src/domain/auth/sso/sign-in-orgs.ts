/**
 * Which of a person's orgs a sign-in opens. A password opens the orgs that allow passwords for them (an org that
 * requires single sign-on is closed to its members' passwords, except its break-glass admin's). A sign-in through
 * an org's provider opens that org only: the provider vouches for its own people, never for what the same
 * e-mail address holds in other orgs (a provider could assert any address).
 */
export type SignInMethod = { kind: "password" } | { kind: "sso"; orgId: string };

export function orgsOpenedBy<T extends { orgId: string; passwordAllowed: boolean }>(memberships: readonly T[], method: SignInMethod): T[] {
  return method.kind === "sso" ? memberships.filter((m) => m.orgId === method.orgId) : memberships.filter((m) => m.passwordAllowed);
}
