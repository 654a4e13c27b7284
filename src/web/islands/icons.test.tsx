import * as lucide from 'lucide-react';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import * as icons from './icons';

describe('the islands build’s icons', () => {
  it('render the markup lucide-react renders on the server, with and without props', () => {
    const names = Object.keys(icons);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const ours = (icons as Record<string, ComponentType<object>>)[name]!;
      const theirs = (lucide as unknown as Record<string, ComponentType<object>>)[name];
      expect(theirs, name).toBeDefined();
      for (const props of [{}, { className: 'size-5 text-brand-600', 'aria-hidden': 'true' }, { 'aria-label': 'Open', size: 16, strokeWidth: 1.5 }]) {
        expect(renderToStaticMarkup(createElement(ours, props)), name).toBe(renderToStaticMarkup(createElement(theirs!, props)));
      }
    }
  });
});
