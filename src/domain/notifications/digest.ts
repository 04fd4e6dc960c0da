import type { NotifiedEvent } from "./message";

/**
 * What a message about to go still says. Events wait for a recipient's window, so by the time a digest goes a
 * request for a person's answer may have been answered, and the same event may be there twice (an approval asked
 * again after a change). A request whose plan no longer waits for a person is dropped; each event is said once
 * (the latest of its kind for the same plan or deliverable). Pure: the caller says which plans still wait.
 */

/** The events that ask a person for an answer: stale once the plan waits no more. */
export const ANSWER_REQUESTS: ReadonlySet<string> = new Set(["plan.review_requested", "plan.approval_requested"]);

const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** The plan an answer request is about, if it is one. */
export const requestedPlanOf = (event: NotifiedEvent): string | null => (ANSWER_REQUESTS.has(event.type) && str(event.data.planId) ? str(event.data.planId) : null);

/**
 * `answered`: each plan known to wait for no person any more, with when it last changed; a request made before that
 * change was answered since. A plan Cairn does not know, or one that has not changed since the request, is kept.
 */
export function currentEvents<T>(items: readonly T[], eventOf: (item: T) => NotifiedEvent, answered: ReadonlyMap<string, number>): { keep: T[]; repeated: T[]; stale: T[] } {
  const stale: T[] = [];
  const latest = new Map<string, T>();
  for (const item of items) {
    const event = eventOf(item);
    const plan = requestedPlanOf(event);
    const changedAt = plan ? answered.get(plan) : undefined;
    if (changedAt !== undefined && changedAt >= event.occurredAt) {
      stale.push(item);
      continue;
    }
    const subject = str(event.data.planId) || str(event.data.outputId);
    const key = subject ? `${event.type} ${subject} ${str(event.data.outputId)}` : `event ${event.eventId}`;
    const seen = latest.get(key);
    if (!seen || eventOf(seen).occurredAt <= event.occurredAt) latest.set(key, item);
  }
  const kept = new Set(latest.values());
  const keep = items.filter((item) => kept.has(item));
  const repeated = items.filter((item) => !kept.has(item) && !stale.includes(item));
  return { keep, repeated, stale };
}
