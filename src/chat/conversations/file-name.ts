/** Safe download names from untrusted conversation titles. */

const MAX = 80;

/**
 * A file name from a title: no path separators, control or reserved characters (`<>:"/\|?*`), whitespace
 * collapsed, no leading or trailing dots or spaces, at most 80 characters (never cutting a surrogate
 * pair), then `.ext`; `conversation.ext` when nothing is left.
 */
export function fileNameFor(title: string, ext: string): string {
  const cleaned = title
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u061c\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const cut = Array.from(cleaned).slice(0, MAX).join('').replace(/[\s.]+$/, '');
  return `${cut || 'conversation'}.${ext}`;
}

/** Saves text as a file through a temporary `<a download>` and a blob: URL revoked right after. */
export function download(text: string, fileName: string, type: string, root: Node = document.body): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  root.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // the click has started the download: the URL can go once this task is over
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
