import { scanBody, type BodyFacts } from './body-scan.js';
import { parseSkeleton, stringifySpliced, valueMarker } from './json-splice.js';
import { allThinkingSigned } from './thinking-blocks.js';
import type { ToolsMemo } from './tools-memo.js';

/** How a builder's `tools` are mapped apart from the rest of the body, and where the results are kept. */
export interface ToolsMapping {
  memo: ToolsMemo;
  /** The client's `tools` value → the upstream's list (may throw on a bad shape). */
  map: (tools: unknown) => unknown[];
}

/** Builds the upstream body; given `tools`, it puts that list in place of mapping the body's own. */
export type BodyBuilder = (body: Record<string, unknown>, tools?: unknown[]) => unknown;

/**
 * A client's JSON body: the raw bytes (what passthrough forwards), the facts routing reads from a
 * scan, and the parsed object, built on first use only (translation, aliases, thinking checks).
 */
export class ClientBody {
  private object: Record<string, unknown> | undefined;

  private constructor(
    readonly raw: Buffer,
    readonly facts: BodyFacts,
    object?: Record<string, unknown>,
  ) {
    this.object = object;
  }

  /** Undefined when the bytes are not a JSON object. */
  static of(raw: Buffer): ClientBody | undefined {
    const facts = scanBody(raw);
    if (facts) return new ClientBody(raw, facts);
    // The scan could not vouch for the bytes: a full parse decides (and gives the 400).
    const object = parseObject(raw);
    if (!object) return undefined;
    const messages = object.messages;
    return new ClientBody(
      raw,
      {
        model: object.model,
        stream: object.stream === true,
        userId: (object.metadata as { user_id?: unknown } | undefined)?.user_id,
        hasMessages: Array.isArray(messages),
        mayHoldThinking: true,
        longStrings: [],
      },
      object,
    );
  }

  /**
   * Whether the messages are sure to hold no unsigned thinking block (nothing for
   * `stripUnsignedThinking` to remove): with none noted, or every one the scan noted signed.
   * False means "parse the whole body and check".
   */
  thinkingSigned(): boolean {
    if (!this.facts.mayHoldThinking) return true;
    const spans = this.facts.thinkingObjects;
    return spans !== undefined && allThinkingSigned(this.raw, spans);
  }

  /** The parsed body. The scan already vouched for its shape, so this only fails on broken JSON deep inside. */
  parsed(): Record<string, unknown> {
    if (!this.object) {
      const object = parseObject(this.raw);
      if (!object) throw new SyntaxError('the body is not valid JSON');
      this.object = object;
    }
    return this.object;
  }

  /**
   * The upstream body `build` makes of this one, as UTF-8. With long strings in the body, `build`
   * first gets a copy whose long strings are markers and the client's bytes are spliced back into
   * its JSON (see json-splice); when that cannot be done, or `build` throws there, it gets the
   * fully parsed body. `build` must not parse or cut strings (the OpenAI→Anthropic tool arguments
   * are parsed: that direction uses the parsed body). With `tools`, the body's `tools` value is
   * mapped apart, or taken from the memo while its bytes are the same, and `build` gets in its
   * place a list of one stand-in, whose place in the JSON receives the mapped list's elements.
   */
  encode(build: BodyBuilder, tools?: ToolsMapping): Buffer {
    const apart = tools && this.facts.toolsSpan ? this.encodeToolsApart(build, tools, this.facts.toolsSpan) : undefined;
    if (apart) return apart;
    const spans = this.facts.longStrings;
    if (spans.length > 0) {
      const skeleton = asObject(parseSkeleton(this.raw, spans));
      let spliced: Buffer | undefined;
      try {
        spliced = skeleton && stringifySpliced(build(skeleton), this.raw, spans);
      } catch {
        spliced = undefined; // the full parse decides, and gives the same error if it is one
      }
      if (spliced) return spliced;
    }
    return Buffer.from(JSON.stringify(build(this.parsed())));
  }

  /** `encode` with the tools mapped apart; undefined where the plain way must decide. */
  private encodeToolsApart(build: BodyBuilder, tools: ToolsMapping, [start, end]: [number, number]): Buffer | undefined {
    const { raw } = this;
    const spans = this.facts.longStrings;
    let mapped = tools.memo.get(raw, start, end);
    if (mapped === undefined) {
      const value = parseSkeleton(raw, spans, start, end);
      if (value === undefined) return undefined; // broken inside: the full parse gives the 400
      let list: unknown[];
      try {
        list = tools.map(value);
      } catch {
        return undefined;
      }
      const json = list.length === 0 ? null : stringifySpliced(list, raw, spans);
      if (json === undefined) return undefined;
      // The list's elements without its brackets: `build` gets a list of one stand-in for them all.
      tools.memo.set(raw, start, end, (mapped = json && json.subarray(1, -1)));
    }
    const skeleton = asObject(parseSkeleton(raw, spans, 0, raw.length, { start, end, text: '[]' }));
    if (!skeleton) return undefined;
    try {
      return stringifySpliced(build(skeleton, mapped ? [valueMarker(0)] : []), raw, spans, mapped ? [mapped] : []);
    } catch {
      return undefined;
    }
  }
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function parseObject(raw: Buffer): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(raw.toString('utf8')));
  } catch {
    return undefined;
  }
}
