import { useRef } from 'preact/hooks';

export interface EditorProblem {
  message: string;
  /** 1-based line, when known: marked in the gutter and reachable with "Go to line". */
  line?: number;
}

/**
 * A plain textarea with a line-number gutter; problems are marked on their line (sign + text
 * below, not colour alone) and announced through aria-describedby.
 */
export function CodeEditor(props: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  problems?: EditorProblem[];
  rows?: number;
  readOnly?: boolean;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const problems = props.problems ?? [];
  const bad = new Set(problems.map((p) => p.line).filter((l): l is number => l !== undefined));
  const lineCount = props.value.split('\n').length;
  const errId = `${props.id}-problems`;

  const goTo = (line: number) => {
    const el = area.current;
    if (!el) return;
    const lines = el.value.split('\n');
    const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    el.focus();
    el.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
  };

  return (
    <div class="code-editor">
      <label for={props.id}>{props.label}</label>
      <div class={problems.length ? 'code-frame code-frame-invalid' : 'code-frame'}>
        <div class="code-gutter" ref={gutter} aria-hidden="true">
          {Array.from({ length: lineCount }, (_, i) => (
            <div key={i} class={bad.has(i + 1) ? 'gutter-bad' : undefined}>
              {bad.has(i + 1) ? '✕ ' : ''}
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          id={props.id}
          ref={area}
          class="mono"
          rows={props.rows ?? 18}
          value={props.value}
          readOnly={props.readOnly}
          spellcheck={false}
          wrap="off"
          aria-invalid={problems.length ? true : undefined}
          aria-describedby={problems.length ? errId : undefined}
          onInput={(e) => props.onInput(e.currentTarget.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      {problems.length ? (
        <ul id={errId} class="editor-problems" aria-live="polite">
          {problems.map((p, i) => (
            <li key={i} class="field-error">
              <span aria-hidden="true">✕ </span>
              {p.line ? `Line ${p.line}: ` : ''}
              {p.message}{' '}
              {p.line ? (
                <button type="button" class="btn-link" onClick={() => goTo(p.line!)}>
                  Go to line {p.line}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Pulls "line N" out of a parser message, when it names one. */
export function lineOf(message: string): number | undefined {
  const m = /line (\d+)/i.exec(message) ?? /\((\d+):\d+\)/.exec(message);
  return m ? Number(m[1]) : undefined;
}
