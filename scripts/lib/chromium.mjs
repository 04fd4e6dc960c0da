/**
 * Which Chromium runs on this machine, found without downloading anything: for the browser tests
 * (test/support/browser.ts) and for `wrangler dev`'s Browser Rendering, which prints PDF downloads (local-browser.mjs).
 *   1. CHROMIUM_PATH, when set (it must exist);
 *   2. a Chromium or Chrome installed at the usual Linux and macOS paths;
 *   3. the Linux x64 Chromium shipped inside the @sparticuz/chromium package (a devDependency): unpacked from the
 *      package into the temp directory, with the NSS libraries the package also ships, so it needs nothing from apt.
 * CAIRN_BROWSER=bundled skips 1 and 2 (to test the bundled one where a system one exists).
 */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { projectRoot } from "./wrangler.mjs";

/** @typedef {{ executablePath: string, source: string, env?: Record<string, string> }} FoundBrowser */

export const SYSTEM_BROWSERS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/**
 * The Chromium to run: its path, where it came from (for logs), and the environment it needs (the bundled one needs
 * its libraries on the path).
 * @returns {Promise<FoundBrowser>}
 */
export async function findBrowser() {
  const bundledOnly = process.env.CAIRN_BROWSER === "bundled";
  const configured = process.env.CHROMIUM_PATH;
  if (configured && !bundledOnly) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH is ${configured}, which does not exist.`);
    return { executablePath: configured, source: "CHROMIUM_PATH" };
  }
  const installed = bundledOnly ? undefined : SYSTEM_BROWSERS.find((path) => existsSync(path));
  if (installed) return { executablePath: installed, source: "system" };
  if (process.platform === "linux" && process.arch === "x64") {
    const { default: chromium, inflate } = await import("@sparticuz/chromium");
    const executablePath = await chromium.executablePath();
    // The package unpacks its NSS libraries only on AWS Lambda; elsewhere we do it, once per temp directory.
    const libraries = join(tmpdir(), "al2023", "lib");
    if (!existsSync(join(libraries, "libnss3.so"))) {
      await inflate(join(projectRoot, "node_modules", "@sparticuz", "chromium", "bin", "al2023.tar.br"));
    }
    const libraryPath = [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter);
    return { executablePath, source: "@sparticuz/chromium", env: { LD_LIBRARY_PATH: libraryPath } };
  }
  throw new Error(
    "No Chromium found for the browser tests. Install Chrome or Chromium (macOS: Google Chrome in /Applications; " +
      "Debian/Ubuntu: apt-get install chromium), or set CHROMIUM_PATH to one.",
  );
}
