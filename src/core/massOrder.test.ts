import { describe, expect, it } from 'vitest';
import { massLineKey, parseMassOrder } from './massOrder';

describe('parseMassOrder', () => {
  it('reads service_id|link|quantity per line, numbering lines as they are in the text', () => {
    const text = '12|https://instagram.com/a|100\r\n\n  7 | https://tiktok.com/@b/video/1 | 250  \nbad line\n5|https://x.com/a?b=1|c|300\n9|https://x.com/a|1.5\n|https://x.com/a|10';
    expect(parseMassOrder(text)).toEqual([
      { line: 1, ok: true, serviceId: '12', link: 'https://instagram.com/a', quantity: 100 },
      { line: 3, ok: true, serviceId: '7', link: 'https://tiktok.com/@b/video/1', quantity: 250 },
      { line: 4, ok: false, text: 'bad line' },
      { line: 5, ok: true, serviceId: '5', link: 'https://x.com/a?b=1|c', quantity: 300 },
      { line: 6, ok: false, text: '9|https://x.com/a|1.5' },
      { line: 7, ok: false, text: '|https://x.com/a|10' },
    ]);
    expect(parseMassOrder(' \n\n')).toEqual([]);
  });

  it('gives each line of a batch its own idempotency key the order rules accept', () => {
    const key = massLineKey('3f1c9a2e-7b4d-4c1e-9a6f-0e2d5b8c7a11', 100);
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(key).not.toMatch(/^api_/);
    expect(massLineKey('batch-0001', 1)).not.toBe(massLineKey('batch-0001', 11));
  });
});
