import { describe, expect, it } from 'vitest';
import { paragraphs } from './api';
import { formatDay } from './format';

describe('blog text', () => {
  it('splits a post body into paragraphs on blank lines, keeping single line breaks inside one', () => {
    expect(paragraphs('One.\n\nTwo\nlines.\r\n\r\n\n  Three.  \n\n')).toEqual([['One.'], ['Two', 'lines.'], ['Three.']]);
    expect(paragraphs('')).toEqual([]);
    // Markup stays text: React escapes it when rendering the strings.
    expect(paragraphs('<script>alert(1)</script>')).toEqual([['<script>alert(1)</script>']]);
  });

  it('writes publication dates the same way on the server and in the browser', () => {
    expect(formatDay('2026-11-20', 'az')).toBe('20 noyabr 2026');
    expect(formatDay('2026-02-01', 'tr')).toBe('1 Şubat 2026');
    expect(formatDay('2026-08-15', 'en')).toBe('August 15, 2026');
  });
});
