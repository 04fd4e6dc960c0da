/**
 * `wrangler dev`'s Browser Rendering on this machine's Chromium, with nothing downloaded.
 *
 * Miniflare simulates the BROWSER binding by starting a Chrome of one fixed version (its BROWSER_VERSION) from
 * `<cache>/.wrangler/chrome/<platform>-<version>/`, where `<cache>` is XDG_CACHE_HOME (else ~/.cache), and downloads it
 * there when it is missing; it has no setting for another executable. So the local server gets a cache directory of
 * its own (under .wrangler/ in the project) holding, at that path, a small script that starts the Chromium the browser
 * tests use (chromium.mjs: CHROMIUM_PATH, a system Chrome, or the one inside @sparticuz/chromium), with the fonts
 * below, and marked as a verified install so Miniflare never replaces it. Linux only (the bundled Chromium is Linux
 * x64; elsewhere Miniflare downloads its own Chrome on the first PDF).
 *
 * Fonts: the machine's own (fontconfig) plus Noto Sans JP from the @expo-google-fonts/noto-sans-jp devDependency, so
 * Japanese (and the Han characters it shares with Chinese) print on a machine without CJK fonts; Greek, Cyrillic,
 * Hebrew and Arabic come from the system's DejaVu. Cloudflare's browsers carry Noto CJK and more (docs/downloads.md).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findBrowser } from "./chromium.mjs";
import { projectRoot } from "./wrangler.mjs";

/** Where the local server's browser cache lives (one per checkout: npm start and the end-to-end suite share it). */
export const localBrowserCache = path.join(projectRoot, ".wrangler", "browser-cache");

/** The Chrome version Miniflare starts, read from the installed Miniflare (so an upgrade of it needs no edit here). */
export function miniflareChromeVersion() {
  const bundle = readFileSync(path.join(projectRoot, "node_modules", "miniflare", "dist", "src", "index.js"), "utf8");
  const version = /\bvar BROWSER_VERSION = "([\d.]+)"/.exec(bundle)?.[1];
  if (!version) throw new Error("The installed Miniflare names no BROWSER_VERSION: its Browser Rendering simulation changed; see scripts/lib/local-browser.mjs.");
  return version;
}

const NOTO_SANS_JP = path.join(projectRoot, "node_modules", "@expo-google-fonts", "noto-sans-jp");

function fontsConfig(dir) {
  const fontDirs = ["400Regular", "700Bold"].map((weight) => path.join(NOTO_SANS_JP, weight)).filter((d) => existsSync(d));
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    "<fontconfig>",
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    ...fontDirs.map((d) => `  <dir>${d}</dir>`),
    `  <cachedir>${path.join(dir, "fontconfig")}</cachedir>`,
    "</fontconfig>",
    "",
  ].join("\n");
}

const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

/** Writes `text` to `file` whole or not at all (two servers starting together write the same files). */
function writeWhole(file, text, mode) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, file);
}

/**
 * Prepares the cache and returns the environment `wrangler dev` needs for its Browser Rendering to start this
 * machine's Chromium (`{ XDG_CACHE_HOME }`), or `{}` when there is nothing to prepare (not Linux, or no Chromium
 * found: then say why with `reason`).
 * @returns {Promise<{ env: Record<string, string>, source?: string, executablePath?: string, reason?: string }>}
 */
export async function localBrowserEnv() {
  if (process.platform !== "linux") return { env: {}, reason: "not Linux: Miniflare downloads its own Chrome on the first PDF" };
  let browser;
  try {
    browser = await findBrowser();
  } catch (error) {
    return { env: {}, reason: error instanceof Error ? error.message : String(error) };
  }
  const platform = process.arch === "arm64" ? "linux_arm" : "linux";
  const install = path.join(localBrowserCache, ".wrangler", "chrome", `${platform}-${miniflareChromeVersion()}`);
  const executableDir = path.join(install, "chrome-linux64");
  mkdirSync(executableDir, { recursive: true });
  writeWhole(path.join(localBrowserCache, "fonts.conf"), fontsConfig(localBrowserCache), 0o644);
  const exports = { ...(browser.env ?? {}), FONTCONFIG_FILE: path.join(localBrowserCache, "fonts.conf") };
  // Chromium's sandbox refuses to run as root (containers, CI): there the page runs without it, as in the browser tests.
  const sandbox = process.getuid?.() === 0 ? " --no-sandbox" : "";
  const script = [
    "#!/bin/sh",
    "# Written by scripts/lib/local-browser.mjs: wrangler dev's Browser Rendering runs this machine's Chromium.",
    ...Object.entries(exports).map(([name, value]) => `export ${name}=${shellQuote(value)}`),
    `exec ${shellQuote(browser.executablePath)}${sandbox} "$@"`,
    "",
  ].join("\n");
  const executable = path.join(executableDir, "chrome");
  writeWhole(executable, script, 0o755);
  chmodSync(executable, 0o755);
  // Verified: Miniflare otherwise deletes an install that fails to start once, to download it again.
  writeFileSync(path.join(install, ".miniflare-install-complete"), "");
  return { env: { XDG_CACHE_HOME: localBrowserCache }, source: browser.source, executablePath: browser.executablePath };
}
