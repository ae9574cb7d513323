import { describe, expect, it } from 'vitest';
import { removeUnusedCss, usedClasses } from './unused-css';

const code = [
  'const a=`card`;function b(c){return`btn-${c}`}',
  'let n=e===`xs`?``:`-${e}`;l.push(`col${n}-${t}`);',
  '<div class="auth-page"></div>',
];
const css = `
:root { --cui-primary: #321fdb; }
body { margin: 0; }
.card { padding: 1rem; }
.btn-outline-primary { color: blue; }
.col-md-6 { width: 50%; }
.carousel { display: block; }
.carousel .carousel-item { display: none; }
.card .carousel-item { display: none; }
.auth-page, .offcanvas { display: flex; }
.card:not(.toast) { margin: 0; }
@media (min-width: 768px) { .offcanvas-md { display: none; } .card { margin: 1rem; } }
[data-x] { color: red; }
`;

describe('unused CSS', () => {
  const used = usedClasses(code);

  it('reads words and run-time class prefixes from the code', () => {
    expect(used.words.has('card')).toBe(true);
    expect(used.words.has('auth-page')).toBe(true);
    expect(used.prefixes).toEqual(expect.arrayContaining(['btn-', 'col']));
  });

  it('drops rules naming a class no code uses, keeps the rest', () => {
    const out = removeUnusedCss(css, used);
    for (const kept of [
      ':root{--cui-primary:#321fdb}',
      'body{margin:0}',
      '.card{padding:1rem}',
      '.btn-outline-primary{color:#00f}',
      '.col-md-6{width:50%}',
      '.auth-page,.offcanvas{display:flex}',
      '.card:not(.toast){margin:0}',
      '@media (width>=768px){.card{margin:1rem}}',
      '[data-x]{color:red}',
    ])
      expect(out).toContain(kept);
    for (const gone of ['.carousel{', '.carousel .carousel-item', '.card .carousel-item', '.offcanvas-md'])
      expect(out).not.toContain(gone);
  });
});
