/**
 * The public page an address confirms on: `/notifications/confirm/{token}`, no sign-in, the link from the one message an
 * address outside the org's members gets before it confirms. Opening the link changes nothing (mail scanners open links):
 * the page asks, and its button confirms. The link works once and expires; an unknown, used or expired link, and one
 * of the wrong shape, all answer the same 404.
 */
import { type Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import { secureHeaders } from "hono/secure-headers";
import type { Env } from "../env";
import { confirmAddress, pendingConfirmation } from "../platform/notifications/confirmation";
import { Layout } from "./dashboard/layout";
import { styleSource } from "./shares/share-app";

type ConfirmApp = { Bindings: Env };

export const notificationConfirmApp = new Hono<ConfirmApp>();

notificationConfirmApp.use("*", secureHeaders({ xFrameOptions: "DENY", referrerPolicy: "no-referrer" }));
notificationConfirmApp.use("*", async (c, next) => {
  await next();
  c.header("content-security-policy", `default-src 'none'; style-src ${await styleSource()}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`);
  c.header("x-robots-tag", "noindex, nofollow");
  c.header("cache-control", "no-store");
});

function page(c: Context<ConfirmApp>, title: string, body: Child, status: number) {
  return c.html(`<!doctype html>${String(<Layout title={title} nonce="" publicPage>{body}</Layout>)}`, status as 200);
}

const nothing = (c: Context<ConfirmApp>) =>
  page(
    c,
    "Not found",
    <>
      <h1>Not found</h1>
      <p>This link confirms nothing: it may have expired or been used already. An admin of the organization can send a new one.</p>
    </>,
    404,
  );

notificationConfirmApp.get("/:token", async (c) => {
  const pending = await pendingConfirmation(c.env, c.req.param("token"), Date.now());
  if (!pending) return nothing(c);
  return page(
    c,
    "Confirm notifications",
    <>
      <h1>Confirm notifications</h1>
      <p>
        An organization on Cairn asked to send its research notifications to <strong id="confirm-address">{pending.address}</strong>. Nothing is sent to this
        address unless you confirm.
      </p>
      <form method="post">
        <button type="submit">Confirm this address</button>
      </form>
      <p class="muted">If you did not expect this, close this page: nothing more will be sent.</p>
    </>,
    200,
  );
});

notificationConfirmApp.post("/:token", async (c) => {
  const confirmed = await confirmAddress(c.env, c.req.param("token"), Date.now());
  if (!confirmed) return nothing(c);
  return page(
    c,
    "Address confirmed",
    <>
      <h1>Address confirmed</h1>
      <p id="confirmed">
        {confirmed.address} now receives the organization's Cairn notifications. Its admins can remove this channel at any time.
      </p>
    </>,
    200,
  );
});

notificationConfirmApp.all("*", (c) => nothing(c));
