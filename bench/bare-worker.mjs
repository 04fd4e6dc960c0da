/**
 * Row A: the floor. A Hono app with one route that returns "ok", bundled with
 * esbuild and run in the same workerd process as Cairn, so every row of the
 * table pays the same runtime, socket and client costs.
 */
import { Hono } from "hono";

const app = new Hono();

app.get("/", (c) => c.text("ok"));

export default app;
