import { describe, expect, it } from 'vitest';
import { classesIn, classesNeeded, criticalCss, elementsNeeded, parseStylesheet } from './criticalCss';
import { productionStylesheets } from '../../web/testing/build';

const cut = (css: string, html: string) => criticalCss(parseStylesheet(css), html);

describe('classesNeeded', () => {
  it('reads escaped class names, and none inside brackets', () => {
    expect(classesNeeded('.md\\:flex>li')).toEqual(['md:flex']);
    expect(classesNeeded('.w-1\\/2')).toEqual(['w-1/2']);
    expect(classesNeeded('.\\[\\&_td\\]\\:px-3 td')).toEqual(['[&_td]:px-3']);
    expect(classesNeeded('.group-hover\\:underline:is(:where(.group):hover *)')).toEqual(['group-hover:underline']);
    expect(classesNeeded('.a.b:not(.c) .d[data-x=".e"]')).toEqual(['a', 'b', 'd']);
    expect(classesNeeded('.\\31 0x')).toEqual(['10x']);
    expect(classesNeeded(':root,:host')).toEqual([]);
  });
});

describe('elementsNeeded', () => {
  it('reads the elements a selector names outside brackets, and a form field for its own parts', () => {
    expect(elementsNeeded('ul>li.a')).toEqual(['<ul', '<li']);
    expect(elementsNeeded('h1')).toEqual(['<h1']);
    expect(elementsNeeded(':where(select:is([multiple],[size])) optgroup option')).toEqual(['<optgroup', '<option']);
    expect(elementsNeeded('*,:after')).toEqual([]);
    expect(elementsNeeded('.group:hover .x')).toEqual([]);
    expect(elementsNeeded('abbr:where([title])')).toEqual(['<abbr']);
    expect(elementsNeeded('[data-x="a b"] td')).toEqual(['<td']);
    expect(elementsNeeded('.\\[\\&_td\\]\\:px-3 td')).toEqual(['<td']);
    expect(elementsNeeded('::-webkit-datetime-edit-year-field')).toEqual(['<:field']);
    expect(elementsNeeded('.placeholder\\:text-slate-400::placeholder')).toEqual(['<:field']);
    expect(elementsNeeded(':root,:host')).toEqual([]);
  });
});

describe('classesIn', () => {
  it('reads every class attribute, as the browser decodes it', () => {
    expect([...classesIn('<a class="x  y"></a><p class=\'z\'><b class="[&amp;_td]:px-3 a&#x27;b">')]).toEqual(['x', 'y', 'z', '[&_td]:px-3', "a'b"]);
  });
});

