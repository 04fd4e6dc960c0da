import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".test.ts") ? [path] : [];
  });
}

const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1] ?? "");

describe("layering", () => {
  it("keeps the domain core free of any platform or library import", () => {
    const domain = resolve("src/domain");
    for (const file of sourceFiles("src/domain")) {
      for (const specifier of importsOf(file)) {
        expect(specifier.startsWith("."), `${file} imports ${specifier}`).toBe(true);
        expect(resolve(dirname(file), specifier).startsWith(domain), `${file} imports ${specifier} from outside the domain`).toBe(true);
      }
    }
  });

  // Types flow down: what storage and the objects it calls share (RpcResult, CallRecord) lives in the domain.
  it("keeps storage below operations, Durable Objects and the faces: it imports its own files, the domain, the bindings' type and drizzle", () => {
    for (const file of sourceFiles("src/storage")) {
      for (const specifier of importsOf(file)) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^(\.\/|\.\.\/domain\/|\.\.\/env$|drizzle-orm(\/|$))/);
      }
    }
  });

  it("keeps operations free of Cloudflare, HTTP and storage adapters", () => {
    for (const file of sourceFiles("src/operations")) {
      for (const specifier of importsOf(file)) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^(zod$|\.\/|\.\.\/domain\/)/);
      }
    }
  });
});
