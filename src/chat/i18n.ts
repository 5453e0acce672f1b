/**
 * The element's strings: English here, Simplified Chinese and Japanese in `locales/` (loaded on first use). The locale comes from the
 * element's `lang` (or the nearest ancestor's); every string can be overridden through `strings`.
 * Placeholders are written `{name}` and filled by {@link format}.
 */
import { lazyChunk } from './lazy-chunk.js';

/** Every user-visible string of `<pagent-chat>`. */
export interface PagentChatStrings {
  timelineLabel: string;
  composerLabel: string;
  placeholder: string;
  send: string;
  stop: string;
  newConversation: string;
  you: string;
  assistant: string;
  reasoning: string;
  thinking: string;
  tool: string;
  arguments: string;
  result: string;
  toolPending: string;
  toolAwaitingApproval: string;
  toolOk: string;
  toolFailed: string;
  toolDenied: string;
  toolCancelled: string;
  approve: string;
  deny: string;
  /** `{ms}`: milliseconds, `{s}`: seconds with one decimal. */
  durationMs: string;
  durationS: string;
  truncated: string;
  turn: string;
  usage: string;
  stopped: string;
  /** The button under an answer (or reasoning) too long to draw at once: it draws more of it. */
  showMore: string;
  errorTitle: string;
  retry: string;
  /** Message actions (copy, regenerate, edit, versions). `{n}`, `{total}`: the version shown and how many there are. */
  messageActions: string;
  copy: string;
  copied: string;
  copyFailed: string;
  regenerate: string;
  edit: string;
  editLabel: string;
  cancelEdit: string;
  previousVersion: string;
  nextVersion: string;
  versionOf: string;
  answerFinished: string;
  runStopped: string;
  runFailed: string;
  jumpToLatest: string;
  wireLog: string;
  wireLogEmpty: string;
  decodeError: string;
  conversations: string;
  conversationsEmpty: string;
  untitled: string;
  open: string;
  rename: string;
  renamePrompt: string;
  delete: string;
  /** `{title}`: the conversation's title; the accessible name of its rename button. */
  renameConversation: string;
  /** `{title}`: the conversation's title; the accessible name of its delete button. */
  deleteConversation: string;
  /** `{title}`: the question asked in the row before a conversation is deleted. */
  confirmDelete: string;
  cancel: string;
  suggestions: string;
  /** The empty state's invitation, shown until the first message. */
  emptyInvitation: string;
  copyCode: string;
  /** The accessible name of a task list item's checkbox in an answer. */
  taskItem: string;
  /** The accessible name of a formula that scrolls in its box (a very tall or wide one). */
  formula: string;
  /** The title of a formula too large to show (its TeX source shows instead). */
  formulaTooLarge: string;
  /** The composer button that sends a message into the run in flight (`Agent.steer`). */
  sendNow: string;
  /** The files panel's heading (with a `workspace`). */
  files: string;
  filesEmpty: string;
  /** `{name}`: the file's path. */
  downloadFile: string;
  /** `{name}`: the file's path. */
  deleteFile: string;
  /** The summary of an error card's disclosure (code, status and the full message). */
  errorDetails: string;
  /** Error card sentences, one per failure kind (`{status}`: the HTTP status). */
  errorUnreachable: string;
  errorCors: string;
  errorAuth: string;
  errorNotFound: string;
  errorRateLimit: string;
  errorServer: string;
  errorHttp: string;
  errorCut: string;
  errorTimeout: string;
  errorProvider: string;
  errorDecode: string;
  errorRedirect: string;
  errorConfig: string;
  errorStore: string;
  errorStoreBlocked: string;
  errorNoSource: string;
  /** The composer's attach button (file picker). */
  attach: string;
  /** The drop target shown while files are dragged over the element. */
  dropFiles: string;
  /** Announced when another tab deleted the conversation shown (the view moves to a new one). */
  conversationDeletedElsewhere: string;
  /** Files were added while the attachment part could not be loaded (offline, say). */
  attachmentsUnavailable: string;
  // The attachment sentences below come with the attachment chunk (defaults in all three languages);
  // set them here to override. `{name}`: the file's name, `{size}`: its size, `{max}`: the limit.
  attachmentTooLarge?: string;
  attachmentsTooLarge?: string;
  attachmentUnsupported?: string;
  attachmentUnreadable?: string;
  /** `{name}`: the accessible name of a pending attachment's remove button. */
  removeAttachment?: string;
  /** `{name}`: the accessible name of a sent image's thumbnail (opens it larger). */
  viewImage?: string;
  closeViewer?: string;
  attachments?: string;
  /** The name shown for an image that has none (a pasted or stored image). */
  image?: string;
  // The conversation search, export and import strings come with their chunk (defaults in all three
  // languages); set them here to override. `{count}`: conversations found, `{title}`: a conversation's
  // title, `{name}`: a file's name, `{size}`, `{max}`: sizes.
  searchConversations?: string;
  searchFoundOne?: string;
  searchFound?: string;
  searchNone?: string;
  /** Shown in place of the results while a search reads the store. */
  searching?: string;
  exportConversation?: string;
  exportAs?: string;
  exportMarkdown?: string;
  exportJson?: string;
  importConversation?: string;
  importNotJson?: string;
  importWrongFormat?: string;
  importWrongVersion?: string;
  importInvalid?: string;
  importTooLarge?: string;
  importFailed?: string;
  imported?: string;
  dropImport?: string;
  // The strings of dictation, read aloud, feedback and the context meter come with their chunks
  // (./dictation/strings.ts, ./read-aloud/strings.ts, ./feedback/strings.ts, ./context-meter/strings.ts).
  /** The microphone button, and the same button while listening. */
  dictate?: string;
  stopDictation?: string;
  /** Said while the browser listens, and while the page's `transcribe` works. */
  dictationListening?: string;
  dictationTranscribing?: string;
  /** Why dictation stopped: the microphone refused, nothing heard, no microphone, anything else. */
  dictationDenied?: string;
  dictationNoSpeech?: string;
  dictationNoMicrophone?: string;
  dictationFailed?: string;
  /** The read-aloud button under an answer, and the same button while it speaks. */
  readAloud?: string;
  stopReading?: string;
  /** The 👍/👎 group's name, each button's name, the 👎 comment form and the thanks announced. */
  feedback?: string;
  feedbackUp?: string;
  feedbackDown?: string;
  feedbackComment?: string;
  feedbackSend?: string;
  feedbackSkip?: string;
  feedbackThanks?: string;
  /** The context meter's name; `{used}`, `{max}`, `{percent}`: tokens used, the window, the share. */
  contextLabel?: string;
  contextUsed?: string;
  // The strings of the agent's questions (a remote back end asking for input) come with their chunk
  // (defaults in all three languages); set them here to override.
  /** The heading of a question's card. */
  question?: string;
  /** A question's status: waiting, answered, dismissed by the user, or left unanswered when the run stopped. */
  questionAsked?: string;
  questionAnswered?: string;
  questionDismissed?: string;
  questionCancelled?: string;
  questionSubmit?: string;
  questionDismiss?: string;
  /** The label of the answer field of a question that gives no form (no schema). */
  questionAnswer?: string;
  /** The label of the answer field of a question whose form cannot be shown as fields: the answer is typed as JSON. */
  questionJson?: string;
  /** Said when the typed JSON does not parse. */
  questionJsonInvalid?: string;
  /** A yes / no field's answer, in the answered question's summary. */
  questionYes?: string;
  questionNo?: string;
  // The controls under a tool card's long arguments or result come with their chunk (defaults in all three
  // languages); set them here to override.
  /** How much of the text is drawn: `{shown}` characters of `{total}`. */
  toolTextShown?: string;
  // The strings of an answer a reload, crash or closed tab cut come with their chunk (defaults in all
  // three languages); set them here to override.
  /** The mark under the interrupted answer. */
  interrupted?: string;
  /** The button that finishes it. */
  continueAnswer?: string;
  /** The Continue button's accessible name. */
  continueLabel?: string;
  // The notes of a conversation another tab runs come with their chunk (defaults in all three languages).
  /** Shown while this tab follows the run of another tab. */
  answeringElsewhere?: string;
  /** Shown while a message sent here waits for another tab's run to end. */
  waitingForOtherTab?: string;
  /** Said when a message is sent while another tab runs the conversation (the text stays in the box). */
  sendWhenFinished?: string;
}

