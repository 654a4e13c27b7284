import { describe, expect, it } from 'vitest';
import { paragraphs } from './api';

describe('blog text', () => {
  it('splits a post body into paragraphs on blank lines, keeping single line breaks inside one', () => {
    expect(paragraphs('One.\n\nTwo\nlines.\r\n\r\n\n  Three.  \n\n')).toEqual([['One.'], ['Two', 'lines.'], ['Three.']]);
    expect(paragraphs('')).toEqual([]);
    // Markup stays text: React escapes it when rendering the strings.
    expect(paragraphs('<script>alert(1)</script>')).toEqual([['<script>alert(1)</script>']]);
  });
});
