import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISLANDS } from './registry';

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\./.test(name) ? [path] : [];
  });

describe('islands', () => {
  it('every island a page marks is in the registry the browser hydrates from', () => {
    const used = new Set<string>();
    for (const file of sources('src/web')) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bisland\('([^']+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(5);
    for (const name of used) expect(Object.keys(ISLANDS), name).toContain(name);
  });

  it('every island that waits to be asked is asked for by name somewhere; the header is asked for the sign-in dialog it holds', () => {
    const waiting = new Set<string>();
    const asked = new Set<string>();
    for (const file of sources('src/web')) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bisland\('([^']+)', \w+, \{ wake: 'asked' \}\)/g)) waiting.add(m[1]!);
      for (const m of text.matchAll(/\baskIsland\('([^']+)'\)/g)) asked.add(m[1]!);
    }
    expect([...waiting].sort()).toEqual(['ConsultationHost', 'Notifications']);
    // The header waits to be touched, but the sign-in dialog opened from another island (Buy on the
    // order page, a consultation asked for by a guest) is its own to show: it is asked to wake.
    expect([...asked].sort()).toEqual([...waiting, 'Header'].sort());
  });

  it('only islands with work of their own at load wake by themselves; the rest wait to be touched or asked (docs/decisions/0027)', () => {
    const idle = new Set<string>();
    const touched = new Map<string, string>();
    // ./island.tsx's own example left out.
    for (const file of sources('src/web').filter((f) => !f.endsWith('island.tsx'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bisland\('([^']+)', \w+\)/g)) idle.add(m[1]!);
      for (const m of text.matchAll(/\bisland\('([^']+)', \w+, \{ wake: 'touched'(?:, query: (\w+))?(?:, text: (\[[^\]]*\]))? \}\)/g)) touched.set(m[1]!, [m[2], m[3]].filter(Boolean).join(' '));
    }
    // The order page loads its service list, the dashboard its counters and the active orders too.
    // (The payment return pages' checks run on the server while it writes them: docs/decisions/0035.)
    expect([...idle].sort()).toEqual(['Dashboard', 'Order']);
    // The header opens the sign-in dialog the home page's address asks for, with its text (docs/decisions/0031).
    // The lookup acts on no parameter at load: the server rendered what a number in the address finds
    // (features/tracking/TrackPage.tsx).
    expect(Object.fromEntries(touched)).toEqual({ Header: "ADDRESS_PARAMS ['auth']", ConsultButton: '', ContactForm: '', Track: '' });
  });
});
