import YAML from 'yaml';

export const NO_DESCRIPTION = 'No description';
const MAX_LENGTH = 140;
const CUT_LENGTH = 137;

const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const THEMATIC_BREAK = /^([-*_=])(?:[ \t]*\1){2,}$/;

/**
 * The one-line description of a markdown item (decisions §3): the front matter's
 * `description`, else the first non-blank body line that is not a heading, else "No description".
 */
export function describeMarkdown(text: string): string {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const match = FRONT_MATTER.exec(source);
  const fromFrontMatter = match ? frontMatterDescription(match[1] ?? '') : undefined;
  if (fromFrontMatter) return shorten(fromFrontMatter);
  const body = match ? source.slice(match[0].length) : source;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || THEMATIC_BREAK.test(line)) continue;
    return shorten(line);
  }
  return NO_DESCRIPTION;
}

function frontMatterDescription(yamlText: string): string | undefined {
  let data: unknown;
  try {
    data = YAML.parse(yamlText);
  } catch {
    return undefined; // broken front matter: fall back to the body, like the agent itself does
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const value = (data as Record<string, unknown>).description;
  if (typeof value !== 'string') return undefined;
  const oneLine = value.replace(/\s+/g, ' ').trim();
  return oneLine === '' ? undefined : oneLine;
}

/** Cuts by code points, not UTF-16 units, so an emoji is never split in half. */
export function shorten(text: string): string {
  const chars = Array.from(text);
  return chars.length > MAX_LENGTH ? chars.slice(0, CUT_LENGTH).join('') + '...' : text;
}
