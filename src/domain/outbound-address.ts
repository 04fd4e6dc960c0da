/**
 * Where Cairn may send a request a caller aimed (a client metadata document
 * today; webhook targets and search-provider base URLs as they come): https
 * to a public host only. Loopback, private, shared, link-local (the cloud
 * metadata address 169.254.169.254 among them), multicast and reserved
 * addresses are refused, in every spelling the URL parser accepts
 * (`0x7f000001`, `2130706433` and `127.1` all parse to 127.0.0.1; IPv6 forms
 * that embed an IPv4 address (mapped, compatible, SIIT, 6to4, NAT64, Teredo,
 * ISATAP) are checked as that address, and only global unicast 2000::/3 can
 * be public at all). Development may
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

/** An IPv6 form that carries an IPv4 address, and where. */
interface Embedding {
  prefix: number[];
  bits: number;
  ipv4: (g: number[]) => number[];
}

/** The last 32 bits as the IPv4 address. */
const lastV4 = (g: number[]) => [v4Of(g[6] ?? 0, g[7] ?? 0)];

/**
 * Forms inside ::/8 (whose every other address is reserved) and NAT64's well-known prefix: a request to one reaches,
 * through the host's own stack or a translator, the IPv4 address in its last 32 bits, so that address decides.
 */
const V4_FORMS: Embedding[] = [
  { prefix: [0, 0, 0, 0, 0, 0xffff], bits: 96, ipv4: lastV4 }, // IPv4-mapped ::ffff:0:0/96
  { prefix: [0, 0, 0, 0, 0xffff, 0], bits: 96, ipv4: lastV4 }, // IPv4-translated (SIIT) ::ffff:0:0:0/96
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], bits: 96, ipv4: lastV4 }, // NAT64 well-known prefix 64:ff9b::/96
];

/**
 * Forms inside global unicast (2000::/3) that carry IPv4 addresses a relay or tunnel reaches: 6to4's, Teredo's two
 * (the relay server's, and the client's, stored inverted: the "obfuscated" bits), and an ISATAP interface identifier's
 * (`0:5efe` or `200:5efe`, the u and g bits in any state, under any /64 prefix).
 */
const TUNNEL_FORMS: Embedding[] = [
  { prefix: [0x2002], bits: 16, ipv4: (g) => [v4Of(g[1] ?? 0, g[2] ?? 0)] }, // 6to4 2002::/16
  { prefix: [0x2001, 0], bits: 32, ipv4: (g) => [v4Of(g[2] ?? 0, g[3] ?? 0), v4Of(~(g[6] ?? 0) & 0xffff, ~(g[7] ?? 0) & 0xffff)] }, // Teredo 2001::/32
];

/** An ISATAP interface identifier (RFC 5214): 0000:5efe or 0200:5efe (the u and g bits free), then the IPv4 address. */
const isIsatap = (g: number[]) => ((g[4] ?? 0) & 0xfcff) === 0 && g[5] === 0x5efe;

/** IPv6 ranges that are never a public host (RFC 6890 and the IANA special-purpose registry), with their class. */
const IPV6_RANGES: { prefix: number[]; bits: number; kind: AddressClass }[] = [
  { prefix: [0x64, 0xff9b, 1], bits: 48, kind: "reserved" }, // NAT64 local use (RFC 8215): the embedding depends on the operator's prefix length
  { prefix: [0x2001, 0], bits: 23, kind: "reserved" }, // IETF protocol assignments (benchmarking, ORCHID, AMT, …); Teredo, inside it, is judged above
  { prefix: [0x2001, 0x0db8], bits: 32, kind: "reserved" }, // documentation
  { prefix: [0x3fff], bits: 20, kind: "reserved" }, // documentation
  { prefix: [0xfc00], bits: 7, kind: "private" }, // unique local
  { prefix: [0xfe80], bits: 10, kind: "link-local" },
  { prefix: [0xfec0], bits: 10, kind: "private" }, // site-local (deprecated, still routed inside some networks)
  { prefix: [0xff00], bits: 8, kind: "reserved" }, // multicast
];

const embedded = (forms: Embedding[], groups: number[]) => forms.find(({ prefix, bits }) => inPrefix(groups, prefix, bits));

/**
 * An IPv6 address's class. Only global unicast (2000::/3) can be a public host; everything outside it is reserved,
 * private, link-local or multicast (::/8 whole: loopback, unspecified, the IPv4-compatible and every other leftover
 * form; 100::/8 with the discard prefix; the unassigned blocks), except the forms that carry an IPv4 address, which
 * that address decides (judged with the block's own class where the block is not public).
 */
function classifyIpv6(groups: number[]): AddressClass {
  if (groups.every((group) => group === 0)) return "reserved"; // ::
  if (inPrefix(groups, [0, 0, 0, 0, 0, 0, 0, 1], 128)) return "loopback"; // ::1
  const v4 = embedded(V4_FORMS, groups);
  if (v4) return strictest(v4.ipv4(groups).map(classifyIpv4));
  // IPv4-compatible ::/96 and ISATAP with no prefix, deprecated, inside reserved ::/8: named by the address they carry when it is not public.
  if (inPrefix(groups, [0, 0, 0, 0, 0, 0], 96) || (inPrefix(groups, [0, 0, 0, 0], 64) && isIsatap(groups))) {
    return strictest([...lastV4(groups).map(classifyIpv4), "reserved"]);
  }
  // Every reading counts: an ISATAP interface identifier under a 6to4 or Teredo prefix carries a second address.
  const carried = [...(embedded(TUNNEL_FORMS, groups)?.ipv4(groups) ?? []), ...(isIsatap(groups) ? lastV4(groups) : [])];
  const range = IPV6_RANGES.find(({ prefix, bits }) => inPrefix(groups, prefix, bits));
  const block: AddressClass = range ? range.kind : inPrefix(groups, [0x2000], 3) ? "public" : "reserved";
  // A tunnel's prefix (Teredo inside 2001::/23) is judged by what it carries, not by the block around it.
  if (embedded(TUNNEL_FORMS, groups)) return strictest(carried.map(classifyIpv4));
  return strictest([block, ...carried.map(classifyIpv4)]);
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
