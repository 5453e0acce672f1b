/**
 * The reader's rating of an answer (👍/👎 and an optional comment), kept on the stored message's record
 * beside the message, never inside it: everything in a message goes to the provider when the conversation
 * continues, and a rating is not the model's business.
 */

/** A rating of one stored answer. */
export interface MessageFeedback {
  rating: 'up' | 'down';
  /** What the reader wrote with a 👎 (at most {@link MAX_FEEDBACK_COMMENT} characters). */
  comment?: string;
}

/** The longest comment the store keeps, in UTF-16 code units. */
export const MAX_FEEDBACK_COMMENT = 4000;

const FIELDS = ['rating', 'comment'];

/**
 * Says what is wrong with a rating from an untrusted file or caller, or `undefined` when the store keeps
 * it: an object with `rating` `"up"` or `"down"`, an optional string `comment` of at most
 * {@link MAX_FEEDBACK_COMMENT} characters, and no other field.
 */
export function feedbackProblem(f: unknown): string | undefined {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return 'the feedback is not an object';
  const o = f as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!FIELDS.includes(key)) return `the feedback has an unknown field ${JSON.stringify(key).slice(0, 60)}`;
  }
  if (o.rating !== 'up' && o.rating !== 'down') return 'the feedback rating is not "up" or "down"';
  if (o.comment !== undefined) {
    if (typeof o.comment !== 'string') return 'the feedback comment is not a string';
    if (o.comment.length > MAX_FEEDBACK_COMMENT) return `the feedback comment is longer than ${MAX_FEEDBACK_COMMENT} characters`;
  }
  return undefined;
}

/** A copy of a rating that passed {@link feedbackProblem}, with only its known fields. */
export function storedFeedback(f: MessageFeedback): MessageFeedback {
  return f.comment === undefined ? { rating: f.rating } : { rating: f.rating, comment: f.comment };
}
