/**
 * Where Cairn may send a request a caller aimed (a client metadata document
 * today; webhook targets and search-provider base URLs as they come): https
 * to a public host only. Loopback, private, shared, link-local (the cloud
 * metadata address 169.254.169.254 among them), multicast and reserved
 * addresses are refused, in every spelling the URL parser accepts
 * (`0x7f000001`, `2130706433` and `127.1` all parse to 127.0.0.1; IPv6 forms
 * that embed an IPv4 address (mapped, compatible, SIIT, 6to4, NAT64, Teredo)
 * are checked as that address). Development may
 * allow loopback (plain http included) for local receivers.
 *
 * Names are checked as written: a public-looking name that resolves to a
 * private address cannot be seen from a Worker. On Cloudflare the
 * `global_fetch_strictly_public` compatibility flag (set in wrangler.toml)
 * makes `fetch` itself refuse those.
 */
export interface OutboundPolicy {
  /** Development only: loopback hosts (http or https) are allowed. */
  allowLoopback: boolean;
}

export type OutboundVerdict = { allowed: true; url: URL } | { allowed: false; reason: string };

const refuse = (reason: string): OutboundVerdict => ({ allowed: false, reason });

type AddressClass = "public" | "loopback" | "private" | "link-local" | "reserved";

/** [first address as a 32-bit number, prefix length, class] */
const IPV4_RANGES: [number, number, AddressClass][] = [
  [ipv4(0, 0, 0, 0), 8, "reserved"],
  [ipv4(10, 0, 0, 0), 8, "private"],
  [ipv4(100, 64, 0, 0), 10, "private"],
  [ipv4(127, 0, 0, 0), 8, "loopback"],
  [ipv4(169, 254, 0, 0), 16, "link-local"],
  [ipv4(172, 16, 0, 0), 12, "private"],
  [ipv4(192, 0, 0, 0), 24, "reserved"],
  [ipv4(192, 0, 2, 0), 24, "reserved"],
  [ipv4(192, 88, 99, 0), 24, "reserved"],
  [ipv4(192, 168, 0, 0), 16, "private"],
  [ipv4(198, 18, 0, 0), 15, "reserved"],
  [ipv4(198, 51, 100, 0), 24, "reserved"],
  [ipv4(203, 0, 113, 0), 24, "reserved"],
  [ipv4(224, 0, 0, 0), 4, "reserved"],
  [ipv4(240, 0, 0, 0), 4, "reserved"],
];

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

function classifyIpv4(address: number): AddressClass {
  for (const [start, prefix, kind] of IPV4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((address & mask) >>> 0 === start) return kind;
  }
  return "public";
}

const IPV4_LITERAL = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseIpv4(host: string): number | null {
  const match = IPV4_LITERAL.exec(host);
  if (!match) return null;
  const parts = match.slice(1).map(Number);
  if (parts.some((part) => part > 255)) return null;
  const [a = 0, b = 0, c = 0, d = 0] = parts;
  return ipv4(a, b, c, d);
}

/**
 * An IPv6 literal (without brackets) as eight 16-bit groups. The URL parser
 * has already normalized it to hex groups (`::ffff:127.0.0.1` becomes
 * `::ffff:7f00:1`), so dotted forms need no handling here.
 */
function parseIpv6(host: string): number[] | null {
  const [head = "", rest, extra] = host.split("::");
  if (extra !== undefined) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? Number.parseInt(group, 16) : Number.NaN)));
  const front = groups(head);
  const back = rest === undefined ? [] : groups(rest);
  if ([...front, ...back].some(Number.isNaN)) return null;
  const missing = 8 - front.length - back.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return null;
  return [...front, ...Array.from({ length: missing }, () => 0), ...back];
}

/** The 32-bit IPv4 address in two 16-bit groups. */
const v4Of = (high: number, low: number): number => ((high << 16) >>> 0) + low;

/** The most restrictive class of several (an address is public only if every address it names is). */
function strictest(classes: AddressClass[]): AddressClass {
  const order: AddressClass[] = ["loopback", "link-local", "private", "reserved"];
  return order.find((kind) => classes.includes(kind)) ?? "public";
}

