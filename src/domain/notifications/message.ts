import type { NotificationEventType } from "./policy";
import { NOTIFICATION_LIMITS } from "./policy";

/**
 * What a person reads: one event (or a digest of several) as an e-mail (subject, plain text, HTML) and as a
 * Slack-compatible message (`{ text, blocks }`, which Mattermost and Discord's Slack endpoint also read).
 * Plan names, questions and URLs were written by assistants or found on pages: they are data, escaped on
 * every face, clipped, and never the link itself (the link is built from ids and Cairn's own origin).
 */

export interface NotifiedEvent {
  eventId: string;
  type: NotificationEventType;
  occurredAt: number;
  data: Record<string, unknown>;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  slack: { text: string; blocks: unknown[] };
  /** Where the person acts, on the dashboard. */
  link: string;
}

const NAME_CHARS = 120;

const str = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);
/** One line, no control characters, clipped: safe in a subject and a list item. */
const oneLine = (value: string, max = NAME_CHARS): string => {
  const flat = value.replace(/\p{Cc}+/gu, " ").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export const escapeHtml = (value: string): string => value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
/** Slack mrkdwn's three control characters; the rest is shown as written. */
export const escapeSlack = (value: string): string => value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** The dashboard page where the person acts: the deliverable for a changed source, else the plan. */
export function dashboardLink(origin: string, event: NotifiedEvent): string {
  const base = origin.replace(/\/$/, "");
  const outputId = str(event.data.outputId);
  if ((event.type === "research_output.sources_changed" || event.type === "comment.created") && outputId && ID.test(outputId)) return `${base}/dashboard/outputs/${outputId}`;
  const planId = str(event.data.planId);
  if (planId && ID.test(planId)) return `${base}/dashboard/plans/${planId}`;
  return `${base}/dashboard/plans`;
}

/** The subject of the plan or deliverable concerned, as a person recognises it. */
function subjectName(event: NotifiedEvent): string {
  return oneLine(str(event.data.name) ?? str(event.data.title) ?? str(event.data.researchQuestion) ?? str(event.data.planId) ?? str(event.data.outputId) ?? "a plan");
}

/** One sentence for the event: what happened and what the person is asked to do. */
export function headline(event: NotifiedEvent): string {
  const name = `“${subjectName(event)}”`;
  switch (event.type) {
    case "plan.review_requested":
      return `A review is waiting for you on ${name}: the plan continues when a person answers.`;
    case "plan.approval_requested":
      return `The plan ${name} waits for your approval before its first step.`;
    case "plan.stalled":
      return `The plan ${name} has stalled: a step has gone too long without progress.`;
    case "plan.completed":
      return `The plan ${name} is complete.`;
    case "research_output.sources_changed": {
      const source = event.data.source as { url?: unknown; change?: unknown } | undefined;
      const url = str(source?.url);
      return `A source of the deliverable ${name} ${source?.change === "gone" ? "is gone" : "has changed"}${url ? ` (${oneLine(url, 200)})` : ""}: check the claims that rest on it.`;
    }
    case "plan.scheduled_run_due":
      return `The next scheduled run of ${name} is due and waits for an assistant to start it.`;
    case "review.assigned":
      return `A review on ${name} was assigned to you: the plan continues when you (or another person) answer it.`;
    case "comment.created":
      return `You were mentioned in a comment on ${name}.`;
  }
}

const SUBJECTS: Record<NotificationEventType, string> = {
  "plan.review_requested": "Review waiting",
  "plan.approval_requested": "Approval waiting",
  "plan.stalled": "Plan stalled",
  "plan.completed": "Plan complete",
  "research_output.sources_changed": "Sources changed",
  "plan.scheduled_run_due": "Scheduled run due",
  "review.assigned": "Review assigned to you",
  "comment.created": "Mentioned in a comment",
};

const FOOTER = "You receive this because of your Cairn notification settings or your organization's channels.";

/** One event as every channel shows it. */
export function renderEvent(event: NotifiedEvent, origin: string, settingsLink: string): RenderedMessage {
  const link = dashboardLink(origin, event);
  const line = headline(event);
  const subject = `[Cairn] ${SUBJECTS[event.type]}: ${subjectName(event)}`;
  const text = `${line}\n\nOpen it: ${link}\n\n${FOOTER}\nChange what reaches you: ${settingsLink}\n`;
  const html = `<!doctype html><html><body><p>${escapeHtml(line)}</p><p><a href="${escapeHtml(link)}">Open it on the dashboard</a></p><p style="color:#666;font-size:12px">${escapeHtml(FOOTER)} <a href="${escapeHtml(settingsLink)}">Change what reaches you</a>.</p></body></html>`;
  const slackText = `${escapeSlack(line)} <${link}|Open it on the dashboard>`;
  const blocks = [
    { type: "section", text: { type: "mrkdwn", text: `*${escapeSlack(SUBJECTS[event.type])}*\n${escapeSlack(line)}` } },
    { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open on the dashboard" }, url: link }] },
  ];
  return { subject, text, html, slack: { text: slackText, blocks }, link };
}

/** Several events for one recipient, gathered in one window: one message listing them, each with its link. */
export function renderDigest(events: readonly NotifiedEvent[], origin: string, settingsLink: string): RenderedMessage {
  if (events.length === 1 && events[0]) return renderEvent(events[0], origin, settingsLink);
  const shown = events.slice(0, NOTIFICATION_LIMITS.digestItems);
  const more = events.length - shown.length;
  const items = shown.map((event) => ({ line: headline(event), link: dashboardLink(origin, event) }));
  const link = `${origin.replace(/\/$/, "")}/dashboard/reviews`;
  const moreLine = more > 0 ? `…and ${more} more.` : "";
  const subject = `[Cairn] ${events.length} updates`;
  const text = `${events.length} updates since the last message:\n\n${items.map((item) => `- ${item.line}\n  ${item.link}`).join("\n")}\n${moreLine ? `${moreLine}\n` : ""}\nAll reviews waiting: ${link}\n\n${FOOTER}\nChange what reaches you: ${settingsLink}\n`;
  const html = `<!doctype html><html><body><p>${events.length} updates since the last message:</p><ul>${items.map((item) => `<li>${escapeHtml(item.line)} <a href="${escapeHtml(item.link)}">Open</a></li>`).join("")}</ul>${moreLine ? `<p>${moreLine}</p>` : ""}<p><a href="${escapeHtml(link)}">All reviews waiting</a></p><p style="color:#666;font-size:12px">${escapeHtml(FOOTER)} <a href="${escapeHtml(settingsLink)}">Change what reaches you</a>.</p></body></html>`;
  const slackLines = items.map((item) => `• ${escapeSlack(item.line)} <${item.link}|Open>`);
  const slackText = `${events.length} updates from Cairn:\n${slackLines.join("\n")}${moreLine ? `\n${moreLine}` : ""}`;
  const blocks = [{ type: "section", text: { type: "mrkdwn", text: slackText.slice(0, 2_900) } }];
  return { subject, text, html, slack: { text: slackText, blocks }, link };
}
