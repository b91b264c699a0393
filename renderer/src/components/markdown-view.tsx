import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { useMemo } from 'preact/hooks';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Raw HTML inside shared markdown is shown as text, never parsed: even DOMPurify's inert parse
 * would let an `onerror` image knock on the CSP. Links and the rest still go through DOMPurify.
 */
const markdown = new Marked({
  gfm: true,
  renderer: { html: ({ text }) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) },
});

/** Splits YAML front matter off so it shows as metadata rather than a stray paragraph. */
function splitFrontMatter(text: string): { meta: string | null; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  return m ? { meta: m[1]!, body: text.slice(m[0].length) } : { meta: null, body: text };
}

/** Markdown rendered by marked and sanitised by DOMPurify: shared items are user files, not trusted HTML. */
export function MarkdownView(props: { text: string; label: string }) {
  const { meta, html } = useMemo(() => {
    const { meta, body } = splitFrontMatter(props.text);
    const raw = markdown.parse(body, { async: false });
    const clean = DOMPurify.sanitize(raw, { USE_PROFILES: { html: true } });
    // The page owns h1/h2: shift the document's headings down two levels to keep one outline.
    const html = clean.replace(/<(\/?)h([1-6])\b/gi, (_m, slash: string, n: string) => `<${slash}h${Math.min(6, Number(n) + 2)}`);
    return { meta, html };
  }, [props.text]);
  return (
    <article class="markdown" aria-label={props.label}>
      {meta ? (
        <details>
          <summary>Front matter</summary>
          <pre>{meta}</pre>
        </details>
      ) : null}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}
