/**
 * The one e-mail address syntax Cairn sends to: a plain mailbox `local@domain.tld`, nothing more of what RFC 5322
 * allows in a header. Group syntax (`team:a@b.test;`), encoded words (`=?utf-8?q?…?=`), address literals
 * (`a@[127.0.0.1]`), quoted local parts, comments, display names and lists can each make a mail system deliver
 * somewhere else than the address a person read, so each is refused by name. Pure.
 */
import { validationError } from "../errors";

export const MAILBOX_LIMITS = { addressChars: 254, localChars: 64, domainChars: 253, labelChars: 63 } as const;

/** dot-atom text of the local part, without `=` and `?` (no encoded word can be made of it). */
const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/^_`{|}~-]+$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** A top-level domain: letters, or an IDNA A-label (xn--…); never all digits (an IP address is not a mail domain). */
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Why `value` is not a plain mailbox Cairn sends to, in words a person can act on; null when it is one. */
export function mailboxRefusal(value: string): string | null {
  if (value.length === 0) return "it is empty";
  if (value.length > MAILBOX_LIMITS.addressChars) return `it is longer than ${MAILBOX_LIMITS.addressChars} characters`;
  if (/[^\x21-\x7e]/.test(value)) return /\s/.test(value) ? "it contains a space or line break" : "it contains characters outside plain ASCII (international addresses are not supported)";
  if (value.includes("=?") || value.includes("?=")) return "it contains an encoded word (=?…?=)";
  if (/[<>]/.test(value)) return "it has a display name or angle brackets: give the address alone";
  if (/[,;]/.test(value)) return "it names more than one address: add one channel per address";
  if (value.includes(":")) return "it uses group syntax (name:…;)";
  if (/[()]/.test(value)) return "it contains a comment in parentheses";
  if (value.includes('"') || value.includes("\\")) return "it has a quoted local part";
  if (/[[\]]/.test(value)) return "its domain is an address literal ([…]): give a domain name";
  const at = value.lastIndexOf("@");
  if (at === -1) return "it has no @";
  if (value.indexOf("@") !== at) return "it has more than one @";
  const local = value.slice(0, at);
  const domain = value.slice(at + 1).toLowerCase();
  if (local.length === 0) return "nothing comes before the @";
  if (local.length > MAILBOX_LIMITS.localChars) return `the part before the @ is longer than ${MAILBOX_LIMITS.localChars} characters`;
  if (!local.split(".").every((atom) => atom.length > 0 && LOCAL_ATOM.test(atom))) {
    return local.split(".").some((atom) => atom.length === 0) ? "the part before the @ starts or ends with a dot, or has two in a row" : "the part before the @ has a character an address may not";
  }
  if (domain.length === 0) return "nothing comes after the @";
  if (domain.length > MAILBOX_LIMITS.domainChars) return `the domain is longer than ${MAILBOX_LIMITS.domainChars} characters`;
  const labels = domain.split(".");
  if (labels.length < 2) return "the domain has no dot (a name such as example.com)";
  if (!labels.every((label) => label.length <= MAILBOX_LIMITS.labelChars && LABEL.test(label))) return "the domain is not a host name (letters, digits and hyphens between dots)";
  if (!TOP_LEVEL.test(labels[labels.length - 1] as string)) return "the domain does not end in a top-level domain such as .com (an IP address is not accepted)";
  return null;
}

/** The address as stored and compared: its domain lowercased (and, as Cairn has always kept addresses, its local part too). */
export const canonicalMailbox = (value: string): string => value.toLowerCase();

/** `value` as a mailbox, or a validation error naming `field` and why. */
export function parseMailbox(value: unknown, field: string): string {
  if (typeof value !== "string") throw validationError(`${field} is one e-mail address, as a string.`, [{ path: field, message: "One e-mail address" }]);
  const refusal = mailboxRefusal(value);
  if (refusal) throw validationError(`${field} is not an address Cairn sends to: ${refusal}. Give one plain address such as team@example.com.`, [{ path: field, message: refusal }]);
  return canonicalMailbox(value);
}
