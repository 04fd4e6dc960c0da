const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const ID_LENGTH = 25;

/**
 * A random identifier with a readable prefix: `exec_` + 25 base-36 characters
 * (≈129 bits from the platform CSPRNG). Never sequential, so a handle reveals nothing.
 */
export function newId(prefix: string): string {
  let out = "";
  while (out.length < ID_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      // 252 = 7 × 36: dropping the bytes above it keeps every character uniform.
      if (byte < 252 && out.length < ID_LENGTH) out += ALPHABET[byte % 36];
    }
  }
  return `${prefix}_${out}`;
}

export const ID_PATTERN = /^[a-z]{2,10}_[0-9a-z]{25}$/;

/** A secret a link carries (a share link, an address confirmation): `bytes` from the platform CSPRNG, base64url without padding. */
export function newLinkToken(bytes: number): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
