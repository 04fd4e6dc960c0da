/** The org's records beside its plans: skill executions, deliverables (the page ChatGPT's search links to), analytics. */
import { changesSincePreviousRun } from "../../operations/get-research-output";
import type { Hono } from "hono";
import { ID_PATTERN } from "../../domain/ids";
import { decodeCursor, toPage } from "../../domain/pagination";
import { SKILL_EXECUTION_STATUSES, type SkillExecutionStatus } from "../../domain/skill-executions";
import { homeDatabase } from "../../platform/org-homes";
import { webServices } from "../../platform/runtime";
import { Analytics, WINDOWS, type WindowKey } from "./analytics";
import { budgetStats, callsPerDay, plansPerDay } from "./analytics-series";
import { fillDays } from "./chart-geometry";
import { DeliverablePage } from "./deliverable";
import { type App, DASHBOARD_CLIENT, dashboardPrincipal, type DashContext, flashFor, notFoundPage, render } from "./page";
import { ExecutionDetail, ExecutionsList } from "./executions";
import { feedbackFor, listMembers, planNameOf, routingAccuracy, stallStats, toolCallStats } from "./queries";
import { renderedMarkdownOf } from "./rendered-deliverable";
import { citedSourcesOf } from "./source-routes";
import { DOWNLOAD_FORMATS, type DownloadFormat } from "../../domain/research/downloads";
import { downloadFor, downloadResponse } from "../downloads";
import { createShare, revokeShare, type ShareActor, sharesOfOutput } from "../../platform/shares";
import { ShareCreated, ShareLinks } from "./share-links";
import { listComments } from "../../platform/comments";
import { CommentsSection } from "./comments";

/** The person signed in, as the share rules see them. */
const actorOf = (c: DashContext): ShareActor => {
  const { orgId, userId, role } = c.get("session");
  return { orgId, userId, role, clientId: DASHBOARD_CLIENT };
};

