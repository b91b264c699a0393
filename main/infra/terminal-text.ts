/**
 * Text from outside (transcripts, upstream model lists, profiles, error messages that quote a
 * file or an answer) shown in a terminal with its control characters made visible, so it can
 * only ever print: ESC and the C0 controls, DEL, the C1 controls (U+0080–U+009F, where U+009B is
 * a one-byte CSI), the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
 * and the line and paragraph separators (U+2028, U+2029). Without this a transcript's model name
 * could write the clipboard (OSC 52), retitle the window, clear the screen or hide a link (OSC 8).
 *
 * Shown as `\n`, `\t`, `\r` or `\xHH` (below U+0100) or `\uHHHH`. A backslash stays as it is,
 * so Windows paths read as they are; the escape is for the eye, not to be parsed back.
 * docs/hardening.md ("Terminal output").
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const CONTROLS = new RegExp(CONTROL.source, 'gu');
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.codePointAt(0)!;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One value (a cell, a name, a path): every control character escaped, line breaks included. */
export function escapeControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, escapeOne) : text;
}

/** A whole message or report of ours: as escapeControls, but its own line breaks stay. */
export function terminalText(text: string): string {
  return text.replace(CONTROLS_BUT_NEWLINE, escapeOne);
}

/**
 * The units a column may cut between: each character, and each escape as one unit, so a cut
 * never leaves half an escape (`\x1` of `\x1b`) for the eye to misread.
 */
export function displayUnits(text: string): string[] {
  return [...text].map((c) => (CONTROL.test(c) ? escapeOne(c) : c));
}

/** Width of a value once escaped, in code points (an escape counts its characters). */
export function displayWidth(text: string): number {
  return displayUnits(text).reduce((n, u) => n + [...u].length, 0);
}

/**
 * A JSON answer for a terminal: JSON.stringify escapes U+0000–U+001F but leaves DEL, the C1
 * controls, the bidi controls and U+2028/U+2029 raw; they become `\uXXXX`, which JSON reads back
 * as the same string. They can only occur inside strings (the rest of JSON is ASCII).
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`) + '\n';
}
