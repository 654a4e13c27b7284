/**
 * Adds lucide icons to the islands build's own set (src/web/islands/icons.ts): one module per icon,
 * with lucide's markup as lucide-react renders it (src/web/islands/icons.test.tsx compares both).
 *
 *     npx tsx scripts/island-icons.ts Wallet Plus LogOut
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as lucide from 'lucide-react';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

const ICONS = resolve(import.meta.dirname, '../src/web/islands/icons');
const INDEX = resolve(import.meta.dirname, '../src/web/islands/icons.ts');
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([A-Za-z])([0-9])/g, '$1-$2').toLowerCase();

let index = readFileSync(INDEX, 'utf8');
for (const name of process.argv.slice(2)) {
  const Icon = (lucide as unknown as Record<string, ComponentType<object>>)[name];
  if (!Icon) throw new Error(`lucide-react has no icon ${name}`);
  const markup = renderToStaticMarkup(createElement(Icon));
  const names = /class="lucide ([^"]*)"/.exec(markup)![1]!.split(' ').map((c) => c.replace(/^lucide-/, ''));
  const inner = markup.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '');
  const shapes = [...inner.matchAll(/<(\w+)([^>]*?)\/?>/g)].map(([, tag, attrs]) => [tag, Object.fromEntries([...attrs!.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, k, v]) => [k, v]))]);
  const file = kebab(name);
  const path = `${ICONS}/${file}.ts`;
  if (!existsSync(path)) {
    const data = JSON.stringify(shapes).replace(/"(\w+)":/g, '$1:');
    writeFileSync(path, `import { icon } from '../icon';\n\nexport const ${name} = /* @__PURE__ */ icon('${names.join(' ')}', ${data});\n`);
  }
  const line = `export { ${name} } from './icons/${file}';`;
  if (!index.includes(line)) index += `${line}\n`;
}
// The exports in alphabetical order, after the module's comment.
const [head, ...rest] = index.split(/\n(?=export )/);
const exports = rest.join('\n').trim().split('\n').sort((a, b) => a.localeCompare(b));
writeFileSync(INDEX, `${head}\n${exports.join('\n')}\n`);
