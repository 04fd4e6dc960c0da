import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkOutboundUrl } from "./outbound-address";

/**
 * Every IPv6 spelling of a non-public IPv4 address is refused. An address is drawn from the loopback, private,
 * shared (CGNAT), link-local (the cloud metadata address among them) and "this network" ranges, placed in every IPv6
 * form that carries an IPv4 address (mapped, compatible, translated, NAT64 with either prefix, 6to4, Teredo's server
 * and its inverted client, ISATAP under any prefix), and written every way the URL parser accepts: any run of zero
 * groups compressed, leading zeros, any case, the last 32 bits dotted.
 */

const production = { allowLoopback: false };

/** [first address, prefix length] of each non-public IPv4 range drawn from. */
const NON_PUBLIC_V4: [number, number][] = [
  [0x7f000000, 8], // loopback
  [0x0a000000, 8], // private
  [0xac100000, 12], // private
  [0xc0a80000, 16], // private
  [0x64400000, 10], // shared address space (CGNAT)
  [0xa9fe0000, 16], // link-local
  [0x00000000, 8], // "this network"
];
const METADATA = 0xa9fea9fe; // 169.254.169.254

const nonPublicV4 = fc.oneof(
  fc.constant(METADATA),
  fc.constant(0x7f000001),
  fc.constantFrom(...NON_PUBLIC_V4).chain(([start, bits]) => fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => (start + offset) >>> 0)),
);
const group = fc.integer({ min: 0, max: 0xffff });
const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });
const high = (v4: number) => v4 >>> 16;
const low = (v4: number) => v4 & 0xffff;
/** A global unicast /64 prefix (2000::/3), 6to4's and Teredo's among them. */
const globalPrefix = fc.oneof(
  fc.tuple(fc.integer({ min: 0x2000, max: 0x3fff }), groups(3)).map(([first, rest]) => [first, ...rest]),
  groups(3).map((rest) => [0x2002, ...rest]),
  groups(2).map((rest) => [0x2001, 0, ...rest]),
);

/** The IPv6 forms, each as eight 16-bit groups carrying `v4`. */
const FORMS: Record<string, (v4: number) => fc.Arbitrary<number[]>> = {
  mapped: (v4) => fc.constant([0, 0, 0, 0, 0, 0xffff, high(v4), low(v4)]),
  compatible: (v4) => fc.constant([0, 0, 0, 0, 0, 0, high(v4), low(v4)]),
  translated: (v4) => fc.constant([0, 0, 0, 0, 0xffff, 0, high(v4), low(v4)]),
  "mapped, translated's leftover": (v4) => fc.constant([0, 0, 0, 0xffff, 0, 0, high(v4), low(v4)]),
  nat64: (v4) => fc.constant([0x64, 0xff9b, 0, 0, 0, 0, high(v4), low(v4)]),
  // The local-use prefix 64:ff9b:1::/48 with the address at any of the RFC 6052 positions.
  "nat64 local": (v4) => fc.tuple(fc.integer({ min: 3, max: 6 }), groups(5)).map(([at, fill]) => {
    const g = [0x64, 0xff9b, 1, ...fill];
    g[at] = high(v4);
    g[at + 1] = low(v4);
    return g;
  }),
  "6to4": (v4) => groups(5).map((rest) => [0x2002, high(v4), low(v4), ...rest]),
  "teredo client": (v4) => fc.tuple(groups(2), group, group).map(([server, flags, port]) => [0x2001, 0, ...server, flags, port, ~high(v4) & 0xffff, ~low(v4) & 0xffff]),
  "teredo server": (v4) => groups(4).map((client) => [0x2001, 0, high(v4), low(v4), ...client]),
  isatap: (v4) => fc.tuple(globalPrefix, fc.constantFrom(0, 0x100, 0x200, 0x300)).map(([prefix, id]) => [...prefix, id, 0x5efe, high(v4), low(v4)]),
  "isatap, no prefix": (v4) => fc.constantFrom(0, 0x200).map((id) => [0, 0, 0, 0, id, 0x5efe, high(v4), low(v4)]),
};

/** One of the ways to write eight groups that the URL parser accepts. */
const spelling = fc.record({
  compress: fc.nat(),
  pad: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  dotted: fc.boolean(),
});

function spell(g: number[], how: { compress: number; pad: boolean[]; upper: boolean[]; dotted: boolean }): string {
  const hex = g.map((value, i) => {
    const text = how.pad[i] ? value.toString(16).padStart(4, "0") : value.toString(16);
    return how.upper[i] ? text.toUpperCase() : text;
  });
  const last = how.dotted ? [`${(g[6] ?? 0) >> 8}.${(g[6] ?? 0) & 0xff}.${(g[7] ?? 0) >> 8}.${(g[7] ?? 0) & 0xff}`] : hex.slice(6);
  const parts = [...hex.slice(0, 6), ...last];
  // Zero runs (over the hex groups; a dotted tail counts as the last two) that may be written as "::".
  const runs: [number, number][] = [];
  const slots = how.dotted ? 6 : 8;
  for (let i = 0; i < slots; i++) {
    if (g[i] !== 0) continue;
    let j = i;
    while (j + 1 < slots && g[j + 1] === 0) j++;
    for (let a = i; a <= j; a++) for (let b = a; b <= j; b++) runs.push([a, b]);
    i = j;
  }
  if (runs.length === 0 || how.compress % (runs.length + 1) === runs.length) return parts.join(":");
  const [from, to] = runs[how.compress % (runs.length + 1)] as [number, number];
  const head = parts.slice(0, from).join(":");
  const tail = parts.slice(to + 1).join(":");
  return `${head}::${tail}`;
}

describe("outbound address guard, every IPv6 spelling of a non-public IPv4 address", () => {
  for (const [name, form] of Object.entries(FORMS)) {
    it(`refuses ${name}`, () => {
      fc.assert(
        fc.property(nonPublicV4.chain((v4) => form(v4)), spelling, (g, how) => {
          const url = `https://[${spell(g, how)}]/`;
          expect(URL.canParse(url), url).toBe(true);
          expect(checkOutboundUrl(url, production).allowed, url).toBe(false);
        }),
        { numRuns: 400 },
      );
    });
  }

  it("spells as the URL parser reads: the same groups, however written", () => {
    fc.assert(
      fc.property(groups(8), spelling, spelling, (g, one, other) => {
        expect(new URL(`https://[${spell(g, one)}]/`).hostname).toBe(new URL(`https://[${spell(g, other)}]/`).hostname);
      }),
      { numRuns: 300 },
    );
  });
});
