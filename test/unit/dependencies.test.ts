import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The packages `src/` imports (`from "x"`, `import "x"`, `import("x")`; bare specifiers, reduced to the package name). */
function importedPackages(): Set<string> {
  const packages = new Set<string>();
  for (const file of sourceFiles("src")) {
    for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(/(?<![\w"])(?:from\s+|import\s+|import\s*\(\s*)"([^".][^"]*)"/g)) {
      const parts = specifier.split("/");
      packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? ""));
    }
  }
  return packages;
}

describe("dependencies", () => {
  it("lists as runtime dependencies exactly what the Worker imports: tools and test clients are devDependencies", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    const imported = importedPackages();
    const unused = Object.keys(manifest.dependencies).filter((name) => !imported.has(name));
    expect(unused, "runtime dependencies that src/ never imports").toEqual([]);
    // Platform modules are provided by workerd, not npm.
    const undeclared = [...imported].filter((name) => !name.startsWith("cloudflare:") && !name.startsWith("node:") && !(name in manifest.dependencies));
    expect(undeclared, "packages src/ imports without declaring them as runtime dependencies").toEqual([]);
  });
});
