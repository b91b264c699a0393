/**
 * Claude Code with extended thinking resends every earlier thinking block, signed, with each
 * request. An Anthropic upstream refuses unsigned ones (see `stripUnsignedThinking`), so the
 * engine must look at them; parsing the whole conversation for that, on every request, was the
 * cost of a passthrough that only needs `model`. Instead the body scan notes the innermost objects
 * that hold a `"thinking"` token, and only those are parsed and checked.
 */

/** More objects than this and the scan gives up noting them: the whole body is parsed instead. */
const MAX_OBJECTS = 4096;

/**
 * Follows the objects the scan steps into while it walks `messages` (`open` at each `{`, `close`
 * at each `}`); `mark` flags the innermost open object, whose span `spans()` then holds.
 */
export class ThinkingObjectTracker {
  private readonly starts: number[] = [];
  private readonly marked: boolean[] = [];
  private readonly found: number[] = [];
  /** A token outside any object, brackets that do not pair, or too many objects: not to be trusted. */
  private lost = false;

  open(at: number): void {
    this.starts.push(at);
    this.marked.push(false);
  }

  close(at: number): void {
    const start = this.starts.pop();
    const marked = this.marked.pop();
    if (start === undefined) this.lost = true;
    else if (marked) {
      if (this.found.length >= MAX_OBJECTS * 2) this.lost = true;
      else this.found.push(start, at + 1);
    }
  }

  mark(): void {
    const top = this.marked.length - 1;
    if (top < 0) this.lost = true;
    else this.marked[top] = true;
  }

  /** [start, end) pairs of the marked objects, in the order they closed; undefined when lost. */
  spans(): number[] | undefined {
    return this.lost || this.starts.length > 0 ? undefined : this.found;
  }
}

/**
 * True when none of the objects at `spans` is a thinking block without a signature, so that
 * `stripUnsignedThinking` would leave the request as it is. False when one is, or when an object
 * does not parse (the caller parses the whole body and decides).
 */
export function allThinkingSigned(raw: Buffer, spans: readonly number[]): boolean {
  for (let k = 0; k < spans.length; k += 2) {
    let block: unknown;
    try {
      block = JSON.parse(raw.toString('utf8', spans[k], spans[k + 1]));
    } catch {
      return false;
    }
    const { type, signature } = block as { type?: unknown; signature?: unknown };
    if (type === 'thinking' && !signature) return false;
  }
  return true;
}
