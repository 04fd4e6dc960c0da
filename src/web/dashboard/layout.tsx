import type { Child } from "hono/jsx";
import type { DashboardSession } from "./session";

/**
 * The dashboard's page frame: one inline stylesheet and one small inline
 * script, both carrying the request's CSP nonce. Pages are complete without
 * the script; with it, regions marked `data-live` refresh in place while a
 * plan runs (see LIVE_SCRIPT).
 */

export const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,Segoe UI,sans-serif;--line:#8884;--muted:#8889;--accent:#2d5bd7;--warn:#f5a623;--bad:#d7382d;--good:#2e9d58}
*{box-sizing:border-box}body{margin:0;background:Canvas;color:CanvasText;line-height:1.45}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
header.top .brand{font-weight:700;text-decoration:none;color:inherit;margin-right:.5rem}
nav.main{display:flex;flex-wrap:wrap;gap:.25rem}nav.main a{padding:.35rem .6rem;border-radius:6px;text-decoration:none;color:inherit}
nav.main a[aria-current=page]{background:var(--accent);color:#fff}
header.top .who{margin-left:auto;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;font-size:.9rem}
main{padding:1rem;max-width:72rem;margin:0 auto}
h1{font-size:1.4rem;margin:.3rem 0 1rem}h2{font-size:1.15rem;margin:1.6rem 0 .6rem}h3{font-size:1rem;margin:1rem 0 .4rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;opacity:.8}
.table-wrap{overflow-x:auto}
progress,meter{width:8rem;height:.8rem;vertical-align:middle}
.badge{display:inline-block;padding:.05rem .45rem;border-radius:999px;border:1px solid var(--line);font-size:.8rem;white-space:nowrap}
.badge.completed{border-color:var(--good)}.badge.failed,.badge.cancelled{border-color:var(--bad)}.badge.awaiting_review,.badge.awaiting_input,.badge.stalled,.badge.unverified{border-color:var(--warn)}
.stall{color:var(--bad);font-weight:600}
.muted{color:var(--muted);font-size:.9rem}
.card{border:1px solid var(--line);border-radius:10px;padding:.8rem 1rem;margin:.8rem 0}
.flash{background:#2e9d5822;border:1px solid var(--good);padding:.6rem;border-radius:6px}
.error{background:#d7382d22;border:1px solid var(--bad);padding:.6rem;border-radius:6px}
.warn{background:#f5a62322;border:1px solid var(--warn);padding:.6rem;border-radius:6px}
form.inline{display:inline}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin-bottom:1rem}
label{font-weight:600;font-size:.9rem}label.check{font-weight:400}
input[type=text],input[type=email],input[type=password],input[type=search],input[type=url],select,textarea{font:inherit;padding:.45rem;border:1px solid #8888;border-radius:6px;max-width:100%;background:Field;color:FieldText}
textarea{width:100%;min-height:4rem}input.wide{width:36rem}
button{font:inherit;padding:.4rem .9rem;border-radius:6px;border:1px solid #8888;cursor:pointer;background:ButtonFace;color:ButtonText}
button.primary{background:var(--accent);color:#fff;border-color:var(--accent)}button.danger{border-color:var(--bad);color:var(--bad)}
pre{white-space:pre-wrap;word-break:break-word;background:#8881;padding:.6rem;border-radius:6px;max-height:24rem;overflow:auto;font-size:.85rem}
details summary{cursor:pointer}
.diff .add{color:var(--good)}.diff .del{color:var(--bad)}.diff .chg{color:var(--warn)}
.secret{font-family:ui-monospace,monospace;font-size:1rem;padding:.6rem;border:2px dashed var(--accent);border-radius:6px;word-break:break-all;user-select:all}
pre.deliverable{white-space:pre-wrap;overflow-wrap:anywhere;font-family:inherit;line-height:1.5;border:1px solid var(--line);border-radius:10px;padding:1rem}
div.deliverable{overflow-wrap:anywhere;line-height:1.55;border:1px solid var(--line);border-radius:10px;padding:.2rem 1rem}
div.deliverable table{width:auto;max-width:100%;display:block;overflow-x:auto}div.deliverable img{max-width:100%}
div.deliverable pre{max-height:none}div.deliverable blockquote,blockquote{margin:.4rem 0;padding-left:.8rem;border-left:3px solid var(--line)}
a.ref{font-size:.85em}.badge.source-verified{border-color:var(--good)}.badge.source-not_found,.badge.source-unreachable{border-color:var(--bad)}.badge.source-partial,.badge.source-pending,.badge.source-unchecked{border-color:var(--warn)}
pre.snapshot{max-height:40rem;font-family:inherit;line-height:1.5;border:1px dashed var(--warn)}pre.snapshot mark{padding:0 .1rem;border-radius:3px}
.chart{margin:.4rem 0 1rem;max-width:48rem}.chart svg{width:100%;height:auto;display:block}.chart text{fill:currentColor;font-size:11px}
.chart .axis{stroke:var(--line)}.chart .bar,.chart .key.bar{fill:var(--accent);background:var(--accent)}.chart .part,.chart .key.part{fill:var(--bad);background:var(--bad)}.chart .track{fill:var(--line)}
.chart .key{display:inline-block;width:.8em;height:.8em;border-radius:2px;vertical-align:-.05em}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.8rem}
.stat{font-size:1.6rem;font-weight:700}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}dl.kv dt{font-weight:600}dl.kv dd{margin:0;word-break:break-word}
fieldset .field{display:grid;grid-template-columns:minmax(9rem,max-content) minmax(9rem,max-content) 10rem;gap:.2rem .8rem;align-items:center;margin:.35rem 0}
input[type=number]{font:inherit;padding:.35rem;border:1px solid #8888;border-radius:6px;max-width:100%;background:Field;color:FieldText}
.markdown.note>:first-child{margin-top:0}.markdown.note>:last-child{margin-bottom:0}.markdown.note h1,.markdown.note h2,.markdown.note h3{font-size:1rem;margin:.6rem 0 .3rem}
.markdown.note.as-text{white-space:pre-wrap}.review-presentation{margin:.4rem 0 .6rem}
ul.labelled{margin:.1rem 0;padding-left:1.1rem}ul.labelled .label{font-weight:600}
.approval-decision h2{margin:0 0 .4rem}.approval-decision ol.step-lines{margin:0;padding-left:2.2rem;max-height:17rem;overflow-y:auto;line-height:1.35}
.approval-decision textarea.short{min-height:2.3rem;height:2.3rem}.decision-buttons{margin:.4rem 0 0}.decision-buttons button{min-width:6rem}#approval-banner{margin:.4rem 0}
details.instructions{margin:.3rem 0}details.instructions p{margin:.3rem 0 .3rem 1rem}
.signin{max-width:26rem;margin:3rem auto}.signin label{display:block;margin:.7rem 0 .2rem}.signin input{width:100%}
@media (max-width:40rem){
  main{padding:.6rem}header.top .who{margin-left:0}
  table.stack thead{display:none}table.stack tr{display:block;border-bottom:1px solid var(--line);padding:.4rem 0}
  table.stack td{display:block;border:0;padding:.15rem .2rem}table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600;font-size:.85rem}
  dl.kv{grid-template-columns:1fr}progress,meter{width:100%}fieldset .field{grid-template-columns:1fr}
}
`;

/**
 * Polls a small JSON fingerprint; when it changes, fetches this page again and
 * swaps the `data-live` regions, unless the person is typing in one of them.
 */
const LIVE_SCRIPT = `(() => {
  const body = document.body;
  const url = body.dataset.liveUrl;
  if (!url || !window.fetch || !window.DOMParser) return;
  let fingerprint = body.dataset.liveFp;
  const every = Number(body.dataset.liveInterval) || 3000;
  const status = document.getElementById("live-status");
  if (status) status.textContent = "Live updates on";
  const editing = (region) => {
    const active = document.activeElement;
    if (active && region.contains(active) && active.matches("input, textarea, select")) return true;
    return Array.from(region.querySelectorAll("textarea, input[type=text]")).some((field) => field.value !== "");
  };
  let busy = false;
  async function tick() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const probe = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store", credentials: "same-origin" });
      if (!probe.ok) return;
      const { fingerprint: next } = await probe.json();
      if (next === fingerprint) return;
      const page = await fetch(location.href, { headers: { accept: "text/html" }, cache: "no-store", credentials: "same-origin" });
      if (!page.ok) return;
      // Only <main>: parsing the head's nonce'd style again would count as a CSP violation.
      const text = await page.text();
      const start = text.indexOf("<main");
      const end = text.lastIndexOf("</main>");
      if (start < 0 || end < start) return;
      const fresh = new DOMParser().parseFromString(text.slice(start, end + 7), "text/html");
      let complete = true;
      for (const region of Array.from(document.querySelectorAll("[data-live]"))) {
        const replacement = fresh.getElementById(region.id);
        if (!replacement) continue;
        if (editing(region)) { complete = false; continue; }
        region.replaceWith(document.importNode(replacement, true));
      }
      if (complete) fingerprint = next;
      if (status) status.textContent = "Updated " + new Date().toLocaleTimeString();
    } catch (error) {
      if (status) status.textContent = "Live updates paused";
    } finally {
      busy = false;
    }
  }
  setInterval(tick, every);
})();`;

export type Section = "plans" | "reviews" | "executions" | "analytics" | "notifications" | "admin";

export interface LayoutProps {
  title: string;
  nonce: string;
  session?: DashboardSession | null;
  section?: Section;
  /** JSON endpoint whose fingerprint says when the live regions changed. */
  live?: { url: string; fingerprint: string; intervalMs?: number };
  /** A public page (a share link's): no referrer at all, and not indexed. Dashboard pages keep same-origin for their forms. */
  publicPage?: boolean;
  children: Child;
}

export function Layout(props: LayoutProps) {
  const { session } = props;
  const nav: [Section, string, string][] = [
    ["plans", "Plans", "/dashboard/plans"],
    ["reviews", "Reviews", "/dashboard/reviews"],
    ["executions", "Skill executions", "/dashboard/executions"],
    ["analytics", "Analytics", "/dashboard/analytics"],
    ["notifications", "Notifications", "/dashboard/notifications"],
  ];
  if (session?.role === "admin") nav.push(["admin", "Org admin", "/dashboard/admin"]);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content={props.publicPage ? "no-referrer" : "same-origin"} />
        {props.publicPage ? <meta name="robots" content="noindex, nofollow" /> : null}
        <title>{props.title} · Cairn</title>
        <style nonce={props.nonce || undefined} dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body
        data-live-url={props.live?.url}
        data-live-fp={props.live?.fingerprint}
        data-live-interval={props.live?.intervalMs ? String(props.live.intervalMs) : undefined}
      >
        {session ? (
          <header class="top">
            <a class="brand" href="/dashboard/plans">
              Cairn
            </a>
            <nav class="main" aria-label="Dashboard">
              {nav.map(([key, text, href]) => (
                <a href={href} aria-current={props.section === key ? "page" : undefined}>
                  {text}
                </a>
              ))}
            </nav>
            <div class="who">
              {session.memberships.length > 1 ? (
                <form class="inline" method="post" action="/dashboard/org">
                  <input type="hidden" name="csrf" value={session.csrf} />
                  <select name="orgId" aria-label="Organization">
                    {session.memberships.map((m) => (
                      <option value={m.orgId} selected={m.orgId === session.orgId}>
                        {m.orgName} ({m.role})
                      </option>
                    ))}
                  </select>{" "}
                  <button type="submit">Switch</button>
                </form>
              ) : (
                <span>
                  {session.orgName} ({session.role})
                </span>
              )}
              <span class="muted">{session.email}</span>
              <form class="inline" method="post" action="/dashboard/sign-out">
                <input type="hidden" name="csrf" value={session.csrf} />
                <button type="submit">Sign out</button>
              </form>
            </div>
          </header>
        ) : null}
        <main>
          {props.children}
          {props.live ? (
            <p class="muted" id="live-status">
              This page shows the state when it was loaded; reload it to update (or enable JavaScript for live updates).
            </p>
          ) : null}
        </main>
        {props.live ? <script nonce={props.nonce} dangerouslySetInnerHTML={{ __html: LIVE_SCRIPT }} /> : null}
      </body>
    </html>
  );
}

export function Flash({ message, kind = "flash" }: { message?: string | null; kind?: "flash" | "error" | "warn" }) {
  return message ? (
    <p class={kind} role={kind === "error" ? "alert" : "status"}>
      {message}
    </p>
  ) : null;
}

/** A refused form's issues, one line each (`path: message`), under the form's error. */
export function IssueList({ id, issues }: { id: string; issues?: readonly { path: string; message: string }[] | null }) {
  return issues?.length ? (
    <ul class="error" id={id}>
      {issues.map((issue) => (
        <li>
          {issue.path}: {issue.message}
        </li>
      ))}
    </ul>
  ) : null;
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge ${status}`}>{status.replaceAll("_", " ")}</span>;
}

export function Progress({ value, id }: { value: number; id?: string }) {
  return (
    <span>
      <progress id={id} max="100" value={String(value)} aria-label={`${value}% done`}>
        {value}%
      </progress>{" "}
      <span data-progress-text>{value}%</span>
    </span>
  );
}
