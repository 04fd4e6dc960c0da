import { describe, expect, it } from "vitest";
import { importKeyring, needsResealing, newKeyringEntry, openSecret, parseKeyringSetting, SecretUnavailable, sealedWith, sealSecret } from "./secret-box";
import { newWebhookSecret } from "./signing";

async function keyring(setting: string) {
  const parsed = parseKeyringSetting(setting);
  if (!parsed.ok) throw new Error(parsed.reason);
  return importKeyring(parsed.keys);
}

describe("webhook secrets at rest", () => {
  it("seal with the first key and open to the same secret; the stored value holds no trace of it", async () => {
    const ring = await keyring(`${newKeyringEntry("k2")},${newKeyringEntry("k1")}`);
    const secret = newWebhookSecret();
    const sealed = await sealSecret(ring, "whk_a", secret);
    expect(sealed).toMatch(/^sealed:v1:k2:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(sealedWith(sealed)).toBe("k2");
    expect(await openSecret(ring, "whk_a", sealed)).toBe(secret);
    // A fresh IV each time: the same secret never seals to the same text.
    expect(await sealSecret(ring, "whk_a", secret)).not.toBe(sealed);
  });

  it("opens only for the subscription it was sealed for, only unaltered, only with its key", async () => {
    const ring = await keyring(newKeyringEntry("k1"));
    const sealed = await sealSecret(ring, "whk_a", newWebhookSecret());
    await expect(openSecret(ring, "whk_b", sealed)).rejects.toBeInstanceOf(SecretUnavailable);
    const [head, body = ""] = [sealed.slice(0, -4), sealed.slice(-4)];
    const altered = head + (body[0] === "A" ? "B" : "A") + body.slice(1);
    await expect(openSecret(ring, "whk_a", altered)).rejects.toBeInstanceOf(SecretUnavailable);
    const other = await keyring(newKeyringEntry("k1"));
    await expect(openSecret(other, "whk_a", sealed)).rejects.toThrow(/altered or belongs elsewhere/);
    await expect(openSecret(await keyring(newKeyringEntry("k9")), "whk_a", sealed)).rejects.toThrow(/key "k1", which WEBHOOK_SECRET_KEYS does not hold/);
    await expect(openSecret(null, "whk_a", sealed)).rejects.toBeInstanceOf(SecretUnavailable);
    await expect(openSecret(ring, "whk_a", "plain words")).rejects.toBeInstanceOf(SecretUnavailable);
  });

  it("rotates: an old key still opens what it sealed, and what it sealed (or clear text) is due for resealing", async () => {
    const [k1, k2] = [newKeyringEntry("k1"), newKeyringEntry("k2")];
    const before = await keyring(k1);
    const after = await keyring(`${k2},${k1}`);
    const secret = newWebhookSecret();
    const old = await sealSecret(before, "whk_a", secret);
    expect(await openSecret(after, "whk_a", old)).toBe(secret);
    expect(needsResealing(after, old)).toBe(true);
    expect(needsResealing(after, await sealSecret(after, "whk_a", secret))).toBe(false);
    // A secret stored before sealing existed still signs, and is due for sealing.
    expect(await openSecret(null, "whk_a", secret)).toBe(secret);
    expect(needsResealing(after, secret)).toBe(true);
  });

  it("reads the setting strictly and says what is wrong without echoing keys", () => {
    const key = newKeyringEntry("k1");
    expect(parseKeyringSetting(key)).toMatchObject({ ok: true, keys: [{ id: "k1" }] });
    expect(parseKeyringSetting(` ${key} , ${newKeyringEntry("k0")} `)).toMatchObject({ ok: true, keys: [{ id: "k1" }, { id: "k0" }] });
    const bad = (setting: string | undefined) => {
      const parsed = parseKeyringSetting(setting);
      if (parsed.ok) throw new Error(`accepted ${setting}`);
      expect(parsed.reason).not.toContain(key.slice(3));
      return parsed.reason;
    };
    expect(bad(undefined)).toContain("not set");
    expect(bad(key.slice(3))).toContain("needs an id");
    expect(bad("k1:c2hvcnQ=")).toContain("not 32 bytes");
    expect(bad(`${key},${key}`)).toContain('"k1" twice');
    expect(bad("k 1:abc")).toContain("needs an id");
  });
});
