import type { ComponentChildren } from 'preact';

/** The page's one h1 plus its main actions. */
export function PageHeader(props: { title: string; subtitle?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <header class="page-head">
      <div>
        <h1>{props.title}</h1>
        {props.subtitle ? <p class="muted">{props.subtitle}</p> : null}
      </div>
      {props.children ? <div class="page-actions">{props.children}</div> : null}
    </header>
  );
}
