import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { findBrowser } from "../support/browser";

const run = promisify(execFile);
const saved = { CHROMIUM_PATH: process.env.CHROMIUM_PATH, CAIRN_BROWSER: process.env.CAIRN_BROWSER };

describe("the browser tests find a Chromium without apt or a download", () => {
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("CHROMIUM_PATH wins when set, and a wrong one is a clear error", async () => {
    process.env.CHROMIUM_PATH = process.execPath;
    expect(await findBrowser()).toEqual({ executablePath: process.execPath, source: "CHROMIUM_PATH" });
    process.env.CHROMIUM_PATH = "/nowhere/chromium";
    await expect(findBrowser()).rejects.toThrow("CHROMIUM_PATH is /nowhere/chromium, which does not exist.");
  });

  it.runIf(process.platform === "linux" && process.arch === "x64")(
    "the Chromium inside the npm package starts with only the libraries it ships beside the C runtime",
    async () => {
      process.env.CAIRN_BROWSER = "bundled";
      const browser = await findBrowser();
      expect(browser.source).toBe("@sparticuz/chromium");
      const libraries = browser.env?.LD_LIBRARY_PATH?.split(":")[0] ?? "";
      expect(existsSync(join(libraries, "libnss3.so"))).toBe(true);
      const { stdout } = await run(browser.executablePath, ["--version"], { env: { ...process.env, ...browser.env } });
      expect(stdout).toMatch(/^Chromium \d+\./);
    },
    60_000,
  );
});