/** True when the first `bits` bits of `groups` equal those of `prefix` (groups of 16 bits). */
function inPrefix(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * IPv6 forms that carry IPv4 addresses, and where: a request to one of them
 * reaches (through a translator or relay, or the host's own stack) the IPv4
 * address, so that address decides. Teredo carries two: the relay server's,
 * and the client's, stored inverted.
 */
const EMBEDDED_IPV4: { prefix: number[]; bits: number; ipv4: (g: number[]) => number[] }[] = [
  { prefix: [0, 0, 0, 0, 0, 0xffff], bits: 96, ipv4: (g) => [v4Of(g[6] ?? 0, g[7] ?? 0)] }, // IPv4-mapped
  { prefix: [0, 0, 0, 0, 0xffff, 0], bits: 96, ipv4: (g) => [v4Of(g[6] ?? 0, g[7] ?? 0)] }, // SIIT (IPv4-translated)
  { prefix: [0, 0, 0, 0, 0, 0], bits: 96, ipv4: (g) => [v4Of(g[6] ?? 0, g[7] ?? 0)] }, // IPv4-compatible
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], bits: 96, ipv4: (g) => [v4Of(g[6] ?? 0, g[7] ?? 0)] }, // NAT64 well-known prefix
  { prefix: [0x2002], bits: 16, ipv4: (g) => [v4Of(g[1] ?? 0, g[2] ?? 0)] }, // 6to4
  { prefix: [0x2001, 0], bits: 32, ipv4: (g) => [v4Of(g[2] ?? 0, g[3] ?? 0), v4Of(~(g[6] ?? 0) & 0xffff, ~(g[7] ?? 0) & 0xffff)] }, // Teredo
];

/** IPv6 ranges that are never a public host (RFC 6890 and the IANA special-purpose registry). */
const IPV6_RANGES: { prefix: number[]; bits: number; kind: AddressClass }[] = [
  { prefix: [0x64, 0xff9b, 1], bits: 48, kind: "reserved" }, // NAT64 local use (RFC 8215): the embedding depends on the operator's prefix length
  { prefix: [0x100, 0, 0, 0], bits: 64, kind: "reserved" }, // discard only
  { prefix: [0x2001, 0x2, 0], bits: 48, kind: "reserved" }, // benchmarking
  { prefix: [0x2001, 0x10], bits: 28, kind: "reserved" }, // ORCHID
  { prefix: [0x2001, 0x20], bits: 28, kind: "reserved" }, // ORCHIDv2
  { prefix: [0x2001, 0x0db8], bits: 32, kind: "reserved" }, // documentation
  { prefix: [0x3fff], bits: 20, kind: "reserved" }, // documentation
  { prefix: [0x5f00], bits: 16, kind: "reserved" }, // segment routing
  { prefix: [0xfc00], bits: 7, kind: "private" }, // unique local
  { prefix: [0xfe80], bits: 10, kind: "link-local" },
  { prefix: [0xfec0], bits: 10, kind: "private" }, // site-local (deprecated, still routed inside some networks)
  { prefix: [0xff00], bits: 8, kind: "reserved" }, // multicast
];

function classifyIpv6(groups: number[]): AddressClass {
  if (groups.every((group) => group === 0)) return "reserved"; // ::
  if (inPrefix(groups, [0, 0, 0, 0, 0, 0, 0, 1], 128)) return "loopback"; // ::1
  for (const { prefix, bits, kind } of IPV6_RANGES) if (inPrefix(groups, prefix, bits)) return kind;
  const embedded = EMBEDDED_IPV4.find(({ prefix, bits }) => inPrefix(groups, prefix, bits));
  return embedded ? strictest(embedded.ipv4(groups).map(classifyIpv4)) : "public";
}

function classifyHost(hostname: string): AddressClass | "name" {
  if (hostname.startsWith("[") && hostname.endsWith("]")) {
    const groups = parseIpv6(hostname.slice(1, -1).toLowerCase());
    return groups ? classifyIpv6(groups) : "reserved";
  }
  const v4 = parseIpv4(hostname);
  if (v4 !== null) return classifyIpv4(v4);
  return "name";
}

/** Names that never denote a public host: localhost and the special-use and internal suffixes. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/;

export function checkOutboundUrl(raw: string, policy: OutboundPolicy): OutboundVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("not a valid URL");
  }
  if (url.username || url.password) return refuse("URLs with credentials are not allowed");
  const hostname = url.hostname.toLowerCase().replace(/\.+$/, "");
  const kind = classifyHost(hostname);
  const loopback = kind === "loopback" || (kind === "name" && /(^|\.)localhost$/.test(hostname));
  if (loopback) {
    if (!policy.allowLoopback) return refuse("loopback addresses are not allowed");
    return url.protocol === "https:" || url.protocol === "http:" ? { allowed: true, url } : refuse("only https (or http on loopback in development) is allowed");
  }
  if (url.protocol !== "https:") return refuse("only https is allowed");
  if (kind === "private") return refuse("private addresses are not allowed");
  if (kind === "link-local") return refuse("link-local addresses (cloud metadata among them) are not allowed");
  if (kind === "reserved") return refuse("reserved or special-purpose addresses are not allowed");
  if (kind === "name") {
    if (!hostname.includes(".")) return refuse("single-label host names are not allowed");
    if (LOCAL_NAME.test(hostname)) return refuse("local network names are not allowed");
  }
  return { allowed: true, url };
}
