/**
 * Splits an error log into its request and response sections (markers `=== Request ===` and
 * `=== Response ===`, any case). A log may hold several rounds; the last response is the one
 * sent to the client, and everything is kept so nothing is hidden.
 */
export interface ParsedLog {
  request: string;
  response: string;
  status: string | null;
}

const MARKER = /^=+\s*(request|response)\s*=+\s*$/i;

export function parseErrorLog(text: string): ParsedLog {
  const request: string[] = [];
  const response: string[] = [];
  let target: string[] | null = null;
  let preamble: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = MARKER.exec(line.trim());
    if (m) {
      target = m[1]!.toLowerCase() === 'request' ? request : response;
      if (target.length) target.push('');
      continue;
    }
    (target ?? preamble).push(line);
  }
  if (!target) return { request: text, response: '', status: null };
  const statusLines = response.filter((l) => /^status:\s*\d+/i.test(l.trim()));
  const status = statusLines.length ? statusLines[statusLines.length - 1]!.trim().replace(/^status:\s*/i, '') : null;
  preamble = preamble.filter((l) => l.trim());
  return {
    request: prettyJsonBlocks([...preamble, ...request].join('\n').trim()),
    response: prettyJsonBlocks(response.join('\n').trim()),
    status,
  };
}

/** Pretty-prints a trailing JSON body so long one-line error bodies become readable. */
function prettyJsonBlocks(text: string): string {
  const start = text.search(/[{[]/);
  if (start < 0) return text;
  try {
    return text.slice(0, start) + JSON.stringify(JSON.parse(text.slice(start)), null, 2);
  } catch {
    return text;
  }
}
