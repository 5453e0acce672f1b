/** The session store: conversations in IndexedDB, and the opt-in API key store. */
export { createSessionStore } from './session-store.js';
export type { SessionStoreOptions } from './session-store.js';
export type {
  SessionStore,
  SessionSummary,
  StoreChange,
  StoreListener,
  StoredSession,
  AppendResult,
  AppendOptions,
} from './session-store-types.js';
export type { StorageEstimateBytes } from './storage-estimate.js';
export { activePath, siblingsOf } from './tree.js';
export type { SessionTree, TreeNode } from './tree.js';
export type { SessionKind, SessionExport } from './records.js';
export type { MessageFeedback } from './feedback.js';
export type { TurnPiece, InterruptedTurn } from './turn-pieces.js';
export { conversationToMarkdown } from './session-markdown.js';
export type { MarkdownLabels, MarkdownOptions, MarkdownSource } from './session-markdown.js';
export type { SessionSearchHit, SessionSearchOptions, SearchSnippet } from './session-search.js';
export { StoreError } from '../errors.js';
export type { StoreErrorReason } from '../errors.js';
export { createKeyStore } from './key-store.js';
export type { KeyStore, KeyStoreOptions } from './key-store.js';
export { createWorkspace, workspacePath, WorkspaceError } from './workspace.js';
export type { Workspace, WorkspaceEntry, WorkspaceChange, WorkspaceOptions, WorkspaceErrorReason } from './workspace.js';
