import type { StoredRow, TableDump } from "../domain/org-data/format";

/**
 * An object's SQLite tables as rows and back, for org export and import. Only
 * the named tables, less the columns the object numbers itself (`omitted`: an
 * import never takes them from a file, so rows restore in order and number afresh); on restore, columns are checked against the table's own
 * (PRAGMA table_info) before any SQL is built, since the rows come from a file.
 */
export function dumpTables(sql: SqlStorage, tables: readonly string[], omitted: Readonly<Record<string, readonly string[]>> = {}): TableDump {
  const dump: TableDump = {};
  // Table names come from the caller's constant list, never from input.
  for (const table of tables) {
    const left = new Set(omitted[table] ?? []);
    const rows = sql.exec<StoredRow>(`SELECT * FROM "${table}" ORDER BY rowid`).toArray();
    dump[table] = left.size ? rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !left.has(column)))) : rows;
  }
  return dump;
}

export function restoreTables(sql: SqlStorage, dump: TableDump, tables: readonly string[]): void {
  for (const [table, rows] of Object.entries(dump)) {
    if (!tables.includes(table)) throw new Error(`Not a table of this object: ${table}`);
    const columns = new Set(sql.exec<{ name: string }>(`PRAGMA table_info("${table}")`).toArray().map((column) => column.name));
    for (const row of rows) {
      const names = Object.keys(row);
      const unknown = names.find((name) => !columns.has(name));
      if (unknown) throw new Error(`Table ${table} has no column ${unknown}`);
      sql.exec(`INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`, ...names.map((n) => row[n] ?? null));
    }
  }
}
