/**
 * Links a person can open (ChatGPT shows them beside search and fetch results):
 * the dashboard's pages, behind its sign-in, rather than REST URLs that need a
 * bearer token. Records without a page of their own link to their source or
 * their plan.
 */
export const deliverableLink = (origin: string, outputId: string): string => `${origin}/dashboard/outputs/${encodeURIComponent(outputId)}`;

/** An artifact's page, for one without a source URL of its own. */
export const artifactLink = (origin: string, artifactId: string): string => `${origin}/dashboard/artifacts/${encodeURIComponent(artifactId)}`;

export const planLink = (origin: string, planId: string): string => `${origin}/dashboard/plans/${encodeURIComponent(planId)}`;
