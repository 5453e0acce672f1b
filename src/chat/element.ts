/**
 * The `<pagent-chat>` class: a coordinator of the chat's features. It holds the timeline shown, runs a
 * message through a run source (./runs/), and wires the features' controllers to each other; each feature
 * renders and styles itself. Longer than ~400 lines because about 250 of them are the public API's own
 * documentation (the CSS parts, events and custom properties on the class, and each property), which the
 * manifest and the reference are generated from.
 */
import { LitElement, html, nothing, render, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { PagentError, errorMessage } from '../errors.js';
import { newId } from '../new-id.js';
import { failedRunEvents, type UnknownEvent, type WireEvent } from '../wire/events.js';
import { AgentRuns, type ApprovalRequest, type ChatAgent, type ChatAgentRunOptions } from './runs/agent-runs.js';
import { createAgentSource } from './runs/agent-source.js';
import { createClientSource, type ChatClient } from './runs/client-source.js';
import { defaultRequestBody, type ChatBody } from './runs/request-body.js';
import type { ChatRunSource } from './runs/run-source.js';
import { preloadSrcClient, SrcSource } from './runs/src-source.js';
import { Approvals } from './tool-calls/approvals.js';
import { createMemo } from './memo.js';
import { createAnswerRenderer, createTextRenderer } from './messages/answer.js';
import { errorKind, errorSentence } from './error-kind.js';
import { createChatEvent } from './events.js';
import type { ToolRenderers } from './tool-calls/renderers.js';
import { isLocaleLoaded, loadLocale, resolveLocale, stringsFor, type PagentChatStrings } from './i18n.js';
import { renderComposer, renderSuggestions } from './composer/composer.js';
import type { RowContext } from './timeline/row-context.js';
import { renderRow } from './timeline/row.js';
import { ToolChunks } from './tool-calls/chunks.js';
import type { MessageActions } from './message-actions/controller.js';
import type { KeepAlive } from './keep-alive.js';
import type { ChatHost } from './chat-host.js';
import type { Dictation } from './dictation/controller.js';
import type { ReadAloud } from './read-aloud/controller.js';
import type { Feedback } from './feedback/controller.js';
import type { ContextMeter } from './context-meter/controller.js';
import { eventsClosingRun, RunController, type RunOutcome, type RunSource } from './runs/run-controller.js';
import { ScrollController } from './timeline/scroll-controller.js';
import { TimelineChunks } from './timeline/chunks.js';
import { lazyChunk } from './lazy-chunk.js';
import { ConversationController, type ChatStore } from './conversations/controller.js';
import { WireLog } from './wire-log/controller.js';
import { FilesController, type ChatWorkspace } from './files/controller.js';
import { AttachmentsController } from './attachments/controller.js';
import { QuestionsController } from './questions/controller.js';
import type { ChatAttachment } from './attachments/types.js';
import { hostStyles } from './host-styles.js';
import { controlStyles } from './control-styles.js';
import { timelineStyles } from './timeline/styles.js';
import { messageStyles } from './messages/styles.js';
import { toolCallStyles } from './tool-calls/styles.js';
import { composerStyles } from './composer/styles.js';
import { wireLogStyles } from './wire-log/styles.js';
import { messageActionStyles } from './message-actions/styles.js';
import { addSteerMessage, addNotice, addUserMessage, retryRun, retryStopped, showMore } from './timeline/commands.js';
import { createTimeline, type TimelineState } from './timeline/items.js';
import { reduceTimeline } from './timeline/reducer.js';
import { timelineFromMessages } from './timeline/rebuild.js';

export type { ChatBody, ChatClient };
export type { ApprovalRequest, ChatAgent, ChatAgentRunOptions };
export type { ChatStore, ChatWorkspace, ChatAttachment };
export type { PagentChatStrings };
export type { ToolCallState, ToolRenderer, ToolRenderers } from './tool-calls/renderers.js';
// Re-exported so that every entry naming the element also loads the DOM event map declared with them.
export type {
  PagentChatEventMap,
  PagentErrorDetail,
  PagentEventDetail,
  PagentStateDetail,
  PagentUnknownEventDetail,
  PagentExportDetail,
  PagentImportDetail,
  PagentRunEndDetail,
  PagentSendDetail,
  PagentCopyDetail,
  PagentRegenerateDetail,
  PagentEditDetail,
  PagentBranchDetail,
  PagentFeedbackDetail,
} from './events.js';


/** The detail (for developers) under the card of a message nobody takes; the card's sentence is localised. */
const NO_SOURCE = 'No source: set the src, agent or client property, or handle pagent-send and call preventDefault().';

/**
 * `<pagent-chat>`: a live agent timeline — answers, reasoning, tool calls, errors — from a server's wire
 * stream (`src`), an in-browser `Agent` (`agent`), a `WireClient` (`client`) or events you push.
 * Every source goes through the same reducer and the same render path.
 *
 * @example
 * <pagent-chat src="/api/chat" lang="ja"></pagent-chat>
 *
 * @tag pagent-chat
 * @slot suggestions - Suggestion chips; clicking one sends its `data-text` (or its text). Slotted elements get a
 *   chip look (rounded, themed colours, focus ring) that the page's own styles override. They sit under the
 *   empty state's invitation, then in one horizontally scrolling row above the composer.
 * @event {CustomEvent<PagentSendDetail>} pagent-send - `{text, attachments?}`; cancelable: cancel to handle the message yourself.
 * @event {CustomEvent<PagentEventDetail>} pagent-event - `{event}` for every known event the timeline receives (`switch (event.method)` narrows `params`).
 * @event {CustomEvent<PagentUnknownEventDetail>} pagent-unknown-event - `{event}` for an event of a method this version does not know (`{method, params, unknown: true}`); the timeline skips it.
 * @event {CustomEvent<PagentRunEndDetail>} pagent-run-end - `{params}` of every `RunEnd` (also cancelled or failed runs).
 * @event {CustomEvent<PagentErrorDetail>} pagent-error - `{error: PagentError}` for every `RunError`; also, once per method and field, a `WireDecodeError` (`code: "decode"`) for a line of the `src` stream that the event schema rejects (also warned on the console).
 * @event {CustomEvent<PagentStateDetail>} pagent-state - `{state}` each time the agent's back end changes the shared state (a `RemoteAgent` over AG-UI).
 * @event {CustomEvent<PagentExportDetail>} pagent-export - `{id, format, fileName, text}` before a conversation downloads from the list; cancelable: cancel to save it yourself.
 * @event {CustomEvent<PagentImportDetail>} pagent-import - `{id, fileName}` after a file was imported from the list (it then opens).
 * @event {CustomEvent<PagentCopyDetail>} pagent-copy - `{text, role}` before a message is copied; cancelable.
 * @event {CustomEvent<PagentRegenerateDetail>} pagent-regenerate - `{text}` before the last answer is regenerated; cancelable.
 * @event {CustomEvent<PagentEditDetail>} pagent-edit - `{text, previous}` before an edited message is sent; cancelable.
 * @event {CustomEvent<PagentBranchDetail>} pagent-branch - `{seq}` before another version of a message is shown; cancelable.
 * @event {CustomEvent<PagentFeedbackDetail>} pagent-feedback - `{messageId, rating, comment?, text}` when the reader rates an answer 👍 (`up`) or 👎 (`down`); cancelable: cancel it and the rating is neither shown nor stored.
 * @csspart timeline - The scrolling conversation (`role="log"`).
 * @csspart empty - The empty state: a short invitation and the suggestions, until the first message.
 * @csspart message - Every message; also `user` or `answer`.
 * @csspart message-text - The text of a user message.
 * @csspart answer-text - The rendered answer (`aria-busy="true"` while a long one is still being drawn).
 * @csspart show-more - "Show more" under an answer or reasoning too long to draw at once (2 MiB more per click).
 * @csspart code-block - A fenced code block in an answer; `copy-button` inside (top right, shown on hover or focus).
 * @csspart stopped - The mark under a cancelled run's partial answer.
 * @csspart interrupted - Under an answer a reload, crash or closed tab cut (with a store): its mark and `continue-button`.
 * @csspart reasoning - The reasoning `<details>`; `reasoning-summary`, `reasoning-text` inside.
 * @csspart tool-call - A tool card; also `tool-call-<status>` (pending, awaiting-approval, ok, failed, denied, cancelled).
 * @csspart tool-name - The tool name in a card.
 * @csspart tool-status - The status badge in a card.
 * @csspart tool-duration - The duration in a card.
 * @csspart tool-arguments - The arguments in a card.
 * @csspart tool-result - The result in a card.
 * @csspart tool-more - Under long arguments or a long result: how much is drawn (`tool-shown`), `tool-show-more` and `tool-copy` buttons, `tool-copy-status`.
 * @csspart tool-approval - The approve / deny row; `approve-button`, `deny-button` inside.
 * @csspart question - A question of the agent (a remote back end asking for input); also `question-<status>` (asked, answered, dismissed, cancelled). Inside: `question-title`, `question-status`, `question-message`, while asked `question-form` (with `question-submit` and `question-dismiss`), once answered `question-answer`.
 * @csspart turn - A turn boundary.
 * @csspart usage - Token usage of a run.
 * @csspart message-actions - The toolbar after a finished message: `message-copy-button`, `edit-button`, `regenerate-button`, `resend-button` (Retry of a stopped last run of `src` or `client`), `copy-failed`, and `branch-switcher` (`branch-previous`, `branch-position`, `branch-next`).
 * @csspart read-aloud-button - "Read aloud" in a finished answer's actions (where the browser can speak; `aria-pressed` while it speaks that answer).
 * @csspart speaking - The block (paragraph, list item, heading, cell) of the sentence being spoken.
 * @csspart feedback - The 👍/👎 group in a finished answer's actions: `feedback-up`, `feedback-down` (`aria-pressed`), and after 👎 `feedback-form` with `feedback-comment`, `feedback-send`, `feedback-skip`.
 * @csspart dictation-button - The microphone button in the composer (with `voice`; `aria-pressed` while listening); `dictation-status` ("Listening…", "Transcribing…") and `dictation-error` beside it.
 * @csspart context-meter - How full the conversation is (with `contextWindow` or a known model): a `role="meter"` bar, its `context-figure` shown on hover and focus; `data-level="warning"` past 80 %.
 * @csspart message-editor - The inline editor of a user message: `editor-input`, `editor-cancel`, `editor-send`.
 * @csspart error - A failed run: a short sentence for its kind, `error-details` (the message, code, status, where) and `retry-button` inside.
 * @csspart jump-button - "Jump to latest", shown when scrolled up.
 * @csspart suggestions - The suggestion chips row.
 * @csspart composer - The message form; `input`, `send-button`, `stop-button`, `new-button`, `attach-button` inside.
 * @csspart attachment-previews - Files waiting to be sent, above the message box; `attachment-preview` each (with `attachment-remove`), and `attachment-error` for refused files (or for files added while the attachment part could not be loaded).
 * @csspart message-attachments - The files of a sent message: `attachment-thumb` (an image; opens the viewer) and `attachment-chip` (a file).
 * @csspart drop-target - Shown over the conversation while files are dragged over the element.
 * @csspart viewer - The dialog showing an image larger; `viewer-close` inside.
 * @csspart wire-log - The raw wire log drawer; `wire-line` (and `wire-line-error`) inside.
 * @csspart steer-button - "Send now" in the composer during a run of an agent that can be steered.
 * @csspart files - The files panel (with a `workspace`); `files-summary`, `file`, `file-download`, `file-delete` inside.
 * @csspart session-list - Stored conversations (with a `store`); `session`, `session-open` (with `session-title` and `session-date`), `session-rename`, `session-delete`, and while a delete is asked about `session-confirm` with `session-delete-confirm` and `session-delete-cancel` inside. With a store that searches, exports or imports: `session-search` (the field), `search-hit` (a result, with `session-title` and `search-snippet`), `search-progress` ("Searching…" while a search reads the store), `session-export` (then `session-export-choice` with `session-export-markdown`, `session-export-json`, `session-export-cancel`), `session-import` and `session-import-error`.
 * @cssproperty --pagent-color-background - Background.
 * @cssproperty --pagent-color-text - Text colour.
 * @cssproperty --pagent-color-muted - Secondary text.
 * @cssproperty --pagent-color-surface - Cards and code blocks.
 * @cssproperty --pagent-color-border - Borders.
 * @cssproperty --pagent-color-accent - Buttons and links.
 * @cssproperty --pagent-color-on-accent - Text on accent.
 * @cssproperty --pagent-color-user - User message bubble.
 * @cssproperty --pagent-color-danger - Errors and failed tools.
 * @cssproperty --pagent-color-danger-surface - Error background.
 * @cssproperty --pagent-color-success - Finished tools.
 * @cssproperty --pagent-color-focus - Focus ring.
 * @cssproperty --pagent-radius - Corner radius.
 * @cssproperty --pagent-spacing - Gap between rows.
 * @cssproperty --pagent-font-family - Text font.
 * @cssproperty --pagent-font-family-mono - Code font.
 * @cssproperty --pagent-color-warning - The context meter past 80 %. @defaultValue the danger colour
 * @cssproperty --pagent-height - Height of the element. @defaultValue 480px
 */
export class PagentChat extends LitElement {
  /** One sheet per feature, in cascade order (a later sheet wins a tie); features loaded as chunks adopt their own. */
  static override styles = [hostStyles, timelineStyles, messageStyles, toolCallStyles, composerStyles, controlStyles, wireLogStyles, messageActionStyles];

  /** URL to POST `{"message": text}` to (plus `"session_id"` once the server sent `X-Session-Id`). */
  @property() src: string | undefined;
  /** Builds the POST body for `src` instead of `{"message", "session_id"}`. */
  @property({ attribute: false }) body: ChatBody | undefined;
  /**
   * An in-browser `Agent` or a `RemoteAgent`: messages run through `agent.events(text, options)` (see
   * `ChatAgentRunOptions`). Takes precedence over `client` and `src`. Calls to tools with `needsApproval`
   * and a back end's approval requests show approve / deny buttons on their card, a back end's questions a
   * form in the timeline, and its shared state changes dispatch `pagent-state` (the element's `approve` and
   * `interrupt` replace the agent's own for the runs it starts).
   */
  @property({ attribute: false }) agent: ChatAgent | undefined;
  /** A `WireClient` (or anything with `stream(body, {signal})`): takes precedence over `src`. */
  @property({ attribute: false }) client: ChatClient | undefined;
  /** A session store: shows the stored conversations to reopen, rename and delete. */
  @property({ attribute: false }) store: ChatStore | undefined;
  /**
   * A workspace (`createWorkspace()`): shows its files in a panel to download or delete, refreshed as the
   * agent writes them. Without it there is no panel.
   */
  @property({ attribute: false }) workspace: ChatWorkspace | undefined;
  /** Overrides for any built-in string (see `PagentChatStrings`). */
  @property({ attribute: false }) strings: Partial<PagentChatStrings> | undefined;
  /** `light`, `dark`, or `auto` (follows `prefers-color-scheme`). */
  @property({ reflect: true }) theme: 'light' | 'dark' | 'auto' = 'auto';
  /**
   * Page-rendered tool calls: a tool name (or `*`) → `(call) => template | node`, given the call's live
   * state (`tool_call_id`, `name`, parsed `arguments`, `status`, `result`, `resultJson`, `elapsed_ms`,
   * `approve()`, `deny()`); called again when that call's state changes. Its fields are untrusted model and
   * tool output of any shape: check a value's type before using it (`typeof args.city === 'string'`); Lit
   * templates escape the text they interpolate. A call whose JSON carries a key Lit reserves
   * (`_$litType$`, `_$litDirective$`, `_$litStatic$`) is not given to the renderer. A renderer that throws,
   * returns something other than a Lit template or a DOM node, a node already on the page, or output Lit
   * cannot draw gets the default card for that call and one `pagent-error` (`code: "render"`); other calls
   * and later updates are drawn as usual. The code that draws renderers is fetched once this is set; calls
   * show the default card until it is there.
   */
  @property({ attribute: false }) renderers: ToolRenderers | undefined;
  /**
   * Remote images in answers (and stored `https:` attachments) load only when this returns true. It is
   * given the image's absolute URL as a `URL` object (http: or https: only), e.g.
   * `(url) => url.origin === 'https://images.example'`.
   */
  @property({ attribute: false }) allowImage: ((url: URL) => boolean) | undefined;
  /**
   * Renders TeX in answers (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) as math; `false` shows it as written. Read
   * when an answer starts rendering: set it before content arrives.
   */
  math = true;
  /** Batches renders to one per animation frame; switch off for deterministic tests. */
  @property({ attribute: false }) frameBatching = true;
  /**
   * Shows the wire log drawer: `src`'s raw lines as received; for every other source, each event as its
   * NDJSON line. Lines are kept only while it is on (it shows what arrived since it was switched on).
   */
  @property({ type: Boolean, attribute: 'wire-log' }) wireLog = false;
  /**
   * How long a stopped run's source may take to end by itself with its own cancelled `RunEnd` (the
   * `Agent`'s carries the last step's content and tool calls) before the element closes the run itself.
   * @defaultValue 1000
   */
  @property({ attribute: false }) stopGraceMs = 1000;
  /**
   * File types the composer takes (the `<input accept>` syntax); `""` hides the attach button and refuses
   * pasted and dropped files. @defaultValue images and text-like files
   */
  @property() accept = 'image/*,text/*,.md,.csv,.json,.jsonl,.yaml,.yml,.toml,.log,.py,.js,.ts,.tsx,.go,.rs,.java,.c,.cpp,.h,.sh,.sql';
  /** Largest file the composer takes, in bytes. @defaultValue 20 MiB */
  @property({ attribute: false }) maxAttachmentBytes = 20 * 1024 * 1024;
  /** Largest total of one message's files as sent (after scaling), in bytes. @defaultValue 50 MiB */
  @property({ attribute: false }) maxTotalAttachmentBytes = 50 * 1024 * 1024;
  /** Images are scaled down to this many pixels on their longer side before sending. @defaultValue 2048 */
  @property({ attribute: false }) maxImageSide = 2048;
  /**
   * A microphone button in the composer: the browser's `SpeechRecognition` (or `webkitSpeechRecognition`)
   * writes what the user says into the message box in the element's `lang`, interim text included; Escape
   * or a second press stops. Hidden where the browser has no recogniser, unless `transcribe` is set.
   */
  @property({ type: Boolean }) voice = false;
  /**
   * A server recogniser for `voice`: the microphone records with `MediaRecorder`, and the text this
   * resolves with goes into the message box (e.g. a call to an OpenAI-compatible
   * `/v1/audio/transcriptions`). Used instead of the browser's recogniser when set.
   */
  @property({ attribute: false }) transcribe: ((audio: Blob) => Promise<string>) | undefined;
  /**
   * Speaks answers as they stream, one finished sentence at a time, with the browser's `speechSynthesis`
   * (code blocks, URLs and Markdown syntax are not read). Stop, a new message or another conversation
   * stops it. Without it, every finished answer still has a "Read aloud" button where the browser can speak.
   */
  @property({ type: Boolean, attribute: 'read-aloud' }) readAloud = false;
  /** 👍/👎 under every finished answer (see `pagent-feedback`); `false` hides them. @defaultValue true */
  @property({ attribute: false }) feedback = true;
  /**
   * The model's context window in tokens: a meter in the composer shows how full the conversation is.
   * Without it, an `agent` whose model's window is known (OpenAI, Anthropic, DeepSeek, Kimi … models of
   * the presets) shows the meter too.
   */
  @property({ type: Number, attribute: 'context-window' }) contextWindow: number | undefined;

  /** The `lang` attribute picks the strings: `zh…` → zh-CN, `ja…` → ja, else en; absent: the nearest ancestor's `lang`. */
  @property({ attribute: 'lang' }) private langAttribute: string | null = null;
  @state() private timeline: TimelineState = createTimeline();
  @state() private announcement = '';
  @query('.timeline') private timelineEl!: HTMLElement | null;

  private readonly runs = new RunController(this, {
    onEvent: (event) => {
      if (!this.runLogsLines) this.rawLog.event(event);
      this.apply(event);
    },
    onSettled: (outcome) => this.handleSettled(outcome),
    stopGraceMs: () => this.stopGraceMs,
  });
  private readonly scroller = new ScrollController(this, {
    container: () => this.timelineEl,
    content: () => this.timelineEl?.querySelector<HTMLElement>('.items') ?? null,
  });
  private readonly rows = new TimelineChunks();
  private readonly conversations = new ConversationController(this, {
    onOpen: (id, messages, fromList, refresh) => {
      this.stopRunInFlight();
      this.approvals.denyAll();
      // files waiting in the composer stay when another tab changed the conversation shown
      if (!refresh) this.attachments.state?.clear();
      const shown = (this.timeline = timelineFromMessages(messages));
      this.actions?.clear();
      // the agent continues the conversation shown (it restores it from the store on its next run)
      if (fromList) this.switchAgentConversation(id);
      void this.actions?.update(id);
      // the last run was in flight when the page went: resumed, or shown interrupted with Continue
      if (this.agent) void this.loadKeepAlive(true).then((keepAlive) => keepAlive?.interrupted.opened(id, shown, messages));
    },
    onDelete: async () => {
      // the run stops and the agent saves its cut turn and moves to a new conversation before the delete,
      // so nothing writes the deleted conversation back
      const agent = this.agent;
      this.reset();
      if (agent) await this.agentRuns.settled(agent);
    },
    onOpenError: (_id, err) => {
      // say it in the timeline (in the user's language), not only in a pagent-error event
      const error = this.reportError(err);
      this.timeline = addNotice(this.timeline, { code: error.code, message: error.message, where: error.where });
    },
    onError: (err) => void this.reportError(err),
    // shown again as stored, and continued from there, unless a run, an open or an edit is under way here
    onRemoteChange: (id) => {
      if (this.streaming || this.conversations.pending || this.actions?.editingKey !== undefined) return;
      this.switchAgentConversation(id);
      void this.conversations.open(id, false, true);
    },
    // gone as if deleted here: a new conversation, said to screen readers too. During a run the view stays
    // (the run's answer is not cut), and the agent's next write reports the conversation as deleted.
    onRemoteDelete: () => {
      if (this.streaming || this.conversations.pending) return;
      this.reset();
      this.announcement = this.localStrings.conversationDeletedElsewhere;
    },
    onReveal: (show) =>
      void this.updateComplete.then(() => {
        // the reader looks at an older message now: the view stops following the newest one
        this.scroller.atBottom = false;
        if (this.timelineEl) show(this.timelineEl);
      }),
    lit: { html, nothing },
  });
  private readonly attachments = new AttachmentsController({
    host: this,
    options: () => this,
    ui: () => ({ strings: this.localStrings, locale: resolveLocale(this.locale), allowImage: this.allowImage, lit: { html, nothing, render } }),
  });
  private readonly filesPanel = new FilesController(this, (err) => this.reportError(err));
  private readonly questions = new QuestionsController(this, { html, nothing }, (change) => (this.timeline = change(this.timeline)));
  private srcSource: SrcSource | undefined;
  private readonly approvals = new Approvals((change) => (this.timeline = change(this.timeline)));
  private readonly agentRuns = new AgentRuns();
  private readonly rawLog = new WireLog(this);
  /** True while the run in flight is `src`'s, whose client logs the raw lines itself. */
  private runLogsLines = false;
  private inheritedLang: string | null = null;

  /** Feeds one event to the timeline (and re-dispatches it as `pagent-event`, or as `pagent-unknown-event` for an unknown method); the wire log shows it as a line. */
  push(event: WireEvent | UnknownEvent): void {
    this.rawLog.event(event);
    this.apply(event);
  }

  private apply(event: WireEvent | UnknownEvent): void {
    this.timeline = reduceTimeline(this.timeline, event);
    if ('unknown' in event) {
      this.dispatchEvent(createChatEvent('pagent-unknown-event', { event }));
      return;
    }
    this.dispatchEvent(createChatEvent('pagent-event', { event }));
    const s = this.localStrings;
    if (event.method === 'RunError') {
      const { code, status, message } = event.params;
      this.announcement = `${s.runFailed}: ${errorSentence(errorKind({ code, status, message }), status, s)}`;
      this.dispatchEvent(createChatEvent('pagent-error', { error: PagentError.fromRunError(event.params) }));
    } else if (event.method === 'RunEnd') {
      const reason = event.params.stop_reason;
      if (reason === 'cancelled') this.announcement = s.runStopped;
      else if (reason !== 'error') this.announcement = s.answerFinished;
      this.dispatchEvent(createChatEvent('pagent-run-end', { params: event.params }));
    }
  }

  /**
   * Renders events from any async source (a `decodeWireStream`, a WebSocket, a test). Aborts the run in
   * flight first; resolves when the source ends, is stopped, or the element leaves the DOM.
   */
  consume(events: AsyncIterable<WireEvent | UnknownEvent>): Promise<void> {
    this.stopRunInFlight();
    this.runLogsLines = false;
    return this.runs.start(() => events);
  }

  /**
   * Sends a message as the composer does: dispatches `pagent-send` (cancelable), shows the message and
   * runs it through `agent`, `client` or `src` — whichever is set, in that order. A page that runs the
   * message itself cancels `pagent-send` (`preventDefault()`) and `push`es the run's events; a message
   * nobody takes (no source, `pagent-send` not cancelled) ends with an error card saying so. While a stored
   * conversation is still opening, the message waits for it and then runs.
   */
  send(text: string, attachments: readonly ChatAttachment[] = []): void {
    // another tab runs this conversation: a note says so, and the text goes back in the box
    if (this.keepAlive?.tabs?.refuse(text)) return;
    if (!this.dispatchEvent(createChatEvent('pagent-send', attachments.length > 0 ? { text, attachments } : { text }))) return;
    // A stored conversation still opening would replace the timeline and stop the run: wait for it.
    const opening = this.conversations.pending;
    if (opening) void opening.then(() => this.deliver(text, attachments));
    else this.deliver(text, attachments);
  }

  /** Shows the message and runs it (or says that there is no source to run it against). */
  private deliver(text: string, attachments: readonly ChatAttachment[]): void {
    this.stopRunInFlight();
    this.timeline = this.addSent(this.timeline, text, attachments.length > 0 ? attachments : undefined);
    this.scroller.jumpToLatest();
    this.startRun(text, false, attachments);
  }

  /** Adds the user's message as the agent keeps it: without its secrets (its `redact`), file names included. */
  private addSent(timeline: TimelineState, text: string, attachments: readonly ChatAttachment[] | undefined): TimelineState {
    const redact = (t: string): string => this.agent?.redact?.(t) ?? t;
    return addUserMessage(timeline, redact(text), attachments?.map((a) => ({ ...a, name: redact(a.name) })));
  }

  /** Re-runs the failed run of an error card (no key: the stopped last run) once, in place (no second user message). */
  private retry(errorKey?: string): void {
    if (this.runs.running || this.timeline.runOpen) return;
    const next = errorKey === undefined ? retryStopped(this.timeline) : retryRun(this.timeline, errorKey);
    if (next === this.timeline) return;
    if (!this.dispatchEvent(createChatEvent('pagent-send', { text: next.input ?? '', retry: true }))) return;
    this.timeline = next;
    this.scroller.jumpToLatest();
    this.startRun(next.input ?? '', true);
  }

  private startRun(text: string, retry: boolean, attachments: readonly ChatAttachment[] = []): void {
    const source = this.runSource();
    this.runLogsLines = source?.logsLines ?? false;
    if (source) {
      // a retry sends the failed run's files again
      if (retry) attachments = this.timeline.items.findLast((i) => i.kind === 'user')?.attachments ?? [];
      void this.runs.start(source.open({ text, retry, attachments })).then(() => this.actions?.update());
      return;
    }
    // Nothing to send to, and the page did not take the message (it did not cancel pagent-send).
    for (const event of failedRunEvents({ code: 'no-source', message: NO_SOURCE }, text)) this.apply(event);
  }

  /**
   * Sends `text` into the run in flight ("send now"): the agent's `steer` sends it before its next model
   * call, and the timeline shows it where the agent sent it. Without a run, or with a source that cannot
   * be steered, it is sent as a new message ({@link PagentChat.send}).
   */
  steer(text: string): void {
    const agent = this.agent;
    if (!agent?.steer || !this.runs.running || text.trim() === '') return this.send(text);
    agent.steer(text);
  }

  /**
   * Stops the run in flight: it ends as cancelled and its partial answer stays, marked stopped. The
   * source's own cancelled `RunEnd` is kept when it sends one within `stopGraceMs`. A run opened by
   * `push()` alone is closed as cancelled at once.
   */
  stop(): void {
    if (this.runs.running) this.runs.stop();
    else if (this.timeline.runOpen) this.handleSettled({ aborted: true, error: undefined, current: true });
  }

  /**
   * Starts a new conversation: stops the run, clears the timeline, the wire log and the server session;
   * an `agent` with `useSession` switches to a new session id (so its next run starts without history).
   */
  reset(): void {
    this.runs.abandon();
    this.approvals.denyAll();
    this.attachments.state?.clear();
    this.timeline = createTimeline();
    this.actions?.clear();
    this.rawLog.clear();
    this.srcSource = undefined;
    this.announcement = '';
    const id = this.agent?.useSession ? newId() : undefined;
    this.conversations.openId = id;
    if (id !== undefined) this.switchAgentConversation(id);
  }

  /**
   * Shows approve / deny buttons on a tool call's card and resolves with the user's choice. The element
   * asks it for the `agent` it runs; for an agent run elsewhere, pass it as the run's (or the Agent's)
   * `approve` option. Resolves false when the run stops or the element leaves the DOM first.
   */
  requestApproval(call: ApprovalRequest): Promise<boolean> {
    return this.approvals.request(call);
  }

  /** True while a run is in flight. */
  get streaming(): boolean {
    return this.runs.running || this.timeline.runOpen;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.inheritedLang = this.parentElement?.closest('[lang]')?.getAttribute('lang') ?? null;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // A move (`other.append(el)`) disconnects and reconnects at once: only a removal that lasts past the
    // current task stops the run (RunController) and denies the pending approvals.
    setTimeout(() => {
      if (this.isConnected) return;
      this.approvals.denyAll();
      this.attachments.state?.release();
    });
  }

  protected override async scheduleUpdate(): Promise<void> {
    // Chinese and Japanese strings are chunks of their own: render once they are here, never in English first
    const locale = resolveLocale(this.locale);
    if (!isLocaleLoaded(locale)) await loadLocale(locale);
    if (this.frameBatching && typeof requestAnimationFrame === 'function' && !document.hidden) {
      await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    }
    super.scheduleUpdate();
  }

  /** The element focused in the shadow root before an update, to keep focus when the update removes it. */
  private focusedBefore: Element | null = null;

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const before = this.focusedBefore;
    this.focusedBefore = null;
    // A focused control the update removed (Stop at the run's end, Approve/Deny, Retry): focus moves to the
    // message box instead of dropping to <body>.
    if (before && !before.isConnected && !this.shadowRoot?.activeElement) this.shadowRoot?.querySelector<HTMLElement>('textarea')?.focus();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    void this.loadActions();
    if (this.voice) void this.loadDictation();
    if (this.contextWindow || this.agent) void this.loadMeter();
    if (this.timeline.items.length > 0 || this.readAloud) {
      if (typeof speechSynthesis !== 'undefined') void this.loadReadAloud();
      if (this.feedback) void this.loadFeedback();
    }
    this.toolChunks.update(this.renderers);
    this.focusedBefore = this.shadowRoot?.activeElement ?? null;
    if (changed.has('store')) this.conversations.setStore(this.store);
    if (changed.has('workspace')) this.filesPanel.setWorkspace(this.workspace);
    if (changed.has('agent') || changed.has('store')) {
      this.showAgentConversation();
      if (this.agent && this.store) void this.loadKeepAlive();
    }
    if (changed.has('src') && this.srcSource && this.srcSource.url !== this.src) this.srcSource = undefined;
    // src's client is a chunk: fetched ahead of the first message once src is the source in use
    if (this.src && !this.agent && !this.client) preloadSrcClient();
  }

  override render() {
    const s = this.localStrings;
    const ctx = this.rowContext(s);
    const streaming = this.streaming;
    const { items } = this.timeline;
    return html`<div class="frame"><div class="layout">
      ${this.conversations.render(s, resolveLocale(this.locale)) ?? nothing}
      <div class="main">
        <div
          part="timeline"
          class="timeline"
          role="log"
          aria-live="polite"
          aria-label=${s.timelineLabel}
          aria-busy=${streaming ? 'true' : 'false'}
          tabindex="0"
        >
          ${items.length === 0
            ? html`<div part="empty" class="empty">
                <p class="empty-text">${s.emptyInvitation}</p>
                ${renderSuggestions({ streaming, onSend: (text) => this.send(text) }, 'empty')}
              </div>`
            : nothing}
          <div class="items">${this.rows.render(items, ctx, renderRow)}</div>
        </div>
        ${this.attachments.dragging && this.attachments.state ? html`<div part="drop-target" class="drop-target">${s.dropFiles}</div>` : nothing}
        ${!this.scroller.atBottom && items.length > 0
          ? html`<button part="jump-button" type="button" class="jump" @click=${() => this.scroller.jumpToLatest()}>${s.jumpToLatest}</button>`
          : nothing}
      </div>
    </div>
    <div class="sr-only" role="status" aria-live="polite">${this.announcement}</div>
    ${this.filesPanel.render(s, resolveLocale(this.locale)) ?? nothing}
    ${this.keepAlive?.tabs?.render() ?? nothing}
    ${renderComposer({
      strings: s,
      streaming,
      suggestions: items.length > 0,
      disabled: false,
      onSend: (text) => this.send(text, this.attachments.take()),
      onStop: () => this.stop(),
      ...(this.accept
        ? {
            accept: this.accept,
            onFiles: (files: File[]) => void this.attachments.add(files),
            previews:
              this.attachments.state?.renderComposer() ??
              (this.attachments.unavailable
                ? html`<div part="attachment-error" class="attachment-error" role="alert"><p>${s.attachmentsUnavailable}</p></div>`
                : nothing),
            hasAttachments: Boolean(this.attachments.state?.pending.length),
          }
        : {}),
      onNew: () => this.reset(),
      onSteer: this.agent?.steer ? (text) => this.steer(text) : undefined,
      tools: [this.dictation?.render(), this.meter?.render()],
    })}
    ${this.rawLog.render(s)}</div>`;
  }

  private get locale(): string {
    return this.langAttribute || this.inheritedLang || 'en';
  }

  private readonly stringsMemo = createMemo<PagentChatStrings>();

  private get localStrings(): PagentChatStrings {
    const locale = resolveLocale(this.locale);
    // strings read before their locale loaded (English in its place) are not kept once it has
    return this.stringsMemo([locale, this.strings, isLocaleLoaded(locale)], () => stringsFor(locale, this.strings));
  }

  private readonly contextMemo = createMemo<RowContext>();

  /** One context object per strings/locale/source change, so `guard` re-renders only changed rows. */
  private rowContext(strings: PagentChatStrings): RowContext {
    const canRetry = Boolean(this.agent || this.client || this.src);
    const { allowImage, renderers } = this;
    const renderTool = renderers ? this.toolChunks.renderTool : undefined;
    const { longText } = this.toolChunks;
    const loaded = Boolean(this.attachments.state);
    const actions = `${this.actions?.stamp} ${this.keepAlive?.interrupted.stamp} ${this.readAloudPart?.stamp} ${this.feedbackPart?.stamp} ${this.feedback}`;
    return this.contextMemo([strings, canRetry, allowImage, loaded, renderers, renderTool, longText, actions], () => {
      const context: RowContext = {
        strings,
        locale: resolveLocale(this.locale),
        answerRenderer: (target, signal) =>
          createAnswerRenderer(target, { copyLabel: strings.copyCode, taskLabel: strings.taskItem, math: this.math, mathLabel: strings.formula, mathTooLargeLabel: strings.formulaTooLarge, signal, ...(allowImage ? { allowImage } : {}) }),
        textRenderer: createTextRenderer,
        onApproval: (callId, approved) => this.decide(callId, approved),
        toolRenderers: renderers,
        renderTool,
        renderLongText: this.toolChunks.renderLongText,
        onRenderError: ({ message, where }, cause) =>
          this.dispatchEvent(createChatEvent('pagent-error', { error: new PagentError(message, { code: 'render', where, cause }) })),
        onRetry: canRetry ? (errorKey) => this.retry(errorKey) : undefined,
        onShowMore: (key) => (this.timeline = showMore(this.timeline, key)),
        renderAttachments: (list) => this.attachments.renderMessage(list),
        renderQuestion: (item, ctx) => this.questions.render(item, ctx),
        messageActions: (item) => this.actions?.render(item, context, this.actions.canBranch),
        interrupted: (item) => this.keepAlive?.interrupted.render(item),
        answerTools: (item) => [this.readAloudPart?.render(item), this.feedbackPart?.render(item)],
        editingKey: this.actions?.editingKey,
      };
      return context;
    });
  }

  /** The options of every agent run the element starts: its approvals, questions, state and decode problems. */
  private agentRunOptions(): Omit<ChatAgentRunOptions, 'signal'> {
    return {
      approve: (call) => this.requestApproval(call),
      interrupt: (question, { signal }) => this.questions.ask(question, signal),
      onState: (state) => this.dispatchEvent(createChatEvent('pagent-state', { state })),
      onDecodeError: (err) => this.rawLog.problem(err),
    };
  }

  /** The source a message runs through: the agent, else the client, else `src` (none: nobody takes it). */
  private runSource(): ChatRunSource | undefined {
    const { agent, client, src } = this;
    if (agent) {
      const onSteer = (steered: string): void => {
        this.timeline = addSteerMessage(this.timeline, steered);
        this.scroller.jumpToLatest();
      };
      return createAgentSource(agent, this.agentRuns, { runOptions: () => ({ ...this.agentRunOptions(), onSteer }), hold: (source) => this.hold(source) });
    }
    if (client) return createClientSource(client, (text, id, files) => this.requestBody(text, id, files));
    if (!src) return undefined;
    return (this.srcSource ??= new SrcSource(src, {
      body: (text, id, files) => this.requestBody(text, id, files),
      onLine: (line) => this.rawLog.line(line),
      onDecodeError: (err) => this.rawLog.markError(err.message),
      report: (error) => this.dispatchEvent(createChatEvent('pagent-error', { error })),
    }));
  }

  /** Points the agent at another conversation once its run in flight (if any) has closed. */
  private switchAgentConversation(id: string): void {
    const agent = this.agent;
    if (agent) this.agentRuns.switchSession(agent, id, (err) => void this.reportError(err));
  }

  /**
   * With a store, shows the stored conversation the agent continues (when nothing else is shown yet, nor
   * by the time it has loaded: events pushed meanwhile stay).
   */
  private showAgentConversation(): void {
    const id = this.agent?.sessionId;
    if (id === undefined || !this.store || this.timeline.items.length > 0 || this.conversations.openId === id) return;
    void this.conversations.open(id, false, false, () => this.timeline.items.length === 0);
  }

  private requestBody(text: string, sessionId: string | undefined, attachments: readonly ChatAttachment[]): unknown {
    return this.body ? this.body(text, sessionId, attachments) : defaultRequestBody(text, sessionId, attachments);
  }

  /** Stops a run still in flight and closes it as cancelled now, before another one starts. */
  private stopRunInFlight(): void {
    if (!this.runs.running) return;
    this.runs.abandon();
    this.handleSettled({ aborted: true, error: undefined, current: true });
  }

  private handleSettled(outcome: RunOutcome): void {
    if (!outcome.current) return;
    this.approvals.denyAll();
    for (const event of eventsClosingRun(this.timeline, outcome)) this.apply(event);
  }

  /** The user's choice on a card: for a run of this page, or for a call of an answer a reload cut. */
  private decide(callId: string, approved: boolean): void {
    if (!this.approvals.has(callId) && this.keepAlive?.interrupted.answer(callId, approved)) return;
    this.approvals.decide(callId, approved);
  }

  /** The tool cards' chunks: the page's renderers, and the controls under long texts. */
  private readonly toolChunks = new ToolChunks(this);

  // ----- message actions: a chunk loaded on first render (see ./message-actions/controller.ts) -----

  private actions: MessageActions | undefined;

  /**
   * The message actions chunk, loaded at the first update. A failed fetch is tried again by a later
   * update (see ./lazy-chunk.ts); messages show without their actions meanwhile.
   */
  private readonly loadActions = lazyChunk(() =>
    import('./message-actions/controller.js').then((m) => {
      this.actions = new m.MessageActions(this.chatHost);
      this.actions.bump();
      void this.actions.update();
    }),
  );

  // ----- the features that keep a conversation alive across pages, a chunk loaded with an agent and a store:
  // an answer a reload cut, one runner per conversation (see ./keep-alive.ts) -----

  private keepAlive: KeepAlive | undefined;
  private readonly loadKeepAlive = lazyChunk(() => import('./keep-alive.js').then((m) => (this.keepAlive ??= new m.KeepAlive(this.chatHost))));

  // ----- voice and the small things, each a chunk loaded on first use: dictation (with `voice`), read aloud
  // (where the browser speaks), feedback and the context meter (see ./dictation/, ./read-aloud/,
  // ./feedback/, ./context-meter/) -----

  private dictation: Dictation | undefined;
  private readonly loadDictation = lazyChunk(() => import('./dictation/lazy.js').then((m) => (this.dictation ??= new m.Dictation(this.chatHost))));
  private readAloudPart: ReadAloud | undefined;
  private readonly loadReadAloud = lazyChunk(() => import('./read-aloud/lazy.js').then((m) => (this.readAloudPart ??= new m.ReadAloud(this.chatHost))));
  private feedbackPart: Feedback | undefined;
  private readonly loadFeedback = lazyChunk(() => import('./feedback/lazy.js').then((m) => (this.feedbackPart ??= new m.Feedback(this.chatHost))));
  private meter: ContextMeter | undefined;
  private readonly loadMeter = lazyChunk(() => import('./context-meter/lazy.js').then((m) => (this.meter ??= new m.ContextMeter(this.chatHost))));

  /**
   * `source` run under the conversation's Web Lock, its events shown live in the other tabs. A run that
   * starts before the keep-alive chunk came waits for it: run without it, it would hold no lock and post
   * nothing, and another tab would take the conversation's saved pieces for an interrupted answer.
   */
  private hold(source: RunSource): RunSource {
    if (this.keepAlive || !(this.agent && this.store)) return this.keepAlive?.tabs?.hold(source) ?? source;
    const load = this.loadKeepAlive;
    return (signal) => ({
      async *[Symbol.asyncIterator]() {
        const keepAlive = await load(true);
        yield* (keepAlive?.tabs?.hold(source) ?? source)(signal);
      },
    });
  }

  /** What the element's features loaded as chunks get from it (see ./chat-host.ts); made once. */
  private get chatHost(): ChatHost {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const el = this;
    return (this.madeChatHost ??= {
      el,
      lit: { html, nothing },
      get renderRoot() {
        return el.renderRoot as ShadowRoot;
      },
      get updateComplete() {
        return el.updateComplete;
      },
      get agent() {
        return el.agent;
      },
      get store() {
        return el.store;
      },
      get timeline() {
        return el.timeline;
      },
      set timeline(timeline) {
        el.timeline = timeline;
      },
      idle: () => !this.runs.running && !this.timeline.runOpen,
      resends: () => !this.agent && Boolean(this.client || this.src),
      retryStopped: () => this.retry(),
      strings: () => this.localStrings,
      locale: () => resolveLocale(this.locale),
      items: () => this.timeline.items,
      requestUpdate: () => this.requestUpdate(),
      event: (type, detail) => this.dispatchEvent(createChatEvent(type, detail as never)),
      announce: (text) => (this.announcement = text),
      apply: (event) => this.apply(event),
      runFrom: (before, text, retry, attachments) => {
        this.timeline = this.addSent(timelineFromMessages(before), text, attachments);
        this.scroller.jumpToLatest();
        this.startRun(text, retry, attachments ? [...attachments] : []);
      },
      source: (input, options) => this.agentRuns.source(this.agent!, input, { ...this.agentRunOptions(), ...options }),
      run: (source) => {
        this.scroller.jumpToLatest();
        return this.runs.start(this.hold(source)).then(() => this.actions?.update());
      },
      settled: async () => void (this.agent && (await this.agentRuns.settled(this.agent))),
      reopen: async (id) => {
        this.switchAgentConversation(id);
        await this.conversations.open(id);
      },
      placeMessages: () => void this.actions?.update(),
      reportError: (err) => void this.reportError(err),
    });
  }

  private madeChatHost: ChatHost | undefined;

  private reportError(err: unknown): PagentError {
    const error = err instanceof PagentError ? err : new PagentError(errorMessage(err), { code: 'store', where: 'store', cause: err });
    this.dispatchEvent(createChatEvent('pagent-error', { error }));
    return error;
  }
}
