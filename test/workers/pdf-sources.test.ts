import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { PDF_LIMITS, pdfText } from "../../src/platform/sources/pdf-text";
import { buildPdf, buildPdfWithStream, deflate, wrapLines } from "../support/pdf-builder";
import { createPlan, ok, steps } from "../support/plans";
import { waitFor } from "../support/webhooks";
import { seedTenant } from "../support/worker";

/**
 * PDF sources on workerd: the consumer fetches a PDF from the loopback fixtures (test/support/source-pages.global.ts),
 * reads its text layer with unpdf (PDF.js for serverless runtimes) and checks the quote as for any page.
 */
const origin = inject("sourcePagesOrigin");
const page = (path: string) => `${origin}${path}`;

interface Verification {
  status: string;
  reason?: string;
  titleMismatch?: boolean;
}

async function settled(key: string, planId: string): Promise<{ ref: string; verification: Verification }[]> {
  return waitFor("the source checks", async () => {
    const { evidence } = (await ok(key, "get_evidence_ledger", { planId, limit: 50, detail: "full" })) as { evidence: { ref: string; verification: Verification }[] };
    return evidence.every((e) => e.verification.status !== "pending") ? evidence : null;
  });
}

const source = (path: string, quote: string, title: string) => ({ url: page(path), title, facts: `What ${path} says`, subtopic: "Survey", quote });

/**
 * Wall-clock milliseconds of `run`. workerd advances its clock only at I/O, so the clock is read after a
 * request to the fixture server on each side (loopback: well under a millisecond of the figure).
 */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const clock = async () => {
    await (await fetch(`${origin}/hits`)).arrayBuffer();
    return Date.now();
  };
  const start = await clock();
  const value = await run();
  return { value, ms: (await clock()) - start };
}