const en: PagentChatStrings = {
  timelineLabel: 'Conversation',
  composerLabel: 'Message',
  placeholder: 'Send a message…',
  send: 'Send',
  stop: 'Stop',
  newConversation: 'New conversation',
  you: 'You',
  assistant: 'Assistant',
  reasoning: 'Reasoning',
  thinking: 'Thinking…',
  tool: 'Tool',
  arguments: 'Arguments',
  result: 'Result',
  toolPending: 'Running…',
  toolAwaitingApproval: 'Waiting for approval',
  toolOk: 'Done',
  toolFailed: 'Failed',
  toolDenied: 'Denied',
  toolCancelled: 'Not finished',
  approve: 'Approve',
  deny: 'Deny',
  durationMs: '{ms} ms',
  durationS: '{s} s',
  truncated: 'truncated',
  turn: 'Turn {n}',
  usage: '{input} in · {output} out · {total} tokens',
  stopped: 'Stopped',
  showMore: 'Show more',
  errorTitle: 'Something went wrong',
  retry: 'Retry',
  messageActions: 'Message actions',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the text and copy it by hand.',
  regenerate: 'Regenerate',
  edit: 'Edit',
  editLabel: 'Edit message',
  cancelEdit: 'Cancel',
  previousVersion: 'Previous version',
  nextVersion: 'Next version',
  versionOf: '{n} of {total}',
  answerFinished: 'Answer finished',
  runStopped: 'Stopped',
  runFailed: 'The run failed',
  jumpToLatest: 'Jump to latest',
  wireLog: 'Wire log',
  wireLogEmpty: 'No lines yet',
  decodeError: 'decode error',
  conversations: 'Conversations',
  conversationsEmpty: 'No saved conversations',
  untitled: 'Untitled',
  open: 'Open',
  rename: 'Rename',
  renamePrompt: 'New title',
  delete: 'Delete',
  renameConversation: 'Rename “{title}”',
  deleteConversation: 'Delete “{title}”',
  confirmDelete: 'Delete “{title}”?',
  cancel: 'Cancel',
  suggestions: 'Suggestions',
  emptyInvitation: 'Ask anything — the answer streams in here.',
  copyCode: 'Copy code',
  taskItem: 'Task',
  formula: 'Formula',
  formulaTooLarge: 'This formula is too large to show.',
  sendNow: 'Send now',
  files: 'Files',
  filesEmpty: 'No files yet',
  downloadFile: 'Download {name}',
  deleteFile: 'Delete {name}',
  errorDetails: 'Details',
  errorUnreachable: 'Could not reach the server. Check the address and that the server is running.',
  errorCors: 'The server refused requests from this page (CORS). It must allow this site’s origin.',
  errorAuth: 'The API key was not accepted. Check the key.',
  errorNotFound: 'Nothing was found at this address. Check the URL path and the model name.',
  errorRateLimit: 'Too many requests: the service is rate-limiting. Wait a moment, then retry.',
  errorServer: 'The server had a problem (HTTP {status}). Retry in a moment.',
  errorHttp: 'The server refused the request (HTTP {status}).',
  errorCut: 'The answer was cut off before it finished.',
  errorTimeout: 'The server took too long to answer.',
  errorProvider: 'The model reported an error.',
  errorDecode: 'The answer could not be read: the response was empty or not an agent stream.',
  errorRedirect: 'The server redirected the request elsewhere; it was not followed.',
  errorConfig: 'The connection settings are not valid.',
  errorStore: 'Conversations could not be read or saved in this browser.',
  errorStoreBlocked: 'Another tab of this site is holding the conversation database. Close or reload the other tabs of this site, then retry.',
  errorNoSource: 'There is nowhere to send this message: no source is set.',
  attach: 'Attach files',
  dropFiles: 'Drop files to attach',
  conversationDeletedElsewhere: 'This conversation was deleted in another tab. A new one has started.',
  attachmentsUnavailable: 'Files cannot be attached right now: this part of the chat could not be loaded. Check your connection, then add them again.',
};



