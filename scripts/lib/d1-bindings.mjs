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
