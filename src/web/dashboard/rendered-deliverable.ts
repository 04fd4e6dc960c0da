/**
 * Deliverables are rendered once per version. Versions never change, so what a version's Markdown rendered to (or
 * that it is shown as its text) is kept in the org's home database and served from then on: a deliverable shaped to
 * be slow costs its render once, not on every view. Kept under the renderer's version (a new renderer renders anew)
 * and the hash of the text; erased with the org's research.
 */
import type { ResearchOutput } from "../../domain/research/outputs";
import { d1RenderedOutputs, type RenderedMarkdown, type RenderKey } from "../../storage/rendered-outputs";
import { RENDERER_VERSION, renderForPageInParts } from "./markdown";
import { sha256Hex } from "./session";

/**
 * Renders under way in this isolate: views of one version arriving together wait for one render rather than each
 * finding nothing kept and rendering it again.
 */
const underWay = new Map<string, Promise<RenderedMarkdown>>();

/** Lets whatever else the instance has to do (other requests' I/O and timers) run before the render goes on. */
export const pauseForOthers = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** The page's Markdown of a deliverable version: kept from an earlier view, or rendered now and kept. */
export async function renderedMarkdownOf(home: D1Database, output: ResearchOutput): Promise<RenderedMarkdown> {
  const key: RenderKey = { orgId: output.orgId, outputId: output.outputId, version: output.version, renderer: RENDERER_VERSION, contentSha256: await sha256Hex(output.content) };
  const id = `${key.orgId}:${key.outputId}:${key.version}:${key.contentSha256}`;
  const pending = underWay.get(id);
  if (pending) return pending;
  const render = renderAndKeep(home, key, output.content);
  underWay.set(id, render);
  try {
    return await render;
  } finally {
    underWay.delete(id);
  }
}

async function renderAndKeep(home: D1Database, key: RenderKey, markdown: string): Promise<RenderedMarkdown> {
  const store = d1RenderedOutputs(home);
  const kept = await store.get(key);
  if (kept) return kept;
  // In parts, pausing between them: a long text's first render does not hold the instance from other orgs' requests.
  const rendered = await renderForPageInParts(markdown, pauseForOthers);
  try {
    await store.put(key, rendered, Date.now());
  } catch (error) {
    // Refused while the org is being erased (the write gate), or the database failing: the page is shown all the same.
    console.warn(JSON.stringify({ level: "warn", message: "rendered deliverable not kept", orgId: key.orgId, outputId: key.outputId, error: String(error) }));
  }
  return rendered;
}
