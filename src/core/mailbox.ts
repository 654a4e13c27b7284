/**
 * Mail providers that ignore dots in an address's local part (`f.arm@gmail.com` is
 * `farm@gmail.com`), each with the domain it shares its mailboxes with.
 */
export const DOT_BLIND_DOMAINS: Readonly<Record<string, string>> = Object.freeze({
  'gmail.com': 'gmail.com',
  'googlemail.com': 'gmail.com',
});

/**
 * The mailbox an e-mail address delivers to, written one way (docs/rules.md#accounts): lower-cased,
 * without the sub-address tag (`+` and what follows it in the local part), and — at a provider of
 * DOT_BLIND_DOMAINS — without the local part's dots and under the provider's main domain. So
 * `Farm+1@gmail.com`, `f.arm@googlemail.com` and `farm@gmail.com` are one mailbox, `farm@example.com`
 * and `f.arm@example.com` two.
 */
export function canonicalMailbox(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const tag = local.indexOf('+');
  if (tag >= 0) local = local.slice(0, tag);
  if (Object.hasOwn(DOT_BLIND_DOMAINS, domain)) {
    local = local.replaceAll('.', '');
    domain = DOT_BLIND_DOMAINS[domain]!;
  }
  return `${local}@${domain}`;
}
