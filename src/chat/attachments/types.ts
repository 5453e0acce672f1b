/** The attachments of a user message in `<pagent-chat>`: what the composer prepared and the timeline shows. */
import type { UserContentPart } from '../../agent/content-parts.js';

/** One file attached to a message. */
export interface ChatAttachment {
  /** The file's name (untrusted: shown as text only). */
  readonly name: string;
  /** Its MIME type as the browser reported it (may be empty). */
  readonly type: string;
  /** The original file's size in bytes. */
  readonly size: number;
  /** `image` (an `image_url` part), `text` (a text part holding the file) or `file` (a `file` part). */
  readonly kind: 'image' | 'text' | 'file';
  /** The content part sent to the model. */
  readonly part: UserContentPart;
  /**
   * A `blob:` URL to show the image with, created (and revoked) by the element: of the original when its
   * bytes are a PNG, JPEG, GIF, WebP or AVIF (typed by them), else of the PNG it was redrawn as.
   */
  readonly url?: string | undefined;
}

/** Options of the composer's attachments. */
export interface AttachmentOptions {
  readonly accept: string;
  readonly maxAttachmentBytes: number;
  readonly maxTotalAttachmentBytes: number;
  readonly maxImageSide: number;
}
