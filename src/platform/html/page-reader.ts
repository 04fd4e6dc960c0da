import { decodeEntities } from "../../domain/research/extraction/text";
import { rulesToRead, type StyleRule, styleRules, styleSheetsOf } from "../../domain/sources/stylesheet";
import { cascade, hiddenElement, inlineDeclarations, NEVER_SHOWN_ELEMENTS, type StyleOutcome, type WeighedDeclaration } from "../../domain/sources/visibility";

/**
 * The one reader of an HTML page's visible text, over the runtime's streaming HTMLRewriter (lol-html): source checks
 * (src/platform/sources/visible-text.ts) and extract_data (src/platform/extraction/html-extractor.ts) both read
 * through it, so both see the same page. It keeps, for the handlers a caller adds:
 * - what a reader does not see (src/domain/sources/visibility.ts: never-shown elements, the `hidden` attribute, and
 *   what the element's inline style and the page's own `<style>` rules hide, weighed as a browser weighs them):
 *   `state.hidden` is above 0 while such an element is open (or an inherited `visibility: hidden` is not shown again
 *   by a descendant), so a handler drops text while it is. The stylesheet rules' selectors are the HTML parser's to
 *   match (lol-html's own matcher, natively as it streams), so only an element a rule matches calls into JavaScript.
 *   Attribute values reach us undecoded, so a style is decoded before it is judged;
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
  /** Elements a reader does not see that are open now (and 1 for an inherited `visibility: hidden`): text is visible only while this is 0. */
  readonly hidden: number;
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

/** The elements hidden whatever their style: only these call into JavaScript to be judged. */
const MAYBE_HIDDEN = [...NEVER_SHOWN_ELEMENTS, "[hidden]"].join(", ");

/** The style weighed so far for the element being started: its declarations, and what of them is applied. */
interface Styled {
  element: Element;
  declarations: WeighedDeclaration[];
  applied: StyleOutcome;
  /** Its entry in the stack of inherited visibilities, once it sets one. */
  visibility: { value: "hidden" | "visible" | null } | null;
  /** Its end tag undoes what is applied (false until asked; a void element has none and hides nothing). */
  ends: boolean;
}

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
  /** Elements open that take their content out (never shown, `hidden`, `display: none`, `content-visibility: hidden`). */
  let removed = 0;
  /** Inherited visibilities of the open elements that set one, outermost first; the innermost set one decides. */
  const visibilities: { value: "hidden" | "visible" | null }[] = [];
  let invisible = false;
  /** The element being started, once a style of it is weighed (reset as each element starts). */
  let styled: Styled | null = null;
  const state: ReaderState = {
    get hidden() {
      return removed + (invisible ? 1 : 0);
    },
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
  const refresh = () => {
    let value: "hidden" | "visible" | null = null;
    for (let i = visibilities.length - 1; i >= 0 && value === null; i--) value = visibilities[i]?.value ?? null;
    invisible = value === "hidden";
  };
  const undo = (done: Styled) => {
    if (done.applied.removes) removed = Math.max(0, removed - 1);
    if (done.visibility) {
      const at = visibilities.lastIndexOf(done.visibility);
      if (at >= 0) visibilities.splice(at, 1);
    }
    refresh();
  };
  /** Adds declarations that apply to the element being started, and applies what the cascade of all of them says. */
  const weigh = (element: Element, declarations: readonly WeighedDeclaration[]) => {
    styled ??= { element, declarations: [], applied: { removes: false, visibility: null }, visibility: null, ends: false };
    const current = styled;
    current.declarations.push(...declarations);
    const outcome = cascade(current.declarations);
    if (outcome.removes === current.applied.removes && outcome.visibility === current.applied.visibility) return;
    if (!current.ends) {
      current.ends = state.onEnd(element, () => undo(current));
      if (!current.ends) return;
    }
    if (outcome.removes !== current.applied.removes) removed += outcome.removes ? 1 : -1;
    if (outcome.visibility !== current.applied.visibility) {
      if (!current.visibility) {
        current.visibility = { value: null };
        visibilities.push(current.visibility);
      }
      current.visibility.value = outcome.visibility;
    }
    current.applied = outcome;
    refresh();
  };
  const rewriter = (rules: readonly StyleRule[]) => {
    const built = new HTMLRewriter()
      .on(TOO_DEEP_SELECTOR, {
        element() {
          state.stop(`${TOO_COMPLEX}: elements nested more than ${count(PAGE_READING_LIMITS.maxDepth)} elements deep`);
        },
      })
      .on("*", {
        // First of all handlers for every element: a new element's end-tag handlers and style start afresh.
        element() {
          ending = null;
          styled = null;
          if (++elements > PAGE_READING_LIMITS.maxElements) state.stop(`${TOO_COMPLEX}: more than ${count(PAGE_READING_LIMITS.maxElements)} elements`);
        },
      })
      .on(MAYBE_HIDDEN, {
        element(element) {
          // A void element hides nothing but itself.
          if (hiddenElement(element.tagName, { hidden: element.getAttribute("hidden") }) && state.onEnd(element, () => (removed = Math.max(0, removed - 1)))) removed++;
        },
      })
      .on("[style]", {
        element(element) {
          weigh(element, inlineDeclarations(decodeEntities(element.getAttribute("style") ?? "")));
        },
      });
    for (const rule of rules) {
      const declarations = rule.declarations.map((declaration) => ({ ...declaration, specificity: rule.specificity, order: rule.order }));
      try {
        built.on(rule.selector, {
          element(element) {
            weigh(element, declarations);
          },
        });
      } catch {
        // A selector the parser's matcher does not take: the rule is not applied (the text stays shown).
      }
    }
    return built;
  };
  const read = async (html: string, build: (rewriter: HTMLRewriter) => HTMLRewriter): Promise<HtmlReading> => {
    try {
      // Read natively to the end: piping the rewritten page through a JavaScript stream costs a call per chunk.
      await build(rewriter(rulesToRead(styleRules(styleSheetsOf(html))))).transform(new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } })).arrayBuffer();
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
