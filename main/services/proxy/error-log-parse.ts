/**
 * Reading the two facts the error-log listing shows, from either layout (decisions §4): the
 * spec's simplified one (`=== Request ===`, `=== Response ===`) and CLIProxyAPI's real one
 * (`=== REQUEST INFO ===`, `=== HEADERS ===`, `=== REQUEST BODY ===`, `=== API REQUEST n ===`,
 * `=== API RESPONSE n ===`, `=== RESPONSE ===`, reference §3.5). Markers match
 * case-insensitively. Line by line, so a log of any size is read in bounded memory.
 */
export interface ErrorLogFacts {
  /** `Status:` of the LAST response section: what the client got, not an upstream attempt's. */
  statusCode: number | null;
  /** `model` of the request body's JSON. */
  model: string | null;
}

const MARKER = /^===\s*(.+?)\s*===\s*$/;
const STATUS = /^Status:\s*(\d{3})\b/i;
/** Enough of a request body to find its model; bodies can be many megabytes. */
const BODY_LIMIT = 1024 * 1024;

export class ErrorLogScanner {
  private section: string | null = null;
  private linesInSection = 0;
  private lastStatus: number | null = null;
  /** Real layout: the `REQUEST BODY` section. */
  private body: string[] = [];
  /** Simplified layout: the `Request` section after its headers' blank line. */
  private simpleBody: string[] = [];
  private simpleBodyStarted = false;
  private bodyChars = 0;

  push(line: string): void {
    const marker = MARKER.exec(line);
    if (marker) {
      this.section = marker[1]!.toLowerCase().replace(/\s+/g, ' ');
      this.linesInSection = 0;
      if (this.section === 'response') this.lastStatus = null;
      return;
    }
    this.linesInSection++;
    if (this.section === 'response') {
      if (this.lastStatus === null && this.linesInSection <= 3) {
        const match = STATUS.exec(line.trim());
        if (match) this.lastStatus = Number(match[1]);
      }
    } else if (this.section === 'request body') {
      this.collect(this.body, line);
    } else if (this.section === 'request') {
      // Request line, headers, a blank line, then the body.
      if (this.simpleBodyStarted) this.collect(this.simpleBody, line);
      else if (line.trim() === '' && this.linesInSection > 1) this.simpleBodyStarted = true;
    }
  }

  result(): ErrorLogFacts {
    const body = this.body.length > 0 ? this.body : this.simpleBody;
    return { statusCode: this.lastStatus, model: modelIn(body.join('\n')) };
  }

  private collect(into: string[], line: string): void {
    if (this.bodyChars >= BODY_LIMIT) return;
    const piece = line.slice(0, BODY_LIMIT - this.bodyChars);
    into.push(piece);
    this.bodyChars += piece.length + 1;
  }
}

export function parseErrorLog(text: string): ErrorLogFacts {
  const scanner = new ErrorLogScanner();
  for (const line of text.split(/\r?\n/)) scanner.push(line);
  return scanner.result();
}

function modelIn(bodyText: string): string | null {
  const trimmed = bodyText.trim();
  if (trimmed.startsWith('{')) {
    try {
      const model = (JSON.parse(trimmed) as { model?: unknown }).model;
      if (typeof model === 'string') return model;
    } catch {
      // Truncated or followed by other text: fall back to the first "model" field.
    }
  }
  const match = /"model"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(trimmed);
  if (!match) return null;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return match[1]!;
  }
}