describe('criticalCss', () => {
  it('keeps the rules whose classes the page has, and those without a class', () => {
    const css = '*,:before{box-sizing:border-box}.a{color:red}.b{color:blue}.a.b{color:green}h1{margin:0}';
    expect(cut(css, '<h1 class="a">x</h1>')).toBe('*,:before{box-sizing:border-box}.a{color:red}h1{margin:0}');
  });

  it('keeps a rule when any one of its selectors applies', () => {
    expect(cut('.a,.b{color:red}.c,.d{color:blue}', '<p class="b">')).toBe('.a,.b{color:red}');
  });

  it('keeps the kept rules of a block in their order, and drops a block left empty', () => {
    const css = '@layer theme,base,utilities;@layer utilities{.a{color:red}.b{color:blue}}@media(min-width:40rem){.b{color:blue}}@supports (color:red){@media(hover:hover){.a:hover{color:green}}}';
    expect(cut(css, '<p class="a">')).toBe('@layer theme,base,utilities;@layer utilities{.a{color:red}}@supports (color:red){@media(hover:hover){.a:hover{color:green}}}');
  });

  it('keeps @property, @keyframes and @font-face whole, and braces or semicolons inside strings', () => {
    const css = '@property --x{syntax:"*";inherits:false}@keyframes spin{to{transform:rotate(1turn)}}@font-face{font-family:A;src:url(a.woff2)}.q:after{content:"{;}";translate:var(--x);animation:spin 1s}.r{content:"}"}';
    expect(cut(css, '<i class="q">')).toBe('@property --x{syntax:"*";inherits:false}@keyframes spin{to{transform:rotate(1turn)}}@font-face{font-family:A;src:url(a.woff2)}.q:after{content:"{;}";translate:var(--x);animation:spin 1s}');
  });

  it('keeps the variables, @property and @keyframes the kept rules use, through other variables too, and drops the rest', () => {
    const css =
      '@layer theme{:root,:host{--a:1px;--b:var(--c);--c:2px;--d:3px;--spin:spin 1s linear infinite;--unused:var(--d)}}' +
      '@layer properties{@supports (x:y){*,:before{--tw-x:0;--tw-y:0}}}' +
      '.x{width:var(--b);translate:var(--tw-x)}.y{width:var(--d);--tw-y:1px;translate:0 var(--tw-y)}.s{animation:var(--spin)}' +
      '@property --tw-x{syntax:"*";inherits:false;initial-value:0}@property --tw-y{syntax:"*";inherits:false;initial-value:0}' +
      '@keyframes spin{to{rotate:1turn}}@keyframes pulse{50%{opacity:.5}}';
    expect(cut(css, '<p class="x">')).toBe('@layer theme{:root,:host{--b:var(--c);--c:2px}}@layer properties{@supports (x:y){*,:before{--tw-x:0}}}.x{width:var(--b);translate:var(--tw-x)}@property --tw-x{syntax:"*";inherits:false;initial-value:0}');
    expect(cut(css, '<p class="s">')).toBe('@layer theme{:root,:host{--spin:spin 1s linear infinite}}.s{animation:var(--spin)}@keyframes spin{to{rotate:1turn}}');
    // The page's own style attributes read variables too.
    expect(cut(css, '<p style="margin:var(--a)">')).toBe('@layer theme{:root,:host{--a:1px}}');
  });

  it('keeps a rule when the page has the elements its selector names, and a form field’s parts only with a field', () => {
    const css = 'hr{height:0}table{border-collapse:collapse}ul li{margin:0}::placeholder{opacity:1}.a td{padding:0}';
    expect(cut(css, '<ul><li class="a">x</li></ul>')).toBe('ul li{margin:0}');
    expect(cut(css, '<HR><table class="a"><tr><td>1</td></tr></table><textarea></textarea>')).toBe('hr{height:0}table{border-collapse:collapse}::placeholder{opacity:1}.a td{padding:0}');
  });

  it('keeps whole a rule without a class that declares more than custom properties', () => {
    expect(cut('*,:before{--a:1px;box-sizing:border-box}.x{color:red}', '<p>')).toBe('*,:before{--a:1px;box-sizing:border-box}');
  });

  it('cuts the public pages’ stylesheet to a page without losing a rule its classes need', async () => {
    const { public: css } = await productionStylesheets();
    const sheet = parseStylesheet(css);
    const html = '<header class="flex items-center md:hidden"><a class="text-brand-600 hover:underline">x</a></header>';
    const page = criticalCss(sheet, html);
    expect(page.length).toBeLessThan(css.length / 2);
    // A page with every class and element of the stylesheet gets every rule with a class, and each @property
    // the stylesheet reads with var(); none it never reads.
    const everyClass = [...css.matchAll(/\.((?:\\.|[\w-])+)/g)].map(([, name]) => name!.replace(/\\(.)/g, '$1'));
    const everyElement = [...css.matchAll(/([^{};]+)\{/g)].flatMap(([, prelude]) => prelude!.split(',').flatMap(elementsNeeded)).map((need) => (need === '<:field' ? '<input' : need));
    const all = criticalCss(sheet, `<p class="${everyClass.join(' ').replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">${[...new Set(everyElement)].map((e) => `${e}>`).join('')}`);
    const withClass = [...css.matchAll(/[^{};]*\.[^{};]*\{[^{}]*\}/g)].map(([rule]) => rule.replace(/^@[^{]*\{/, ''));
    expect(withClass.length).toBeGreaterThan(100);
    for (const rule of withClass) expect(all, rule).toContain(rule);
    for (const [, name] of css.matchAll(/@property (--[\w-]+)/g)) {
      const read = css.includes(`var(${name})`) || css.includes(`var(${name},`);
      expect(all.includes(`@property ${name}{`), name).toBe(read);
    }
    expect(page.length).toBeLessThan(all.length);
    for (const name of ['flex', 'items-center', 'md:hidden', 'text-brand-600', 'hover:underline']) {
      const escaped = name.replace(/[:]/g, '\\:');
      expect(page, name).toContain(`.${escaped}`);
    }
  });
});
