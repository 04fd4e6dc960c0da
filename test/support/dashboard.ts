import { fetchWorker, ORIGIN } from "./worker";

/**
 * The dashboard on the real Worker entry: a cookie-keeping client signs in with
 * the local accounts and drives the pages as a browser's forms would.
 */
export class Visitor {
  readonly cookies = new Map<string, string>();

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetchWorker(new Request(`${ORIGIN}${path}`, { ...init, headers, redirect: "manual" }));
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (!name) continue;
      if (/max-age=0/i.test(line) || value.join("=") === "") this.cookies.delete(name);
      else this.cookies.set(name, value.join("="));
    }
    return response;
  }

  get(path: string) {
    return this.request(path);
  }

  post(path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
    return this.request(path, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
  }

  /** The CSRF token of a page's forms. */
  static csrfOf(html: string): string {
    const match = html.match(/name="csrf" value="([^"]+)"/);
    if (!match?.[1]) throw new Error(`no csrf field in ${html.slice(0, 300)}`);
    return match[1];
  }

  async signIn(email: string, password: string): Promise<Response> {
    const page = await this.get("/dashboard/sign-in");
    return this.post("/dashboard/sign-in", { csrf: Visitor.csrfOf(await page.text()), email, password });
  }

  /** A signed-in page's token (the session's). */
  async csrf(path = "/dashboard/plans"): Promise<string> {
    return Visitor.csrfOf(await (await this.get(path)).text());
  }
}
