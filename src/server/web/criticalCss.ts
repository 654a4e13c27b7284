/**
 * A public page's own stylesheet: the rules of the public pages' stylesheet (web/styles.public.css)
 * that can apply to the page's HTML (docs/decisions/0030). The page's first paint needs no other;
 * the whole stylesheet follows when an island wakes (web/islands/stylesheet.ts), before anything
 * React renders that the server did not.
 *
 * A style rule is kept when one of its selectors names only classes the page's HTML holds (class
 * names inside `:is()`, `:where()`, `:not()` or `:has()` are not required, so such rules stay); a rule
 * without a class (the theme's variables, the base styles) always stays, and so do `@property`,
 * `@keyframes` and `@font-face`. `@media`, `@supports`, `@layer` and `@container` blocks keep the
 * rules of theirs that stay, in the same order, and go when none does.
 */

/** A rule with the classes each of its selectors needs, a block of rules, or a statement kept as it is. */
type Node = { kind: 'rule'; text: string; needs: string[][] } | { kind: 'block'; prelude: string; children: Node[] } | { kind: 'kept'; text: string };

/** At-rules whose block holds rules. */
const GROUPS = /^@(media|supports|layer|container|scope|starting-style)\b/i;

/** The index just past the end of the string, comment or escape starting at `i`, or `i` itself. */
function skipOpaque(css: string, i: number): number {
  const c = css[i];
  if (c === '\\') return i + 2;
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < css.length && css[j] !== c) j += css[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === '/' && css[i + 1] === '*') {
    const end = css.indexOf('*/', i + 2);
    return end < 0 ? css.length : end + 2;
  }
  return i;
}

/** The index of the first of `chars` at depth 0 from `i` (brackets, strings and escapes skipped), or the end. */
function findTop(css: string, i: number, chars: string): number {
  let depth = 0;
  while (i < css.length) {
    const skipped = skipOpaque(css, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = css[i]!;
    if (depth === 0 && chars.includes(c)) return i;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    i++;
  }
  return css.length;
}

/** The class names a selector needs, outside any brackets: `.md\:flex > li` needs `md:flex`. */
export function classesNeeded(selector: string): string[] {
  const names: string[] = [];
  let depth = 0;
  for (let i = 0; i < selector.length; ) {
    const skipped = skipOpaque(selector, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = selector[i]!;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '.' && depth === 0) {
      let name = '';
      i++;
      while (i < selector.length) {
        const d = selector[i]!;
        if (d === '\\') {
          // An escaped character (Tailwind's `\:`, `\/`, `\[`), or a hexadecimal escape.
          const hex = /^[0-9a-fA-F]{1,6} ?/.exec(selector.slice(i + 1));
          if (hex) {
            name += String.fromCodePoint(parseInt(hex[0], 16));
            i += 1 + hex[0].length;
          } else {
            name += selector[i + 1] ?? '';
            i += 2;
          }
        } else if (/[\w-]/.test(d) || d.charCodeAt(0) > 127) {
          name += d;
          i++;
        } else break;
      }
      names.push(name);
      continue;
    }
    i++;
  }
  return names;
}

/** The selectors of a rule's prelude, split at its top-level commas. */
function selectorsOf(prelude: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= prelude.length; ) {
    const comma = findTop(prelude, i, ',');
    out.push(prelude.slice(i, comma));
    i = comma + 1;
  }
  return out;
}

function parseNodes(css: string, from: number, to: number): Node[] {
  const nodes: Node[] = [];
  let i = from;
  while (i < to) {
    while (i < to && /\s/.test(css[i]!)) i++;
    if (i >= to) break;
    const stop = Math.min(findTop(css, i, '{;}'), to);
    if (stop >= to || css[stop] !== '{') {
      // A statement (`@layer a,b;`, `@import …;`): kept.
      const text = css.slice(i, Math.min(stop + 1, to)).trim();
      if (text && text !== '}') nodes.push({ kind: 'kept', text });
      i = stop + 1;
      continue;
    }
    const close = findTop(css, stop + 1, '}');
    const prelude = css.slice(i, stop).trim();
    const body = css.slice(stop + 1, close);
    if (GROUPS.test(prelude)) {
      nodes.push({ kind: 'block', prelude, children: parseNodes(css, stop + 1, close) });
    } else if (prelude.startsWith('@') || findTop(body, 0, '{') < body.length) {
      // `@property`, `@keyframes`, `@font-face`, or a rule with nested rules: kept whole.
      nodes.push({ kind: 'kept', text: css.slice(i, close + 1) });
    } else {
      nodes.push({ kind: 'rule', text: css.slice(i, close + 1), needs: selectorsOf(prelude).map(classesNeeded) });
    }
    i = close + 1;
  }
  return nodes;
}

/** A stylesheet read once, to cut a page's own part from for every page. */
export interface ParsedStylesheet {
  nodes: Node[];
  /** Its whole text, as it is. */
  text: string;
}

export function parseStylesheet(css: string): ParsedStylesheet {
  return { nodes: parseNodes(css, 0, css.length), text: css };
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
/** An attribute value as the browser reads it (React writes `&`, quotes and angle brackets as entities). */
const decodeAttribute = (value: string) =>
  value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) =>
    name[0] === '#' ? String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))) : (ENTITIES[name.toLowerCase()] ?? whole),
  );

/** Every class name in the HTML's `class` attributes. */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass=(?:"([^"]*)"|'([^']*)')/g))
    for (const name of decodeAttribute(match[1] ?? match[2] ?? '').split(/\s+/)) if (name) classes.add(name);
  return classes;
}

function keep(nodes: Node[], classes: Set<string>): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'kept') out += node.text;
    else if (node.kind === 'rule') {
      if (node.needs.some((names) => names.every((name) => classes.has(name)))) out += node.text;
    } else {
      const inner = keep(node.children, classes);
      if (inner) out += `${node.prelude}{${inner}}`;
    }
  }
  return out;
}

/** The part of `sheet` that can style `html`. */
export function criticalCss(sheet: ParsedStylesheet, html: string): string {
  return keep(sheet.nodes, classesIn(html));
}
