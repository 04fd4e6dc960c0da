/**
 * The operator CLI's `sources …` commands: their usage, help and output. The calls are in sources.mjs
 * (through the Worker's /api/v1/sources/recheck, as an admin of the org).
 */
import * as sources from "./sources.mjs";

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 */
export function sourceCommands(emit) {
  return {
    "sources recheck": {
      usage: "sources recheck --org SLUG [--url URL]",
      summary: "re-check the sources an org's stored deliverables cite (oldest-checked first)",
      flags: ["org", "url"],
      required: ["org"],
      details: `Reads again up to 100 of the pages the org's stored deliverables cite, oldest-checked first, and looks
for each quote on the new text (the daily cron does the same; so does POST /api/v1/sources/recheck). A source
verified at delivery whose quote is gone from the page becomes "changed" ("gone" when the page is unreachable),
and research_output.sources_changed fires once per change. Counts against the org's source-check limits.
Runs through the Worker, like export: locally the server running on the same state (npm start), else a wrangler
dev started for it and kept running until the re-checks are done (or --url a running one); with --remote, the
deployment.`,
      run: async (o, t) => {
        const r = await sources.recheckSources({ org: o.org, url: o.url, ...t });
        emit(o, r, () =>
          r.queued === 0
            ? `No source of "${o.org}" is due a re-check (none cited by a stored deliverable, or all on their way).`
            : `Queued ${r.queued} source(s) of "${o.org}" for re-checking (at most ${r.batchLimit} a run; run it again for more).${
                r.waited ? ` Checked: ${r.waited.checked}${r.waited.pending ? `; still on their way: ${r.waited.pending}` : ""}.` : " Verdicts land within minutes."
              }`,
        );
      },
    },
  };
}
