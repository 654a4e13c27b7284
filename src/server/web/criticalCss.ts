/**
 * A public page's own stylesheet: the rules of the public pages' stylesheet (web/styles.public.css)
 * that can apply to the page's HTML (docs/decisions/0030). The page's first paint needs no other;
 * the whole stylesheet follows when an island wakes (web/islands/stylesheet.ts), before anything
 * React renders that the server did not.
 *
 * A style rule is kept when one of its selectors names only classes the page's HTML holds (class
 * names inside `:is()`, `:where()`, `:not()` or `:has()` are not required, so such rules stay) and
 * only elements it holds (`hr`, `table`, `ul li`; a form field's own parts, `::placeholder` or a
 * date field's, need an input, a text area or a select); a rule without either (the theme's
 * variables, the base styles of every element) always stays, and so do `@font-face` and the like.
 * `@media`, `@supports`, `@layer` and `@container` blocks keep the
 * rules of theirs that stay, in the same order, and go when none does.
 *
 * Then what only the dropped rules used goes too: a custom property's declaration in a rule
 * without a class that declares nothing else (the theme's variables, the fallbacks of the
 * `properties` layer), and its `@property`, stay when the kept styles (or the page's own `style`
 * attributes) read the property with `var()`, directly or through another kept variable; a
 * `@keyframes` stays when the kept styles name it.
 */

/** A rule with what each of its selectors needs (classes, elements), a block of rules, or a statement kept as it is. */
type Node =
  | { kind: 'rule'; text: string; needs: string[][] }
  | { kind: 'block'; prelude: string; children: Node[] }
  | { kind: 'kept'; text: string }
  /** A rule without a class that declares custom properties alone: each with its text. */
  | { kind: 'variables'; selector: string; declarations: { name: string; text: string }[] }
  /** `@property --name` or `@keyframes name`: kept when what the page keeps uses the name. */
  | { kind: 'named'; text: string; name: string; at: 'property' | 'keyframes' };

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

/** `text` split at its top-level `separator`s (brackets and strings skipped). */
function splitTop(text: string, separator: string): string[] {
  const out: string[] = [];
  for (let i = 0; i <= text.length; ) {
    const at = findTop(text, i, separator);
    out.push(text.slice(i, at));
    i = at + 1;
  }
  return out;
}

/** The selectors of a rule's prelude, split at its top-level commas. */
const selectorsOf = (prelude: string): string[] => splitTop(prelude, ',');

/**
 * Pseudo-elements and pseudo-classes of form fields alone (the base styles' date, number, search,
 * file and placeholder parts): a selector with one needs a field on the page.
 */
const FIELD_PSEUDO = /::placeholder|::file-selector-button|::-webkit-(?:datetime-edit|date-and-time-value|calendar-picker-indicator|inner-spin-button|outer-spin-button|search-decoration)|:-moz-ui-invalid/;
/** What the page's set holds for a form field (input, textarea, select). */
const FIELD = '<:field';
const FIELD_ELEMENTS = new Set(['input', 'textarea', 'select']);

/**
 * The elements a selector names outside any brackets, each as `<name`, and `<:field` for a form
 * field's pseudo-element: `ul > li.a` needs `<ul` and `<li`, `::placeholder` a field.
 */
export function elementsNeeded(selector: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let compoundStart = true;
  for (let i = 0; i < selector.length; ) {
    const skipped = skipOpaque(selector, i);
    if (skipped !== i) {
      i = skipped;
      compoundStart = false;
      continue;
    }
    const c = selector[i]!;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    if (depth === 0 && /[\s>+~]/.test(c)) {
      compoundStart = true;
      i++;
      continue;
    }
    if (depth === 0 && compoundStart && /[a-zA-Z]/.test(c)) {
      const name = /^[a-zA-Z][\w-]*/.exec(selector.slice(i))![0];
      names.push(`<${name.toLowerCase()}`);
      i += name.length;
    } else i++;
    compoundStart = false;
  }
  if (FIELD_PSEUDO.test(selector)) names.push(FIELD);
  return names;
}

/** What a selector needs of a page: its classes and its elements. */
const needsOf = (selector: string): string[] => [...classesNeeded(selector), ...elementsNeeded(selector)];

const CUSTOM_PROPERTY = /^\s*(--[\w-]+)\s*:/;
const NAMED_AT_RULE = /^@(property|keyframes)\s+([\w-]+)/i;

