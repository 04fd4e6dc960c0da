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

  // npm 11 runs a dependency's install script only when package.json's allowScripts approves it, and warns
  // about every one it has no entry for. This is `npm install-scripts ls` read from the lockfile: every package
  // with an install script is approved (the ones the project needs: the shipped Node, workerd, esbuild) or
  // denied, and no entry names a package that no longer has one.
  it("decides every install script in the lockfile in allowScripts, and nothing else", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { allowScripts?: Record<string, boolean> };
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { name?: string; hasInstallScript?: boolean }>;
    };
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path, entry]) => entry.name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)),
    );
    const decided = manifest.allowScripts ?? {};
    expect([...withScripts].filter((name) => !(name in decided)).sort(), "install scripts allowScripts does not decide").toEqual([]);
    expect(Object.keys(decided).filter((name) => !withScripts.has(name)), "allowScripts entries with no install script behind them").toEqual([]);
    expect(Object.keys(decided).filter((name) => decided[name] === true).sort()).toEqual(["esbuild", "node", "workerd"]);
  });
});
