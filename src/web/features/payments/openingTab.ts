/**
 * The tab the card page opens in, while the server creates the payment: opened inside the click
 * (popup blockers allow only that) and blank until the card page's address is known. It shows,
 * from its first paint, a styled page in the shop's language — a spinner and "Ödəniş səhifəsi
 * açılır…" in the middle — not a line of unstyled text. Built with DOM calls only: nothing is
 * parsed as HTML. Styles are set through CSSOM, which no content-security policy refuses.
 */
export function showOpening(tab: Window, lang: string, text: string): void {
  const doc = tab.document;
  doc.documentElement.lang = lang;
  doc.title = text;
  const viewport = doc.createElement('meta');
  viewport.name = 'viewport';
  viewport.content = 'width=device-width,initial-scale=1';
  doc.head.append(viewport);

  Object.assign(doc.body.style, {
    margin: '0',
    minHeight: '100vh',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    background: '#f8fafc',
    color: '#0f172a',
    font: "16px/1.5 ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
  });
  const card = doc.createElement('main');
  card.setAttribute('role', 'status');
  Object.assign(card.style, {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '1rem',
    margin: '1rem',
    padding: '2rem 1.5rem',
    maxWidth: '22rem',
    textAlign: 'center',
    background: '#ffffff',
    border: '1px solid #e2e8f0',
    borderRadius: '1rem',
    boxShadow: '0 1px 2px rgb(15 23 42 / 0.06)',
  });
  const spinner = doc.createElement('span');
  spinner.setAttribute('aria-hidden', 'true');
  Object.assign(spinner.style, {
    width: '2.25rem',
    height: '2.25rem',
    borderRadius: '9999px',
    border: '3px solid #e0e7ff',
    borderTopColor: '#4f46e5',
  });
  // A turning ring where motion is welcome; a still one otherwise.
  if (!tab.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
    spinner.animate?.([{ transform: 'rotate(0turn)' }, { transform: 'rotate(1turn)' }], { duration: 800, iterations: Infinity });
  }
  const message = doc.createElement('p');
  message.textContent = text;
  Object.assign(message.style, { margin: '0', fontWeight: '600' });
  card.append(spinner, message);
  doc.body.replaceChildren(card);
}
