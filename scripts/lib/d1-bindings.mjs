/**
 * The D1 databases a wrangler configuration declares: `DB` (the directory)
 * and any further research databases. Every one of them has the same tables,
 * so every tool that migrates migrates each. Pure text reading, no I/O.
 */

/**
 * The `binding` of each `[[d1_databases]]` table of `toml`, in the order the
 * file declares them. A table without a binding is skipped (wrangler itself
 * rejects such a file with a clearer message than this could give).
 * @param {string} toml
 * @returns {string[]}
 */
export function d1BindingsOf(toml) {
  const bindings = [];
  let inD1Table = false;
  for (const line of toml.split(/\r?\n/)) {
    const header = /^\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      inD1Table = header[1] === "[[" && header[2] === "d1_databases";
      continue;
    }
    const binding = inD1Table ? /^\s*binding\s*=\s*"([^"]+)"\s*(#.*)?$/.exec(line) : null;
    if (binding?.[1]) bindings.push(binding[1]);
  }
  return bindings;
}

/**
 * `toml` without the `[[d1_databases]]` tables of bindings other than `keep`
 * (a table's keys up to the next table; the comments before that table stay),
 * and the bindings it left out.
 * @param {string} toml
 * @param {string} keep
 * @returns {{ toml: string, removed: string[] }}
 */
export function withoutOtherDatabases(toml, keep) {
  const lines = toml.split("\n");
  const out = [];
  const removed = [];
  for (let i = 0; i < lines.length; ) {
    if (!/^\s*\[\[\s*d1_databases\s*\]\]\s*(#.*)?$/.test(lines[i] ?? "")) {
      out.push(lines[i] ?? "");
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !/^\s*\[/.test(lines[end] ?? "")) end++;
    // Blank and comment lines before the next table belong to it (they usually describe it).
    let tail = end;
    while (tail > i + 1 && /^\s*(#.*)?$/.test(lines[tail - 1] ?? "")) tail--;
    const table = lines.slice(i, tail);
    const binding = d1BindingsOf(table.join("\n"))[0];
    if (binding === keep) out.push(...table);
    else {
      removed.push(binding ?? "(no binding)");
      // The blank lines that separated the table from the previous one go with it.
      while (out.length > 0 && (out.at(-1) ?? "").trim() === "") out.pop();
    }
    out.push(...lines.slice(tail, end));
    i = end;
  }
  return { toml: out.join("\n"), removed };
}
