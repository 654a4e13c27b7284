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

  it('every island that waits to be asked is asked for by name somewhere, and only those are', () => {
    const waiting = new Set<string>();
    const asked = new Set<string>();
    for (const file of sources('src/web')) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bisland\('([^']+)', \w+, \{ wake: 'asked' \}\)/g)) waiting.add(m[1]!);
      for (const m of text.matchAll(/\baskIsland\('([^']+)'\)/g)) asked.add(m[1]!);
    }
    expect([...waiting].sort()).toEqual(['ConsultationHost', 'Notifications']);
    expect([...asked].sort()).toEqual([...waiting].sort());
  });
});
