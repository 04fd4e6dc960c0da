/** An artifact's own page: what ChatGPT's search and fetch link to for a record without a source URL. */
import type { Hono } from "hono";
import type { Artifact } from "../../domain/research/artifacts";
import { ID_PATTERN } from "../../domain/ids";
import { webServices } from "../../platform/runtime";
import { shortTime } from "./format";
import { type App, notFoundPage, render } from "./page";
import { planNameOf } from "./queries";

/** The most of an artifact's text one page shows; the rest is a REST read away. */
const SHOWN_CHARS = 100_000;

/** A link a person may follow from the page: http(s) only, anything else shown as text. */
const followable = (url: string): boolean => /^https?:\/\//i.test(url);

export function ArtifactDetail(props: { artifact: Artifact; planName: string | null }) {
  const { artifact } = props;
  const text = artifact.contentText || JSON.stringify(artifact.content, null, 2) || "";
  const cut = text.length > SHOWN_CHARS;
  return (
    <>
      <h1>{artifact.title}</h1>
      <dl class="kv card">
        <dt>Type</dt>
        <dd>{artifact.artifactType}</dd>
        <dt>Version</dt>
        <dd>{artifact.version}</dd>
        <dt>Plan</dt>
        <dd>{artifact.planId ? <a href={`/dashboard/plans/${artifact.planId}`}>{props.planName ?? artifact.planId}</a> : "—"}</dd>
        <dt>Source</dt>
        <dd>
          {artifact.sourceUrl === null ? "—" : followable(artifact.sourceUrl) ? (
            <a href={artifact.sourceUrl} rel="noopener noreferrer nofollow" target="_blank">
              {artifact.sourceUrl}
            </a>
          ) : (
            artifact.sourceUrl
          )}
        </dd>
        <dt>Tags</dt>
        <dd>{artifact.tags.length > 0 ? artifact.tags.join(", ") : "—"}</dd>
        <dt>Confidence</dt>
        <dd>{artifact.confidence === null ? "—" : artifact.confidence}</dd>
        <dt>Updated</dt>
        <dd>{shortTime(artifact.updatedAt)}</dd>
      </dl>
      <h2>Content</h2>
      <pre class="deliverable" id="artifact-content">
        {cut ? `${text.slice(0, SHOWN_CHARS)}\n…` : text}
      </pre>
      {cut ? <p class="muted">The first {SHOWN_CHARS.toLocaleString("en")} characters; the whole artifact comes from GET /api/v1/artifacts/{artifact.artifactId}.</p> : null}
    </>
  );
}

export function registerArtifactRoutes(app: Hono<App>): void {
  app.get("/artifacts/:artifactId", async (c) => {
    const artifactId = c.req.param("artifactId");
    if (!ID_PATTERN.test(artifactId)) return notFoundPage(c);
    const { orgId } = c.get("session");
    const { services, home } = await webServices(c.env, orgId);
    const artifact = await services.artifacts.get(orgId, artifactId);
    // Another org's artifact is as missing as one that never was.
    if (!artifact) return notFoundPage(c);
    const planName = await planNameOf(home, orgId, artifact.planId);
    return render(c, { title: artifact.title, section: "plans", children: <ArtifactDetail artifact={artifact} planName={planName} /> });
  });
}
