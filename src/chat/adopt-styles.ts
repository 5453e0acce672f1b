/**
 * The styles of a part that arrives as a chunk of its own (attachments, questions, the conversation list …):
 * one constructed sheet per part, made on first use and adopted once by each shadow root that shows it.
 */

/** Returns a function that adds `css` to a root's adopted sheets, once per root; roots that are not a shadow root are skipped. */
export function createStyleAdopter(css: string): (root: Node | null | undefined) => void {
  let sheet: CSSStyleSheet | undefined;
  return (root) => {
    if (!(root instanceof ShadowRoot)) return;
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  };
}
