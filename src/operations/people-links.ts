/**
 * Links a person can open (ChatGPT shows them beside search and fetch results):
 * the dashboard's pages, behind its sign-in, rather than REST URLs that need a
 * bearer token. Records without a page of their own link to their source or
 * their plan.
 */
export const deliverableLink = (origin: string, outputId: string): string => `${origin}/dashboard/outputs/${encodeURIComponent(outputId)}`;

export const planLink = (origin: string, planId: string): string => `${origin}/dashboard/plans/${encodeURIComponent(planId)}`;
