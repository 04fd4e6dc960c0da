/**
 * A real D1 binding that lets a test step in around chosen statements: `before(sql)` runs (and is awaited)
 * before a statement or batch is sent, `after(sql)` once it has answered. The SQL of a batch is its
 * statements' texts joined by newlines. Everything else passes through unchanged, sessions included (the
 * REST and MCP faces read and write through a D1 session of the binding).
 */
export interface D1Hooks {
  before?(sql: string): Promise<void> | void;
  after?(sql: string): Promise<void> | void;
}

const SQL = Symbol("sql");
const REAL = Symbol("real");

type Tagged = D1PreparedStatement & { [SQL]?: string; [REAL]?: D1PreparedStatement };

export function hookedD1(db: D1Database, hooks: D1Hooks): D1Database {
  const around = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    await hooks.before?.(sql);
    const result = await run();
    await hooks.after?.(sql);
    return result;
  };
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === SQL) return sql;
        if (property === REAL) return target;
        if (property === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (["first", "all", "run", "raw"].includes(String(property))) {
          return (...args: unknown[]) => around(sql, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        }
        return value.bind(target);
      },
    });
  return new Proxy(db, {
    get(target, property) {
      if (property === "withSession") return (constraint: string) => hookedD1(target.withSession(constraint) as unknown as D1Database, hooks);
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch") {
        return (statements: Tagged[]) =>
          around(statements.map((s) => s[SQL] ?? "").join("\n"), () => target.batch(statements.map((s) => s[REAL] ?? s)));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A promise with its resolve, for a test to open when it chooses. */
export function latch(): { promise: Promise<void>; open(): void } {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
