import { scanBody, type BodyFacts } from './body-scan.js';
import { parseSkeleton, stringifySpliced } from './json-splice.js';

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
   * are parsed: that direction uses the parsed body).
   */
  encode(build: (body: Record<string, unknown>) => unknown): Buffer {
    const spans = this.facts.longStrings;
    if (spans.length > 0) {
      const skeleton = parseSkeleton(this.raw, spans);
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
}

function parseObject(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
