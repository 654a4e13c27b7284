import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineStylesheets, preloadLinks } from './renderer';

describe('inlineStylesheets', () => {
  it('replaces each stylesheet link by its file as a style block, keeping the rest of the template', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'artim-renderer-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets/index-abc.css'), 'body{color:red}.a:after{content:"</style>$&"}');
    const template = [
      '<head>',
      '<script type="module" crossorigin src="/assets/index-xyz.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">',
      '</head>',
    ].join('\n');

    const html = await inlineStylesheets(template, dir);

    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-xyz.js"></script>');
    // The CSS arrives whole; a "</" inside it cannot close the style element early.
    expect(html).toContain('<style>body{color:red}.a:after{content:"<\\/style>$&"}</style>');
    expect(html.match(/<\/style>/g)).toHaveLength(1);
  });

  it('fails loudly when the built stylesheet is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'artim-renderer-'));
    await expect(inlineStylesheets('<link rel="stylesheet" href="/assets/gone.css">', dir)).rejects.toThrow(/ENOENT/);
  });
});

describe('preloadLinks', () => {
  it('lists the matched pages’ chunks and their imports, never the entry, each once; other routes add nothing', () => {
    const manifest = {
      'entry.tsx': { file: 'assets/entry.js', isEntry: true },
      'features/home/HomePage.tsx': { file: 'assets/Home.js', imports: ['_Button.js', 'entry.tsx'], css: ['assets/home.css'] },
      '_Button.js': { file: 'assets/Button.js', imports: ['_cn.js'] },
      '_cn.js': { file: 'assets/cn.js' },
      'features/about/AboutPage.tsx': { file: 'assets/About.js' },
    };
    const links = preloadLinks(manifest, ['root', 'public', 'features/home/HomePage.tsx', 'features/home/HomePage.tsx#x']).split('\n').map((l) => l.trim());
    expect(links).toEqual([
      '<link rel="stylesheet" href="/assets/home.css" />',
      '<link rel="modulepreload" crossorigin href="/assets/Home.js" />',
      '<link rel="modulepreload" crossorigin href="/assets/Button.js" />',
      '<link rel="modulepreload" crossorigin href="/assets/cn.js" />',
    ]);
    expect(preloadLinks(manifest, ['root', 'no-such-page'])).toBe('');
  });
});
