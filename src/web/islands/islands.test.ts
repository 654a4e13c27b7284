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
});
