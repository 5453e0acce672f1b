/**
 * pagent's `Memory`: not chat history, a short list of notes pasted into the prompt. Kept in memory,
 * round-tripped through JSON, and saved in a session store when asked.
 */

/** The JSON form of a {@link Memory}. */
export interface MemoryJSON {
  version: 1;
  notes: string[];
}

/** Where a memory can be saved: `createSessionStore()` fits. */
export interface MemoryStore {
  saveNotes(key: string, notes: readonly string[]): Promise<void>;
  loadNotes(key: string): Promise<string[] | undefined>;
}

/**
 * A list of notes for the prompt (pagent's `pagent.memory.Memory`).
 *
 * @example
 * const notes = new Memory();
 * notes.add('User prefers metric units.');
 * const session = new Session(`You are helpful.\n\nNotes:\n${notes.asText()}`);
 * await notes.save(store, 'notes');        // later: await Memory.load(store, 'notes')
 */
export class Memory {
  private list: string[] = [];

  constructor(notes: Iterable<string> = []) {
    for (const note of notes) this.add(note);
  }

  /** The notes, oldest first. */
  get notes(): readonly string[] {
    return this.list;
  }

  /** Adds a note (trimmed; empty notes are ignored). Returns its index, or -1 when ignored. */
  add(note: string): number {
    const text = String(note).trim();
    if (text === '') return -1;
    this.list.push(text);
    return this.list.length - 1;
  }

  /**
   * Removes the note at `index` and returns it.
   * @throws {RangeError} when there is no note at `index`.
   */
  remove(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.list.length) {
      throw new RangeError(`Memory.remove: no note at index ${index} (there are ${this.list.length})`);
    }
    return this.list.splice(index, 1)[0]!;
  }

  /** Removes every note. */
  clear(): void {
    this.list = [];
  }

  /** The notes as a bullet list, one `- note` a line (empty text when there are none). */
  asText(): string {
    return this.list.map((note) => `- ${note}`).join('\n');
  }

  /** The notes as plain JSON (`JSON.stringify(memory)` works). */
  toJSON(): MemoryJSON {
    return { version: 1, notes: this.list.slice() };
  }

  /**
   * Rebuilds a memory from {@link Memory.toJSON} output.
   * @throws {TypeError} when `json` is not a version-1 memory with string notes.
   */
  static fromJSON(json: MemoryJSON): Memory {
    if (json === null || typeof json !== 'object' || json.version !== 1 || !Array.isArray(json.notes) || !json.notes.every((n) => typeof n === 'string')) {
      throw new TypeError('Memory.fromJSON: not a version 1 memory');
    }
    return new Memory(json.notes);
  }

  /** Saves the notes under `key` in a session store (they do not show in its conversation list). */
  save(store: MemoryStore, key: string): Promise<void> {
    return store.saveNotes(key, this.list.slice());
  }

  /** Loads the notes saved under `key`; an empty memory when none were saved. */
  static async load(store: MemoryStore, key: string): Promise<Memory> {
    return new Memory((await store.loadNotes(key)) ?? []);
  }
}
