/**
 * How many deliverable files (HTML, DOCX: read back kept or rendered now) one org may have being made at once in one
 * Worker isolate. Requests of every org share an isolate's one thread, and a file holds it for its CPU time (seconds
 * for a long deliverable's first render, tens of milliseconds to read a kept one back), so without a bound one org
 * downloading many files at a time holds every other org's requests behind its own. Past the bound a download is
 * refused at once, before anything is read (not queued: a queue would hold the caller's connection, and a kept file is
 * quick to ask for again), with a time to try again; the files already being made finish and are kept. Other orgs are
 * not counted against it.
 */
export const RENDERS_PER_ORG = 2;

/** Seconds a refused download's caller is told to wait: about one long deliverable's first render. */
export const RENDER_RETRY_SECONDS = 5;

/** The renders running, per org; `admit` takes a slot or says no, the release it hands back gives the slot up (once). */
export class RenderSlots {
  readonly #running = new Map<string, number>();

  constructor(readonly perOrg: number = RENDERS_PER_ORG) {}

  /** A slot for `orgId`'s render, as the function that frees it; null when the org already runs `perOrg`. */
  admit(orgId: string): (() => void) | null {
    const running = this.#running.get(orgId) ?? 0;
    if (running >= this.perOrg) return null;
    this.#running.set(orgId, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#running.get(orgId) ?? 1) - 1;
      if (left > 0) this.#running.set(orgId, left);
      else this.#running.delete(orgId);
    };
  }

  running(orgId: string): number {
    return this.#running.get(orgId) ?? 0;
  }
}