/** A style rule: its custom properties when it has no class and declares nothing else. */
function ruleNode(prelude: string, body: string, text: string): Node {
  const needs = selectorsOf(prelude).map(needsOf);
  const declarations = splitTop(body, ';').filter((d) => d.trim());
  if (declarations.length && needs.every((names) => !names.length) && declarations.every((d) => CUSTOM_PROPERTY.test(d)))
    return { kind: 'variables', selector: prelude, declarations: declarations.map((d) => ({ name: CUSTOM_PROPERTY.exec(d)![1]!, text: d.trim() })) };
  return { kind: 'rule', text, needs };
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
    } else if (NAMED_AT_RULE.test(prelude)) {
      const [, at, name] = NAMED_AT_RULE.exec(prelude)!;
      nodes.push({ kind: 'named', text: css.slice(i, close + 1), name: name!, at: at!.toLowerCase() as 'property' | 'keyframes' });
    } else if (prelude.startsWith('@') || findTop(body, 0, '{') < body.length) {
      // `@font-face`, another at-rule, or a rule with nested rules: kept whole.
      nodes.push({ kind: 'kept', text: css.slice(i, close + 1) });
    } else {
      nodes.push(ruleNode(prelude, body, css.slice(i, close + 1)));
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

/** What the HTML holds that selectors can need: its classes, its elements (`<name`), and `<:field` when it has a form field. */
function presentIn(html: string): Set<string> {
  const present = classesIn(html);
  for (const [, name] of html.matchAll(/<([a-zA-Z][\w-]*)/g)) {
    const element = name!.toLowerCase();
    present.add(`<${element}`);
    if (FIELD_ELEMENTS.has(element)) present.add(FIELD);
  }
  return present;
}

/** The nodes that can style a page holding `present` (./presentIn): blocks with their kept children, none left empty. */
function keep(nodes: Node[], present: Set<string>): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    if (node.kind === 'rule') {
      if (node.needs.some((names) => names.every((name) => present.has(name)))) out.push(node);
    } else if (node.kind === 'block') {
      const children = keep(node.children, present);
      if (children.length) out.push({ ...node, children });
    } else out.push(node);
  }
  return out;
}

/** What a page's kept rules use: the custom properties read with `var()` and the keyframes' names. */
interface Used {
  variables: Set<string>;
  /** The text of the kept styles, in which a keyframes' name is looked for. */
  text: string;
}

const VAR_READ = /var\(\s*(--[\w-]+)/g;
const readsIn = (text: string) => [...text.matchAll(VAR_READ)].map((m) => m[1]!);

/** The kept styles' text, without the variables' rules and the named at-rules. */
function plainText(nodes: Node[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'rule' || node.kind === 'kept') out += node.text;
    else if (node.kind === 'block') out += plainText(node.children);
  }
  return out;
}

function allDeclarations(nodes: Node[], into: Map<string, string[]> = new Map()): Map<string, string[]> {
  for (const node of nodes) {
    if (node.kind === 'variables') for (const d of node.declarations) into.set(d.name, [...(into.get(d.name) ?? []), d.text]);
    else if (node.kind === 'block') allDeclarations(node.children, into);
  }
  return into;
}

/** The variables the kept styles and `html` read, and those their kept declarations read in turn. */
function used(nodes: Node[], html: string): Used {
  const plain = plainText(nodes);
  const declarations = allDeclarations(nodes);
  const variables = new Set<string>();
  const pending = [...readsIn(plain), ...readsIn(html)];
  const values: string[] = [];
  while (pending.length) {
    const name = pending.pop()!;
    if (variables.has(name)) continue;
    variables.add(name);
    for (const text of declarations.get(name) ?? []) {
      values.push(text);
      pending.push(...readsIn(text));
    }
  }
  return { variables, text: plain + values.join(';') };
}

const namedIn = (name: string, text: string) => new RegExp(`(^|[^\\w-])${name.replace(/[-]/g, '\\-')}($|[^\\w-])`).test(text);

function render(nodes: Node[], use: Used): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'rule' || node.kind === 'kept') out += node.text;
    else if (node.kind === 'variables') {
      const kept = node.declarations.filter((d) => use.variables.has(d.name));
      if (kept.length) out += `${node.selector}{${kept.map((d) => d.text).join(';')}}`;
    } else if (node.kind === 'named') {
      if (node.at === 'property' ? use.variables.has(node.name) : namedIn(node.name, use.text)) out += node.text;
    } else {
      const inner = render(node.children, use);
      if (inner) out += `${node.prelude}{${inner}}`;
    }
  }
  return out;
}

/** The part of `sheet` that can style `html`. */
export function criticalCss(sheet: ParsedStylesheet, html: string): string {
  const kept = keep(sheet.nodes, presentIn(html));
  return render(kept, used(kept, html));
}
