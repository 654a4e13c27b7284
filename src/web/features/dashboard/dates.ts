/** Date and time of an order or payment in the page's locale (az-AZ for az): 22.11.2026 14:05. */
export function dateTimeFormat(locale: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}
