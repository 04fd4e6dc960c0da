/**
 * Consistent id remapping for an import: every Cairn id found in any stored
 * value (a column, JSON text, a plan's state) is replaced by the same new id
 * everywhere, so references stay valid and a second copy of an org can live
 * beside the first. The exporting org's id becomes the importing org's; a
 * restored member's id becomes their account's here (see members.ts); ids of
 * things an import cannot recreate (other users, API keys, other orgs) are
 * left as they are.
 */
const ID_TOKEN = /\b([a-z]{2,10})_([0-9a-z]{25})\b/g;
const KEPT_PREFIXES = new Set(["usr", "user", "key", "org"]);

export class IdRemapper {
  readonly #ids = new Map<string, string>();

  constructor(
    private readonly newId: (prefix: string) => string,
    fixed: ReadonlyMap<string, string>,
  ) {
    for (const [from, to] of fixed) this.#ids.set(from, to);
  }

  /** Fixes what an id becomes (a member's user id in the importing deployment). */
  set(from: string, to: string): void {
    this.#ids.set(from, to);
  }

  /** The new id of one id (created on first sight). */
  id(old: string): string {
    const known = this.#ids.get(old);
    if (known) return known;
    const match = /^([a-z]{2,10})_[0-9a-z]{25}$/.exec(old);
    if (!match || KEPT_PREFIXES.has(match[1] ?? "")) return old;
    const fresh = this.newId(match[1] ?? "x");
    this.#ids.set(old, fresh);
    return fresh;
  }

  /** A stored value with every id in it remapped (numbers and null pass through). */
  value<T extends string | number | null>(value: T): T {
    if (typeof value !== "string") return value;
    return value.replace(ID_TOKEN, (token) => this.id(token)) as T;
  }

  row<R extends Record<string, string | number | null>>(row: R): R {
    return Object.fromEntries(Object.entries(row).map(([column, cell]) => [column, this.value(cell)])) as R;
  }

  get size(): number {
    return this.#ids.size;
  }
}
