import { decodeEntities } from "../../domain/research/extraction/text";
import { hiddenElement, NEVER_SHOWN_ELEMENTS } from "../../domain/sources/visibility";

/**
 * The one reader of an HTML page's visible text, over the runtime's streaming HTMLRewriter (lol-html): source checks
 * (src/platform/sources/visible-text.ts) and extract_data (src/platform/extraction/html-extractor.ts) both read
 * through it, so both see the same page. It keeps, for the handlers a caller adds:
 * - what a reader does not see (src/domain/sources/visibility.ts: never-shown elements, the `hidden` attribute,
 *   aria-hidden, an inline style that hides): `state.hidden` counts such elements open, so a handler drops text
 *   while it is above 0. Attribute values reach us undecoded, so a style is decoded before it is judged;
 * - bounds, so a hostile page costs bounded CPU and memory: every element is counted (each costs a call into
 *   JavaScript, far more than the parsing around it), and nesting is bounded by a selector that matches only an
 *   element that deep (no call at all before then);
 * - every way the parse can fail on the page's content (a bound, the parser's own memory limit, an error a handler
 *   threw, which HTMLRewriter re-throws without its class or message): the read never throws, it says why it stopped.
 */

export const PAGE_READING_LIMITS = {
  /**
   * Elements read (every start tag). A long article has a few thousand. Each element costs a call into JavaScript
   * and its text about two more (some 16 µs a call measured on workerd in the tests, far more than the parsing
   * around it), so reading stays within a few seconds of CPU whatever the page.
   */
  maxElements: 50_000,
  /**
   * Elements open at once. lol-html closes nothing implicitly, so an unclosed `<p>`, `<li>` or `<td>` stays open
   * and counts; a parser stack this deep costs little, and the parser gives up on its own far deeper still.
   */
  maxDepth: 1_024,
} as const;

export interface ReaderState {
  /** Elements a reader does not see that are open now: text is visible only while this is 0. */
  hidden: number;
  /** Ends the read with a reason a person understands (a handler's own bound). Throws, so the parse stops. */
  stop(reason: string): never;
  /**
   * Runs `handler` at the element's end tag; false for an element without one (void or self-closing). Use this,
   * never `element.onEndTag`: the runtime keeps only the last end-tag handler an element is given, so every
   * handler of one element is gathered here behind a single one.
   */
  onEnd(element: Element, handler: () => void): boolean;
}

export interface HtmlReading {
  /** Why the read stopped before the end of the page, or null when it read all of it. */
  stopped: string | null;
}

const count = (n: number) => n.toLocaleString("en-US");
const TOO_COMPLEX = "the page is too complex to read";

/** The elements the visibility rule may hide: only these call into JavaScript to be judged. */
const MAYBE_HIDDEN = [...NEVER_SHOWN_ELEMENTS, "[hidden]", "[aria-hidden]", "[style]"].join(", ");

/** Matches an element with `maxDepth` ancestors: the first one nested deeper than the bound. */
const TOO_DEEP_SELECTOR = `*${" > *".repeat(PAGE_READING_LIMITS.maxDepth)}`;

export interface PageReader {
  /** The state the caller's handlers read and use. */
  state: ReaderState;
  /**
   * Reads `html` with the handlers `build` adds to a rewriter that already keeps the shared state and bounds
   * (its handlers run first for each element). Resolves when the page is read or the read stopped; never
   * rejects on what the page holds. Once per reader.
   */
  read(html: string, build: (rewriter: HTMLRewriter) => HTMLRewriter): Promise<HtmlReading>;
}

/** A reader for one page. */
export function pageReader(): PageReader {
  let stopped: string | null = null;
  let elements = 0;
  /** The end-tag handlers of the element being started (reset as each element starts), run by its one end-tag handler. */
  let ending: (() => void)[] | null = null;
  const state: ReaderState = {
    hidden: 0,
    onEnd(element, handler) {
      if (ending) {
        ending.push(handler);
        return true;
      }
      const handlers = [handler];
      try {
        element.onEndTag(() => {
          for (const run of handlers) run();
        });
      } catch {
        // No end tag to wait for: the state it would close is closed by what comes next, or at the end.
        return false;
      }
      ending = handlers;
      return true;
    },
    stop(reason: string): never {
      stopped ??= reason;
      // HTMLRewriter re-throws this without its class or message: `stopped` is how it is recognised.
      throw new Error(`cairn: page reading stopped: ${reason}`);
    },
  };
  const rewriter = () => new HTMLRewriter()
    .on(TOO_DEEP_SELECTOR, {
      element() {
        state.stop(`${TOO_COMPLEX}: elements nested more than ${count(PAGE_READING_LIMITS.maxDepth)} elements deep`);
      },
    })
    .on("*", {
      // First of all handlers for every element: a new element's end-tag handlers start afresh.
      element() {
        ending = null;
        if (++elements > PAGE_READING_LIMITS.maxElements) state.stop(`${TOO_COMPLEX}: more than ${count(PAGE_READING_LIMITS.maxElements)} elements`);
      },
    })
    .on(MAYBE_HIDDEN, {
      element(element) {
        const style = element.getAttribute("style");
        const hidden = hiddenElement(element.tagName, {
          hidden: element.getAttribute("hidden"),
          ariaHidden: element.getAttribute("aria-hidden"),
          style: style === null ? null : decodeEntities(style),
        });
        // A void element hides nothing but itself.
        if (
          hidden &&
          state.onEnd(element, () => {
            state.hidden = Math.max(0, state.hidden - 1);
          })
        )
          state.hidden++;
      },
    });
  const read = async (html: string, build: (rewriter: HTMLRewriter) => HTMLRewriter): Promise<HtmlReading> => {
    try {
      // Read natively to the end: piping the rewritten page through a JavaScript stream costs a call per chunk.
      await build(rewriter()).transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } })).arrayBuffer();
      return { stopped: null };
    } catch (error) {
      if (stopped !== null) return { stopped };
      const message = String(error);
      if (/memory limit has been exceeded/i.test(message)) return { stopped: `${TOO_COMPLEX}: the HTML parser ran out of memory (nesting or attributes beyond its limit)` };
      // A handler failed on what the page holds: the page is still not read, and the read says so rather than throwing.
      return { stopped: `the page could not be read as HTML (${message.slice(0, 200)})` };
    }
  };
  return { state, read };
}
