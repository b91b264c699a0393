/**
 * Translated `tools` kept by the client's bytes. Claude Code sends the same tool definitions with
 * every request of a session — dozens of JSON schemas, tens of KB of small objects, the costliest
 * part of a request to parse and to write again — so translation maps them once and, while the
 * bytes are the same, splices the kept JSON (issue 19 point 6). Keyed on the exact bytes, so a
 * hit gives what mapping them again would.
 */
export class ToolsMemo {
  /** Newest first. `mapped`: the mapped list's elements as JSON; null when the upstream format can take none. */
  private entries: Array<{ source: Buffer; mapped: Buffer | null }> = [];

  constructor(
    private readonly capacity = 4,
    /** Larger definitions are mapped every time rather than held. */
    private readonly maxBytes = 1024 * 1024,
  ) {}

  /** The kept JSON for raw[start, end), null for "no tools", undefined when not kept. */
  get(raw: Buffer, start: number, end: number): Buffer | null | undefined {
    const length = end - start;
    for (let i = 0; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.source.length !== length || raw.compare(entry.source, 0, length, start, end) !== 0) continue;
      if (i > 0) this.entries.unshift(...this.entries.splice(i, 1));
      return entry.mapped;
    }
    return undefined;
  }

  set(raw: Buffer, start: number, end: number, mapped: Buffer | null): void {
    if (end - start > this.maxBytes) return;
    // A copy: a view would keep the whole request buffer alive.
    this.entries.unshift({ source: Buffer.from(raw.subarray(start, end)), mapped });
    if (this.entries.length > this.capacity) this.entries.length = this.capacity;
  }
}
