import { describe, expect, it } from 'vitest';
import { classesIn, classesNeeded, criticalCss, parseStylesheet } from './criticalCss';
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
    const css = '@property --x{syntax:"*";inherits:false}@keyframes spin{to{transform:rotate(1turn)}}.q:after{content:"{;}"}.r{content:"}"}';
    expect(cut(css, '<i class="q">')).toBe('@property --x{syntax:"*";inherits:false}@keyframes spin{to{transform:rotate(1turn)}}.q:after{content:"{;}"}');
  });

  it('cuts the public pages’ stylesheet to a page without losing a rule its classes need', async () => {
    const { public: css } = await productionStylesheets();
    const sheet = parseStylesheet(css);
    const html = '<header class="flex items-center md:hidden"><a class="text-brand-600 hover:underline">x</a></header>';
    const page = criticalCss(sheet, html);
    expect(page.length).toBeLessThan(css.length / 2);
    // What a page with every class of the stylesheet gets is the stylesheet itself.
    const everyClass = [...css.matchAll(/\.((?:\\.|[\w-])+)/g)].map(([, name]) => name!.replace(/\\(.)/g, '$1'));
    expect(criticalCss(sheet, `<p class="${everyClass.join(' ').replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">`)).toBe(css.trim());
    for (const name of ['flex', 'items-center', 'md:hidden', 'text-brand-600', 'hover:underline']) {
      const escaped = name.replace(/[:]/g, '\\:');
      expect(page, name).toContain(`.${escaped}`);
    }
  });
});
