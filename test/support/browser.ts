import type { Locator, Page } from "playwright-core";
import { findBrowser as findChromium } from "../../scripts/lib/chromium.mjs";

/** Whether an element lies wholly inside the viewport as the page opened, without scrolling (no screenshot needed). */
export async function withinViewport(page: Page, locator: Locator): Promise<boolean> {
  const viewport = page.viewportSize();
  const box = await locator.boundingBox();
  const scrolled = (await page.evaluate("window.scrollY")) as number;
  if (!viewport || !box || scrolled !== 0) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
}

/** Which Chromium the browser tests drive, found without downloading anything (scripts/lib/chromium.mjs says how). */
export interface FoundBrowser {
  executablePath: string;
  /** Where it came from, for the test log. */
  source: string;
  /** Environment for the browser process (the bundled one needs its libraries on the path). */
  env?: Record<string, string>;
}

export const findBrowser: () => Promise<FoundBrowser> = findChromium;
