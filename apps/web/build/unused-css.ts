import { createHash } from 'node:crypto';
import { transform, type Selector, type SelectorComponent } from 'lightningcss';
import type { Plugin } from 'vite';

/**
 * The class names a built app can put on an element, read from its code (scripts and HTML): every word that could be
 * a class (`card`, `form-control`), and every prefix a class is built from at run time (CoreUI's `btn-${color}`,
 * `col${bp}-${n}`: the text before a `${`).
 */
export interface UsedClasses {
  words: ReadonlySet<string>;
  prefixes: readonly string[];
}

export function usedClasses(code: readonly string[]): UsedClasses {
  const words = new Set<string>();
  const prefixes = new Set<string>();
  for (const text of code) {
    for (const [word] of text.matchAll(/[A-Za-z_][\w-]*/g)) words.add(word);
    for (const [, prefix] of text.matchAll(/(?<![\w$.])([A-Za-z_][\w-]*)\$\{/g)) prefixes.add(prefix!);
  }
  return { words, prefixes: [...prefixes] };
}

function classUsed(name: string, used: UsedClasses): boolean {
  return (
    used.words.has(name) ||
    used.prefixes.some((p) => name.startsWith(p.endsWith('-') ? p : `${p}-`) || (name.startsWith(p) && p.length > 3))
  );
}

/**
 * A selector can match only when every class of its own compounds is used: classes inside `:not()`, `:is()`,
 * `:where()`, `:has()` are not looked at (the selector is kept whatever they name).
 */
function selectorUsed(selector: Selector, used: UsedClasses): boolean {
  return selector.every((part: SelectorComponent) => part.type !== 'class' || classUsed(part.name, used));
}

/**
 * Removes the style rules of a stylesheet whose every selector names a class the app never uses (CoreUI ships its
 * whole framework in one file: carousels, offcanvas, toasts… the app draws a part of it). Rules without classes
 * (elements, `:root` variables, attributes) and at-rules stay; a rule keeps the selectors that can still match.
 */
export function removeUnusedCss(css: string, used: UsedClasses, filename = 'style.css'): string {
  const { code } = transform({
    filename,
    code: Buffer.from(css),
    minify: true,
    errorRecovery: true,
    visitor: {
      Rule: {
        style(rule) {
          return rule.value.selectors.some((s) => selectorUsed(s, used)) ? undefined : [];
        },
      },
    },
  });
  return code.toString();
}

const hashed = /^(.*)-[\w-]{8}\.css$/;

/**
 * The build step: once every script is written, each stylesheet of the bundle loses the rules no script can use
 * (removeUnusedCss) and takes a name hashed from what is left, so that a file cached for good (immutable) never
 * changes under its name when a later build keeps other rules. References to the old name (index.html's link,
 * the scripts' preload lists, the manifest) are rewritten.
 */
export function unusedCss(): Plugin {
  return {
    name: 'pipsense-unused-css',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const outputs = Object.values(bundle);
        const used = usedClasses(outputs.flatMap((o) => (o.type === 'chunk' ? [o.code] : [])));
        const renamed = new Map<string, string>();
        for (const asset of outputs) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.css')) continue;
          const css = removeUnusedCss(String(asset.source), used, asset.fileName);
          const match = hashed.exec(asset.fileName);
          const hash = createHash('sha256').update(css).digest('base64url').slice(0, 8);
          const fileName = match ? `${match[1]}-${hash}.css` : asset.fileName;
          if (fileName === asset.fileName) {
            asset.source = css;
            continue;
          }
          delete bundle[asset.fileName];
          this.emitFile({ type: 'asset', fileName, source: css });
          renamed.set(asset.fileName, fileName);
        }
        if (renamed.size === 0) return;
        const rename = (text: string) => {
          let out = text;
          for (const [from, to] of renamed) out = out.replaceAll(from, to);
          return out;
        };
        for (const output of Object.values(bundle)) {
          if (output.type === 'chunk') {
            output.code = rename(output.code);
            const css = output.viteMetadata?.importedCss;
            if (css) for (const [from, to] of renamed) if (css.delete(from)) css.add(to);
          } else if (typeof output.source === 'string' && /\.(?:html|json)$/.test(output.fileName)) {
            output.source = rename(output.source);
          }
        }
      },
    },
  };
}