describe("PDF sources", () => {
  it("reads at most PDF_LIMITS.maxPages pages, and measures the time per page on workerd", async () => {
    const filler = "The committee reviewed regional employment data, programme costs and the comparison groups used in earlier evaluations. ";
    const pages = (count: number) =>
      buildPdf(Array.from({ length: count }, (_, i) => ({ lines: wrapLines(`Page ${i + 1}. ${filler.repeat(20)}`) })), `A report of ${count} pages`);
    // The first PDF an isolate reads loads PDF.js (the dynamic import). Under the test runner that includes fetching and
    // transforming the module, which a deployed bundle does not do: bench:sources measures the load in a fresh process.
    const first = await timed(() => pdfText(pages(1)));
    const rows: string[] = [`first PDF in the test isolate (module load under the test runner), 1 page: ${first.ms} ms`];
    for (const count of [1, 10, 50]) {
      const bytes = pages(count);
      const { value, ms } = await timed(() => pdfText(bytes));
      if (!("text" in value)) throw new Error(`not read: ${value.unchecked}`);
      expect(value.text).toContain(`Page ${count}. The committee`);
      rows.push(`${count} pages (${(bytes.byteLength / 1024).toFixed(0)} KiB, ${value.text.length} chars): ${ms} ms, ${(ms / count).toFixed(1)} ms/page`);
    }
    console.log(`PDF text on workerd (wall clock):\n${rows.join("\n")}`);

    const { value: long, ms } = await timed(() => pdfText(pages(PDF_LIMITS.maxPages + 5)));
    console.log(`${PDF_LIMITS.maxPages + 5} pages, ${PDF_LIMITS.maxPages} read: ${ms} ms`);
    if (!("text" in long)) throw new Error(`not read: ${long.unchecked}`);
    expect(long.text).toContain(`Page ${PDF_LIMITS.maxPages}. The committee`);
    expect(long.text).not.toContain(`Page ${PDF_LIMITS.maxPages + 1}. The committee`);
  });

  it("verifies a quote in a PDF's text layer, reports one it lacks as not_found, and takes the title from its metadata", async () => {
    const { apiKey, orgId } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Household survey", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [
        source("/paper.pdf", "The survey covered 1,204 households in 2025.", "Household Survey 2025"),
        source("/paper.pdf?absent", "The survey covered 3,500 households in 2024 and found no rural gap.", "Household Survey 2025"),
        source("/report.pdf", "the programme reduced youth unemployment by 4.2 percentage points", "Youth Employment Programme: Final Report"),
        source("/paper.pdf?wrong-title", "Response rates were highest in rural districts", "Quarterly tax guidance for freelancers"),
        source("/download", "the programme reduced youth unemployment by 4.2 percentage points", "Youth Employment Programme: Final Report"),
      ],
    });
    const evidence = await settled(apiKey, planId);
    // The last is a PDF served as application/octet-stream: read as the PDF it opens as.
    expect(evidence.map((e) => e.verification.status)).toEqual(["verified", "not_found", "verified", "verified", "verified"]);
    expect(evidence[0]?.verification.titleMismatch).toBeUndefined();
    expect(evidence[3]?.verification.titleMismatch).toBe(true);

    // The snapshot keeps the PDF's text and its metadata title, under the org, like any page's.
    const row = await env.DB.prepare("SELECT verification_snapshot AS sha FROM ledger_evidence WHERE org_id = ? AND plan_id = ? AND n = 1").bind(orgId, planId).first<{ sha: string }>();
    const snapshot = (await (await env.SOURCE_SNAPSHOTS.get(`orgs/${orgId}/snapshots/${row?.sha}.json`))?.json()) as { title: string; contentType: string; text: string };
    expect(snapshot).toMatchObject({ title: "Household Survey 2025", contentType: "application/pdf" });
    expect(snapshot.text).toContain("The survey covered 1,204 households in 2025.");
  });

  it("leaves a PDF it cannot read unchecked, saying why: a damaged file, and scanned pages with no text layer", async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Household survey", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [source("/corrupt.pdf", "The survey covered 1,204 households in 2025.", "Survey paper"), source("/scanned.pdf", "The survey covered 1,204 households in 2025.", "Scanned survey")],
    });
    const [corrupt, scanned] = await settled(apiKey, planId);
    expect(corrupt?.verification).toMatchObject({ status: "unchecked", reason: expect.stringMatching(/^PDF could not be read: it (is not a valid PDF|is damaged)/) });
    // The words are in the damaged file's bytes, but not as a PDF's text: never verified from raw bytes.
    expect(scanned?.verification).toMatchObject({ status: "unchecked", reason: "PDF has no text layer (scanned or image-only pages): its text cannot be read without OCR" });
  });

  it("does not expand a decompression bomb (100 MiB of spaces in a 100 KiB PDF) nor read an encrypted PDF: unchecked, saying why", async () => {
    const bomb = buildPdfWithStream("/Filter /FlateDecode", await deflate(new Uint8Array(100 * 1024 * 1024).fill(0x20)));
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    const { value, ms } = await timed(() => pdfText(bomb));
    expect(value).toEqual({ unchecked: "PDF expands beyond 32 MiB when decompressed: not read" });
    console.log(`decompression bomb measured and refused in ${ms} ms`);

    // An ordinary compressed page is measured and read.
    const text = `BT /F1 11 Tf 14 TL 72 740 Td ${"(The survey covered 1,204 households in 2025.) Tj T* ".repeat(40)}ET`;
    const compressed = buildPdfWithStream("/Filter /FlateDecode", await deflate(Uint8Array.from(text, (c) => c.charCodeAt(0))));
    const read = await pdfText(compressed);
    expect("text" in read && read.text).toContain("The survey covered 1,204 households in 2025.");
    // An encrypted file is not measured, so not read.
    expect(await pdfText(buildPdfWithStream("", Uint8Array.from("BT ET", (c) => c.charCodeAt(0)), "/Encrypt 9 0 R "))).toEqual({ unchecked: "PDF is encrypted: Cairn does not read encrypted PDFs" });
    // A file whose expansion cannot be measured is not read either, saying why.
    expect(await pdfText(buildPdfWithStream("/Filter /BrotliDecode", Uint8Array.from("BT ET", (c) => c.charCodeAt(0))))).toEqual({
      unchecked: "PDF not read: a stream uses the Brotli filter, which Cairn does not measure, so how far it expands when decompressed is not known",
    });
  });

  it("leaves a PDF whose Flate layers stack into a 400 MiB bomb unchecked, through the real queue, and reads the next PDF", { timeout: 120_000 }, async () => {
    const { apiKey } = await seedTenant();
    const { planId } = await createPlan(apiKey, { name: "[Deep] Household survey", steps: steps("analyze", "search", "synthesize"), citationPolicy: "report" });
    // Each bomb's page says the quote after the bomb's stream: a reader that decoded the bomb would verify it.
    await ok(apiKey, "record_evidence", {
      planId,
      evidence: [source("/bomb-2.pdf", "The survey covered 1,204 households in 2025.", "Survey paper"), source("/bomb-3.pdf", "The survey covered 1,204 households in 2025.", "Survey paper")],
    });
    const bombs = await settled(apiKey, planId);
    for (const bomb of bombs) expect(bomb.verification).toEqual({ status: "unchecked", reason: "PDF expands beyond 32 MiB when decompressed: not read" });
    // The isolate is alive and reads PDFs after them.
    await ok(apiKey, "record_evidence", { planId, evidence: [source("/paper.pdf?after-bombs", "The survey covered 1,204 households in 2025.", "Household Survey 2025")] });
    const after = await settled(apiKey, planId);
    expect(after.map((e) => e.verification.status)).toEqual(["unchecked", "unchecked", "verified"]);
  });
});
