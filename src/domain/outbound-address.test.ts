import { describe, expect, it } from "vitest";
import { checkOutboundUrl } from "./outbound-address";

const production = { allowLoopback: false };
const development = { allowLoopback: true };
const allowed = (url: string, policy = production) => checkOutboundUrl(url, policy).allowed;

describe("outbound address guard", () => {
  it("allows https to public hosts", () => {
    expect(allowed("https://notes.example.com/oauth/client.json")).toBe(true);
    expect(allowed("https://8.8.8.8/x")).toBe(true);
    expect(allowed("https://[2606:4700:4700::1111]/")).toBe(true);
  });

  it.each([
    "https://127.0.0.1/",
    "https://localhost/",
    "https://LOCALHOST./",
    "https://api.localhost/",
    "https://0x7f000001/",
    "https://2130706433/",
    "https://127.1/",
    "https://0177.0.0.1/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[0:0:0:0:0:ffff:7f00:1]/",
  ])("refuses loopback %s outside development", (url) => {
    expect(checkOutboundUrl(url, production)).toMatchObject({ allowed: false });
  });

  it.each([
    ["https://10.0.0.1/", "private"],
    ["https://172.16.5.4/", "private"],
    ["https://192.168.1.1/", "private"],
    ["https://100.64.0.1/", "private"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://[fe80::1]/", "link-local"],
    ["https://[fd00::1]/", "private"],
    ["https://[::ffff:10.0.0.1]/", "private"],
    ["https://[64:ff9b::a9fe:a9fe]/", "link-local"],
    ["https://0.0.0.0/", "reserved"],
    ["https://[::]/", "reserved"],
    ["https://224.0.0.1/", "reserved"],
    ["https://printer/", "single-label"],
    ["https://db.internal/", "local network"],
    ["https://nas.local/", "local network"],
  ])("refuses %s (%s)", (url, reason) => {
    const verdict = checkOutboundUrl(url, development);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(reason);
  });

  it("refuses non-https schemes and credentials, and allows loopback (http too) only in development", () => {
    expect(allowed("http://notes.example.com/")).toBe(false);
    expect(allowed("ftp://notes.example.com/")).toBe(false);
    expect(allowed("file:///etc/passwd")).toBe(false);
    expect(allowed("https://user:pw@notes.example.com/")).toBe(false);
    expect(allowed("not a url")).toBe(false);
    expect(allowed("http://localhost:8788/hook", development)).toBe(true);
    expect(allowed("http://127.0.0.1:8788/hook", development)).toBe(true);
    expect(allowed("http://10.0.0.1/hook", development)).toBe(false);
  });
});
