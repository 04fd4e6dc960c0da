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

  /**
   * Every IPv6 form that carries an IPv4 address is judged by that address (and Teredo by both of
   * its own: the server's, and the client's, stored inverted), so no spelling reaches 127.0.0.1,
   * 169.254.169.254 or a private network; plus the IPv6 ranges that are never a public host.
   */
  it.each([
    // IPv4-mapped ::ffff:0:0/96
    ["https://[::ffff:7f00:1]/", "loopback"],
    ["https://[::ffff:169.254.169.254]/", "link-local"],
    // IPv4-compatible ::/96 (deprecated)
    ["https://[::127.0.0.1]/", "loopback"],
    ["https://[::a9fe:a9fe]/", "link-local"],
    // SIIT, IPv4-translated ::ffff:0:0:0/96
    ["https://[::ffff:0:7f00:1]/", "loopback"],
    ["https://[::ffff:0:a9fe:a9fe]/", "link-local"],
    ["https://[::ffff:0:10.1.2.3]/", "private"],
    // 6to4 2002::/16: the IPv4 address is the next 32 bits
    ["https://[2002:7f00:1::]/", "loopback"],
    ["https://[2002:a9fe:a9fe::]/", "link-local"],
    ["https://[2002:c0a8:101::1]/", "private"],
    // NAT64 well-known prefix 64:ff9b::/96 and the local-use 64:ff9b:1::/48 (never a public host)
    ["https://[64:ff9b::127.0.0.1]/", "loopback"],
    ["https://[64:ff9b::a9fe:a9fe]/", "link-local"],
    ["https://[64:ff9b:1::7f00:1]/", "reserved"],
    ["https://[64:ff9b:1:a9fe:a9fe::]/", "reserved"],
    // Teredo 2001::/32: server at bits 32-63, client (inverted) at bits 96-127
    ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "loopback"], // client 127.0.0.1
    ["https://[2001:0:4136:e378:8000:63bf:5601:5601]/", "link-local"], // client 169.254.169.254
    ["https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/", "private"], // client 10.0.0.1
    ["https://[2001:0:a00:1::f7f7:f7f7]/", "private"], // server 10.0.0.1
    // Site-local fec0::/10 (deprecated, still routed inside some networks) and other non-public ranges
    ["https://[fec0::1]/", "private"],
    ["https://[feff::1]/", "private"],
    ["https://[100::1]/", "reserved"],
    ["https://[2001:2::1]/", "reserved"],
    ["https://[2001:db8::1]/", "reserved"],
    ["https://[3fff::1]/", "reserved"],
    // What is left of ::/8 beside mapped, translated and compatible addresses: reserved, whatever it carries
    ["https://[::ffff:0:0:7f00:1]/", "reserved"],
    ["https://[::1:0:0:0]/", "reserved"],
    ["https://[::1:0:0:1]/", "reserved"],
    ["https://[::8.8.8.8]/", "reserved"], // IPv4-compatible (deprecated) of a public address
    // ISATAP interface identifiers (0:5efe, 200:5efe, the u/g bits in any state) carry an IPv4 address under any prefix
    ["https://[::5efe:7f00:1]/", "loopback"],
    ["https://[::200:5efe:169.254.169.254]/", "link-local"],
    ["https://[2001:4860::5efe:a00:1]/", "private"],
    ["https://[2400:cb00::300:5EFE:192.168.0.1]/", "private"],
    ["https://[2002:808:808::5efe:7f00:1]/", "loopback"], // a public 6to4 prefix does not hide it
    ["https://[2001:0:808:808:0:5efe:7f00:1]/", "loopback"], // nor a Teredo one (whose client reads as public)
    ["https://[fe80::5efe:8.8.8.8]/", "link-local"],
    // Outside global unicast 2000::/3 nothing is a public host; inside it, the IETF's 2001::/23 beside Teredo
    ["https://[100:0:0:1::1]/", "reserved"],
    ["https://[400::1]/", "reserved"],
    ["https://[4000::1]/", "reserved"],
    ["https://[5f00::1]/", "reserved"],
    ["https://[2001:3::1]/", "reserved"],
    ["https://[2001:1ff::1]/", "reserved"],
  ])("refuses %s (embedded or non-public IPv6: %s)", (url, reason) => {
    const verdict = checkOutboundUrl(url, production);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(reason);
  });

  it.each([
    "https://[::ffff:8.8.8.8]/",
    "https://[::ffff:0:808:808]/",
    "https://[2002:808:808::1]/",
    "https://[64:ff9b::808:808]/",
    "https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/", // Teredo: public server, client 8.8.8.8
    "https://[2001:4860:4860::8888]/",
    "https://[2001:200::1]/", // just past the IETF's 2001::/23
    "https://[2400:cb00::5efe:808:808]/", // ISATAP: a public prefix carrying 8.8.8.8
    "https://[2606:4700::200:5efe:8.8.4.4]/",
  ])("allows %s, whose embedded IPv4 address (if any) is public", (url) => {
    expect(allowed(url)).toBe(true);
  });
});
