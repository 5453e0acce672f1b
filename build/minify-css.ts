import type { Plugin } from 'vite';

/**
 * Squeezes the text of lit `css` templates in the library build: comments go, whitespace runs become one
 * space, and the spaces around `{ } ;` and after `:` go; quoted strings are kept as written. Nothing else
 * changes (no selector or value is rewritten), so Chromium reads the same rules
 * (test/browser/chat/styles-squeeze.test.ts). Interpolations (`${…}`) are left as written.
 */
export function squeezeCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split(/('[^'\n]*'|"[^"\n]*")/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\s+/g, ' ')
            .replace(/\s*([{};])\s*/g, '$1')
            .replace(/:\s+/g, ':')
            .replace(/;}/g, '}'),
    )
    .join('');
}

/** Applies {@link squeezeCss} to the static parts of every css`…` template of the modules it is given. */
export function minifyLitCss(include: RegExp): Plugin {
  return {
    name: 'pagent-minify-lit-css',
    apply: 'build',
    transform(code, id) {
      if (!include.test(id)) return null;
      const out = code.replace(/\bcss`([^`]*)`/g, (_, body: string) => {
        const parts = body.split(/(\$\{[^}]*\})/);
        return 'css`' + parts.map((p, i) => (i % 2 === 1 ? p : squeezeCss(p))).join('') + '`';
      });
      return out === code ? null : { code: out, map: null };
    },
  };
}
