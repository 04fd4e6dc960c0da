import type { Child } from "hono/jsx";
import { SCOPE_DESCRIPTIONS, type Scope } from "../domain/scopes";

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,Segoe UI,sans-serif}
body{margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;background:Canvas;color:CanvasText}
main{width:min(28rem,100% - 2rem);padding:1.5rem;border:1px solid #8884;border-radius:12px}
h1{font-size:1.3rem;margin:0 0 1rem}fieldset{border:0;padding:0;margin:.8rem 0}legend{font-weight:600}label{display:block;margin:.6rem 0 .2rem;font-weight:600}
input[type=email],input[type=password],select{width:100%;box-sizing:border-box;padding:.55rem;font:inherit;border:1px solid #8888;border-radius:6px}
button{font:inherit;padding:.55rem 1rem;border-radius:6px;border:1px solid #8888;cursor:pointer;margin-top:1rem}
button.primary,a.button.primary{background:#2d5bd7;color:#fff;border-color:#2d5bd7}
a.button{display:inline-block;font:inherit;padding:.55rem 1rem;border-radius:6px;border:1px solid #8888;text-decoration:none}
form.sso{margin-top:1.5rem;padding-top:1rem;border-top:1px solid #8884}
.scope{display:flex;gap:.5rem;align-items:flex-start;font-weight:400}.scope small{display:block;opacity:.75}
.warn{background:#f5a62322;border:1px solid #f5a623;padding:.6rem;border-radius:6px}
.error{background:#d7382d22;border:1px solid #d7382d;padding:.6rem;border-radius:6px}.muted{opacity:.75;font-size:.9rem}
`;

export function Page({ title, children }: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{title} · Cairn</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** "Continue with <provider>": a link (not a form, so no form-action policy stands between it and the provider). */
export interface SsoOffer {
  providerName: string;
  href: string;
}

export function SignInPage(props: { action: string; authorizeSearch: string; csrf: string; clientName: string; email?: string; error?: string; sso?: SsoOffer }) {
  return (
    <Page title="Sign in">
      <h1>Sign in to Cairn</h1>
      <p class="muted">
        <strong>{props.clientName}</strong> wants to connect to your Cairn account.
      </p>
      {props.error ? (
        <p class="error" role="alert">
          {props.error}
        </p>
      ) : null}
      {props.sso ? (
        <p>
          <a class="button primary" id="sso-continue" href={props.sso.href}>
            Continue with {props.sso.providerName}
          </a>
        </p>
      ) : null}
      <form method="post" action={props.action}>
        <input type="hidden" name="step" value="signin" />
        <input type="hidden" name="csrf" value={props.csrf} />
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ""} />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button class="primary" type="submit">
          Sign in
        </button>
      </form>
      <SsoForm authorizeSearch={props.authorizeSearch} email={props.email} />
    </Page>
  );
}

/** Sign-in through the org's own provider: the e-mail says which org (its domain), nothing else is asked here. */
export function SsoForm(props: { authorizeSearch?: string; next?: string; email?: string }) {
  return (
    <form method="get" action="/dashboard/sign-in/sso" class="sso">
      {props.authorizeSearch ? <input type="hidden" name="authorize" value={props.authorizeSearch} /> : null}
      {props.next ? <input type="hidden" name="next" value={props.next} /> : null}
      <input type="hidden" name="via" value="form" />
      <label for="sso-email">Or sign in through your organization's provider</label>
      <input id="sso-email" name="email" type="email" autocomplete="username" required value={props.email ?? ""} />
      <button type="submit" id="sso-submit">
        Continue with single sign-on
      </button>
    </form>
  );
}

export interface ConsentOrg {
  orgId: string;
  orgName: string;
  role: string;
}

export function ConsentPage(props: {
  action: string;
  handle: string;
  clientName: string;
  clientDomain?: string;
  redirectHost: string;
  redirectIsLoopback: boolean;
  scopes: Scope[];
  orgs: ConsentOrg[];
  /** The org to preselect (the one last used), or null: the person must choose (never the first by name). */
  chosenOrgId: string | null;
  email: string;
}) {
  const [onlyOrg] = props.orgs;
  return (
    <Page title="Authorize">
      <h1>Allow {props.clientName} to use Cairn?</h1>
      <p>
        {props.clientDomain ? (
          <>
            Published by <strong>{props.clientDomain}</strong>.
          </>
        ) : (
          "This app registered itself; its name is not verified."
        )}{" "}
        Access will be sent to <strong>{props.redirectHost}</strong>.
      </p>
      {props.redirectIsLoopback ? (
        <p class="warn">
          This sends access to an app on your computer. Continue only if you just started signing in from it.
        </p>
      ) : null}
      <form method="post" action={props.action}>
        <input type="hidden" name="step" value="consent" />
        <input type="hidden" name="handle" value={props.handle} />
        {props.orgs.length > 1 ? (
          <>
            <label for="org">Organization</label>
            <select id="org" name="orgId" required>
              {props.chosenOrgId ? null : (
                <option value="" disabled selected>
                  Choose an organization
                </option>
              )}
              {props.orgs.map((org) => (
                <option value={org.orgId} selected={org.orgId === props.chosenOrgId}>
                  {org.orgName} ({org.role})
                </option>
              ))}
            </select>
          </>
        ) : (
          <>
            <input type="hidden" name="orgId" value={onlyOrg?.orgId ?? ""} />
            <p>
              Organization: <strong>{onlyOrg?.orgName}</strong>
            </p>
          </>
        )}
        <fieldset>
          <legend>Permissions</legend>
          {props.scopes.map((scope) => (
            <label class="scope">
              <input type="checkbox" name="scope" value={scope} checked />
              <span>
                {scope}
                <small>{SCOPE_DESCRIPTIONS[scope]}</small>
              </span>
            </label>
          ))}
        </fieldset>
        <p class="muted">Signed in as {props.email}.</p>
        <button class="primary" type="submit" name="decision" value="approve">
          Allow
        </button>{" "}
        <button type="submit" name="decision" value="deny">
          Deny
        </button>
      </form>
    </Page>
  );
}

export function MessagePage({ title, message, status }: { title: string; message: string; status?: "error" }) {
  return (
    <Page title={title}>
      <h1>{title}</h1>
      <p class={status === "error" ? "error" : undefined}>{message}</p>
    </Page>
  );
}
