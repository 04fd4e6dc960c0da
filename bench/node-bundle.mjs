/**
 * Project modules bundled by esbuild as the Worker bundles them and loaded into this Node process, for the benches
 * that time the source pipeline itself (bench:sources and its network part).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `exportLines`: `export { … } from "./src/…";` lines, paths from the project's root. */
export async function loadBundled(exportLines) {
  const result = await build({
    stdin: { contents: exportLines.join("\n"), resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`);
}
