/**
 * The operator CLI's `outputs …` commands: their usage, help and output. The call is in outputs.mjs (through the
 * Worker's /api/v1/outputs/{id}/download, as an admin of the org).
 */
import * as outputs from "./outputs.mjs";

/**
 * @param {(o: Record<string, any>, value: unknown, text: () => string) => void} emit how a command prints (text, or --json)
 */
export function outputCommands(emit) {
  return {
    "outputs download": {
      usage: "outputs download OUTPUT_ID --org SLUG [--format md|html|docx|pdf] [--out FILE] [--url URL]",
      summary: "download a deliverable as Markdown, standalone HTML or Word (DOCX)",
      flags: ["org", "format", "out", "url"],
      required: ["org"],
      positionals: ["outputId"],
      details: `Writes the deliverable OUTPUT_ID of the org to FILE (default: its title as the file name, in the current
directory). --format md (the default): its Markdown with a Sources list; html: one standalone file with a print
stylesheet (open it and print, or Save as PDF); docx: a Word document. Each lists the sources it cites with
their verification status and when they were last checked. Runs through the Worker (GET
/api/v1/outputs/{id}/download): locally the server running on the same state (npm start), else a wrangler dev started for it (or --url a running one); with
--remote, the deployment.`,
      run: async (o, t) => {
        const r = await outputs.downloadOutput({ org: o.org, outputId: o.outputId, format: o.format, out: o.out, url: o.url, ...t });
        emit(o, r, () => `Wrote ${r.file} (${(r.bytes / 1024).toFixed(1)} KiB, ${r.contentType.split(";")[0]}).`);
      },
    },
  };
}