export function registerRecordRoutes(app: Hono<App>): void {
  // ---------------------------------------------------------------------------
  // Skill executions

  const EXECUTIONS_PAGE = 50;

  app.get("/executions", async (c) => {
    const { orgId } = c.get("session");
    const { services } = await webServices(c.env, orgId);
    const requested = c.req.query("status") ?? "all";
    const status = (SKILL_EXECUTION_STATUSES as readonly string[]).includes(requested) ? (requested as SkillExecutionStatus) : undefined;
    const cursor = c.req.query("cursor");
    const rows = await services.skillExecutions.list(orgId, {
      status,
      after: cursor ? decodeCursor(cursor) : undefined,
      limit: EXECUTIONS_PAGE + 1,
    });
    const page = toPage(rows, EXECUTIONS_PAGE, (row) => ({ createdAt: row.createdAt, id: row.executionId }));
    return render(c, {
      title: "Skill executions",
      section: "executions",
      children: <ExecutionsList executions={page.items} status={status ?? "all"} nextCursor={page.nextCursor} />,
    });
  });

  app.get("/executions/:executionId", async (c) => {
    const executionId = c.req.param("executionId");
    if (!ID_PATTERN.test(executionId)) return notFoundPage(c);
    const { orgId } = c.get("session");
    const { services, home } = await webServices(c.env, orgId);
    const execution = await services.skillExecutions.get(orgId, executionId);
    if (!execution) return notFoundPage(c);
    const [feedback, planName] = await Promise.all([
      feedbackFor(home, orgId, executionId, execution.planId),
      planNameOf(home, orgId, execution.planId),
    ]);
    return render(c, {
      title: "Skill execution",
      section: "executions",
      children: <ExecutionDetail execution={execution} feedback={feedback} planName={planName} />,
    });
  });

  // ---------------------------------------------------------------------------
  // Deliverables (the page ChatGPT's search and fetch link to)

  app.get("/outputs/:outputId", async (c) => {
    const outputId = c.req.param("outputId");
    if (!ID_PATTERN.test(outputId)) return notFoundPage(c);
    const { orgId } = c.get("session");
    const { services, home, now } = await webServices(c.env, orgId);
    const output = await services.outputs.get(orgId, outputId);
    if (!output) return notFoundPage(c);
    // The output is read once, here: its share links are listed for it, not looked up again (listShares reads it to check it exists).
    const [rendered, planName, members, cited, sourceCounts, changes, shares, sharing, comments] = await Promise.all([
      output.mediaType === "markdown" ? renderedMarkdownOf(home, output) : null,
      planNameOf(home, orgId, output.planId),
      listMembers(c.env.DB, orgId),
      citedSourcesOf(services, orgId, output),
      services.outputs.sourceCounts(orgId, output.outputId, output.version),
      changesSincePreviousRun({ principal: { orgId }, services }, output),
      sharesOfOutput(c.env.DB, orgId, output.outputId, now()),
      services.orgSettings.sharing(orgId),
      listComments(c.env, orgId, { kind: "output", outputId: output.outputId }),
    ]);
    const session = c.get("session");
    const author = members.find((m) => m.userId === output.createdBy);
    return render(c, {
      title: output.title,
      section: "plans",
      children: (
        <DeliverablePage
          output={output}
          rendered={rendered}
          planName={planName}
          author={author ? author.email : "a former member"}
          hrefOf={cited.hrefOf}
          sources={cited.sources}
          sourceCounts={sourceCounts}
          changes={changes}
          flash={flashFor(c)}
        >
          <CommentsSection action={`/dashboard/outputs/${output.outputId}/comments`} comments={comments.comments} csrf={session.csrf} id="comments" heading="Comments" />
          <ShareLinks outputId={output.outputId} shares={shares.shares} sharing={sharing} role={session.role} csrf={session.csrf} />
        </DeliverablePage>
      ),
    });
  });

  // The deliverable as a file (Markdown, standalone HTML, DOCX, PDF): the same files as REST's /outputs/{id}/download.
  app.get("/outputs/:outputId/download", async (c) => {
    const outputId = c.req.param("outputId");
    const format = c.req.query("format") ?? "";
    if (!ID_PATTERN.test(outputId) || !(DOWNLOAD_FORMATS as readonly string[]).includes(format)) return notFoundPage(c);
    const { orgId } = c.get("session");
    const { services, home, now } = await webServices(c.env, orgId);
    const download = await downloadFor(services, home, orgId, outputId, format as DownloadFormat, now(), c.env.BROWSER);
    return download ? downloadResponse(download) : notFoundPage(c);
  });

  app.post("/outputs/:outputId/shares", async (c) => {
    const outputId = c.req.param("outputId");
    if (!ID_PATTERN.test(outputId)) return notFoundPage(c);
    const raw = String(c.get("form").get("days") ?? "").trim();
    // The form's number as the API's field: anything but digits reaches the same rule as a bad expiresInDays.
    const days = /^\d{1,4}$/.test(raw) ? Number(raw) : raw;
    const created = await createShare(c.env, actorOf(c), dashboardPrincipal(c.get("session")), outputId, raw === "" ? {} : { expiresInDays: days });
    const { services } = await webServices(c.env, c.get("session").orgId);
    const output = await services.outputs.get(c.get("session").orgId, outputId);
    return render(c, { title: "Share link created", section: "plans", children: <ShareCreated outputId={outputId} title={output?.title ?? "The deliverable"} {...created} /> }, 201);
  });

  app.post("/outputs/:outputId/shares/:shareId/revoke", async (c) => {
    const outputId = c.req.param("outputId");
    const shareId = c.req.param("shareId");
    if (!ID_PATTERN.test(outputId) || !ID_PATTERN.test(shareId)) return notFoundPage(c);
    await revokeShare(c.env, actorOf(c), outputId, shareId);
    return c.redirect(`/dashboard/outputs/${outputId}?done=share_revoked#share-links`, 303);
  });

  // ---------------------------------------------------------------------------
  // Analytics

  app.get("/analytics", async (c) => {
    const { orgId } = c.get("session");
    const requested = c.req.query("window") ?? "7d";
    // Own keys only: `in` would also accept "toString", "constructor" and the rest of Object.prototype.
    const window: WindowKey = Object.hasOwn(WINDOWS, requested) ? (requested as WindowKey) : "7d";
    const now = Date.now();
    const since = now - WINDOWS[window] * 86_400_000;
    // Research figures come from the org's home database; tool calls from the directory's log.
    const home = await homeDatabase(c.env, orgId);
    const [routing, stalls, calls, callDays, planDays, budgets] = await Promise.all([
      routingAccuracy(home, orgId, since),
      stallStats(home, orgId, since),
      toolCallStats(c.env.DB, orgId, since),
      callsPerDay(c.env.DB, orgId, since),
      plansPerDay(home, orgId, since),
      budgetStats(home, orgId, since),
    ]);
    return render(c, {
      title: "Analytics",
      section: "analytics",
      children: (
        <Analytics
          window={window}
          routing={routing}
          stalls={stalls}
          budgets={budgets}
          calls={calls}
          callsByDay={fillDays(callDays, since, now, 2)}
          plansByDay={fillDays(planDays, since, now, 2)}
        />
      ),
    });
  });
}
