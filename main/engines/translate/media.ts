/** `data:<media type>;base64,<data>` URLs carry inline images and files in OpenAI requests. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | null {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1]!, data: match[2]! } : null;
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** Tool arguments arrive as JSON text; a model can emit broken JSON, which must not crash a request. */
export function parseToolArguments(text: string | undefined): unknown {
  if (!text || text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? parsed : { value: parsed };
  } catch {
    return { _raw_arguments: text };
  }
}
