import { useState } from 'preact/hooks';
import { api } from '../api.js';
import type { SharedItem, SharedType } from '../api-types.js';
import { MarkdownView } from '../components/markdown-view.js';
import { Empty, ErrorNotice, Loading, Notice } from '../components/notice.js';
import { useAction } from '../lib/use-action.js';
import { PageHeader } from '../components/page-header.js';
import { StatusBadge, type StatusKind } from '../components/status-badge.js';
import { useResource } from '../lib/use-resource.js';

const TYPES: Array<{ id: SharedType; title: string }> = [
  { id: 'commands', title: 'Commands' },
  { id: 'skills', title: 'Skills' },
  { id: 'agents', title: 'Agents' },
];
const LINK_STATES: Record<string, [StatusKind, string]> = {
  ok: ['ok', 'Links OK'],
  partial: ['warn', 'Partly linked'],
  broken: ['bad', 'Broken link'],
  missing: ['off', 'No shared folder'],
};

export function SharedPage() {
  const summary = useResource(api.sharedSummary, []);
  const [type, setType] = useState<SharedType>('commands');
  const [item, setItem] = useState<SharedItem | null>(null);
  const link = useAction(api.sharedLink);
  const list = useResource(() => api.sharedList(type), [type]);
  const s = summary.data;
  const linkState = s ? (LINK_STATES[s.symlinkStatus] ?? (['warn', s.symlinkStatus] as [StatusKind, string])) : null;

  return (
    <>
      <PageHeader title="Shared data" subtitle="Commands, skills and agents shared with the coding agent." />
      <ErrorNotice error={summary.error} />
      {s ? (
        <section class="cards" aria-label="Shared data summary">
          {TYPES.map((t) => (
            <div class="card" key={t.id}>
              <h2 class="card-label">{t.title}</h2>
              <p class="card-value">{s[t.id]}</p>
            </div>
          ))}
          <div class="card">
            <h2 class="card-label">Links</h2>
            <p class="card-value-small">{linkState ? <StatusBadge kind={linkState[0]} label={linkState[1]} /> : null}</p>
            <p class="muted">{s.total} items in total</p>
            {s.symlinkStatus !== 'ok' ? (
              <button
                type="button"
                class="btn btn-small"
                disabled={link.busy}
                onClick={async () => {
                  if (await link.run()) await Promise.all([summary.reload(), list.reload()]);
                }}
              >
                {link.busy ? 'Linking…' : 'Link to the agent folder'}
              </button>
            ) : null}
          </div>
        </section>
      ) : summary.loading ? (
        <Loading />
      ) : null}
      <ErrorNotice error={link.error} context="Link" onDismiss={link.clear} />
      {link.result ? (
        <Notice tone="success" onDismiss={link.clear}>
          {link.result.links.map((l) => `${l.type}: ${l.action}`).join(' · ')}
        </Notice>
      ) : null}
      <div class="split">
        <section class="panel list-panel" aria-labelledby="shared-list-title">
          <h2 id="shared-list-title" class="sr-only">
            Items
          </h2>
          <div class="segmented" role="group" aria-label="Item type">
            {TYPES.map((t) => (
              <button type="button" key={t.id} aria-pressed={type === t.id} onClick={() => (setType(t.id), setItem(null))}>
                {t.title}
              </button>
            ))}
          </div>
          <ErrorNotice error={list.error} />
          {!list.data && list.loading ? <Loading /> : null}
          {list.data?.items.length === 0 ? <Empty>No {type} yet.</Empty> : null}
          <ul class="link-list">
            {list.data?.items.map((i) => (
              <li key={i.path}>
                <button type="button" class="list-button" aria-pressed={item?.path === i.path} onClick={() => setItem(i)}>
                  <span>{i.name}</span>
                  <small class="muted">{i.description}</small>
                </button>
              </li>
            ))}
          </ul>
        </section>
        <div class="split-main">{item ? <SharedViewer type={type} item={item} /> : <Empty>Choose an item to read it.</Empty>}</div>
      </div>
    </>
  );
}

function SharedViewer(props: { type: SharedType; item: SharedItem }) {
  const content = useResource(() => api.sharedContent(props.type, props.item.path), [props.type, props.item.path]);
  return (
    <section class="panel" aria-labelledby="shared-viewer-title" data-testid="markdown-viewer">
      <header class="panel-head">
        <h2 id="shared-viewer-title">{props.item.name}</h2>
        <span class="muted path">{props.item.path}</span>
      </header>
      <ErrorNotice error={content.error} />
      {!content.data && content.loading ? <Loading /> : null}
      {content.data ? <MarkdownView text={content.data.content} label={props.item.name} /> : null}
    </section>
  );
}
