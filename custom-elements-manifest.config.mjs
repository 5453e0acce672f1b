/**
 * custom-elements.json: `npm run analyze` writes it; test/package/manifest.test.ts fails when the
 * committed copy differs from a fresh one. It describes the public API only, with the paths a page imports.
 */

/** Source module → the built file a consumer imports (`pagent-web/element`, `pagent-web/pagent-chat.js`). */
const SHIPPED = {
  'src/chat/element.ts': 'dist/element.js',
  'src/chat/pagent-chat.ts': 'dist/pagent-chat.js',
};
const shipped = (path) => SHIPPED[path.replace(/^\//, '').replace(/\.js$/, '.ts')] ?? path;

/** Drops private and protected members (and the source of their initialisers) and points paths at dist/. */
function publicApiOnly() {
  return {
    name: 'pagent-public-api-only',
    packageLinkPhase({ customElementsManifest }) {
      const declared = new Set(customElementsManifest.modules.flatMap((mod) => (mod.declarations ?? []).map((d) => d.name)));
      for (const mod of customElementsManifest.modules) {
        mod.path = shipped(mod.path);
        // type-only re-exports (`export type {…}`) are no JavaScript exports
        mod.exports = (mod.exports ?? []).filter((exp) => exp.name === '*' || declared.has(exp.declaration?.name));
        for (const exp of mod.exports) {
          if (exp.declaration?.module) exp.declaration.module = shipped(exp.declaration.module);
        }
        for (const decl of mod.declarations ?? []) {
          if (!decl.members) continue;
          const hidden = new Set(
            decl.members.filter((m) => m.privacy === 'private' || m.privacy === 'protected' || m.static).map((m) => m.name),
          );
          decl.members = decl.members.filter((m) => !hidden.has(m.name));
          // an attribute backed by a private field (lang) stays an attribute, without the field's name
          for (const attr of decl.attributes ?? []) if (hidden.has(attr.fieldName)) delete attr.fieldName;
        }
      }
    },
  };
}

export default {
  globs: ['src/chat/element.ts', 'src/chat/pagent-chat.ts'],
  outdir: '.',
  litelement: true,
  packagejson: false,
  plugins: [publicApiOnly()],
};