/** A built-in locale name. */
export type LocaleName = 'en' | 'zh-CN' | 'ja';

/**
 * The built-in locales loaded so far. English is always there; Chinese and Japanese are separate chunks,
 * loaded by {@link loadLocale} on first use (the element waits for them before it renders), so a page that
 * shows one language does not download the others.
 */
const loaded: Partial<Record<LocaleName, PagentChatStrings>> = { en };
const loaders = {
  ja: lazyChunk(() => import('./locales/ja.js').then((m) => void (loaded.ja = m.default))),
  'zh-CN': lazyChunk(() => import('./locales/zh-CN.js').then((m) => void (loaded['zh-CN'] = m.default))),
};

/** True once the strings of `name` are in memory. */
export function isLocaleLoaded(name: LocaleName): boolean {
  return loaded[name] !== undefined;
}

/**
 * Loads the strings of a built-in locale (once). A failed load leaves English in its place until a later
 * call fetches the chunk again (not before 5 s or the browser's `online` event: see ./lazy-chunk.ts).
 */
export async function loadLocale(name: LocaleName): Promise<void> {
  if (name !== 'en' && !loaded[name]) await loaders[name]();
}

/**
 * Picks the built-in locale for a BCP 47 tag: `zh`, `zh-CN`, `zh-Hans…` → zh-CN; `ja`, `ja-JP` → ja;
 * anything else (or nothing) → en.
 */
export function resolveLocale(lang: string | null | undefined): LocaleName {
  const tag = (lang ?? '').toLowerCase();
  if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
  if (tag === 'ja' || tag.startsWith('ja-')) return 'ja';
  return 'en';
}

/** The strings for `lang` (English until its locale is loaded: {@link loadLocale}), with `overrides` on top. */
export function stringsFor(lang: string | null | undefined, overrides?: Partial<PagentChatStrings>): PagentChatStrings {
  const base = loaded[resolveLocale(lang)] ?? en;
  return overrides ? { ...base, ...overrides } : base;
}

/** Fills `{name}` placeholders; unknown names stay as written. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all,
  );
}
