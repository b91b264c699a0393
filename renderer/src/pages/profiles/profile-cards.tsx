import type { ProfileCard, ProfileCards as Cards } from '../../api-types.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { href } from '../../lib/router.js';
import type { Action } from '../../lib/use-action.js';
import type { Resource } from '../../lib/use-resource.js';
import type { ClaudeCode } from './claude-code.js';
import { ProfileTest } from './profile-test.js';

/**
 * One card per profile: where it sends requests, which model, whether through the local proxy,
 * and which one is the default (what `switchboard run` and the tray use when none is named).
 * The name opens the editor; a click anywhere else on the card that is not a button does too.
 */
export function ProfileCardList(props: {
  list: Resource<Cards>;
  selected?: string;
  makeDefault: Action<[string], unknown>;
  clearDefault: Action<[], unknown>;
  cc: ClaudeCode;
}) {
  const { list } = props;
  if (list.error && !list.data) return <ErrorNotice error={list.error} context="Profiles" />;
  if (!list.data) return <Loading what="profiles" />;
  if (list.data.profiles.length === 0) return <Empty>No profiles yet. Create one below, or connect one through the proxy.</Empty>;
  const applied = props.cc.state.data?.applied?.profile;
  // The model on the card is the profile's; when settings.json did not follow, the badge says so.
  const stale = (props.cc.state.data?.staleKeys.length ?? 0) > 0;
  return (
    <>
      <ErrorNotice error={list.error} context="Refresh profiles" />
      {list.data.default === null ? (
        <p class="muted" data-testid="no-default">
          No default profile yet. “Make default” picks the one the tray and <code>switchboard run</code> use when none is named.
        </p>
      ) : null}
      <ul class="profile-cards" aria-label="Profiles">
        {list.data.profiles.map((p) => (
          <Card
            key={p.name}
            p={p}
            selected={p.name === props.selected}
            appliedToClaudeCode={p.name === applied ? (stale ? 'stale' : 'current') : null}
            busy={props.makeDefault.busy || props.clearDefault.busy}
            ccBusy={props.cc.apply.busy || props.cc.undo.busy || props.cc.restore.busy}
            onMakeDefault={() => void props.makeDefault.run(p.name)}
            onClearDefault={() => void props.clearDefault.run()}
            onUseForClaudeCode={() => {
              props.cc.undo.clear();
              props.cc.restore.clear();
              void props.cc.apply.run(p.name);
            }}
          />
        ))}
      </ul>
    </>
  );
}

function Card(props: {
  p: ProfileCard;
  selected: boolean;
  appliedToClaudeCode: 'current' | 'stale' | null;
  busy: boolean;
  ccBusy: boolean;
  onMakeDefault: () => void;
  onClearDefault: () => void;
  onUseForClaudeCode: () => void;
}) {
  const { p } = props;
  const link = href('profiles', p.name);
  const open = (e: MouseEvent) => {
    // The card is a big target for the mouse; keyboard users have the name link.
    if ((e.target as HTMLElement).closest('a, button')) return;
    location.hash = link;
  };
  return (
    <li class={`card profile-card${props.selected ? ' profile-card-selected' : ''}${p.default ? ' profile-card-default' : ''}`} onClick={open} data-testid={`profile-card-${p.name}`}>
      <div class="profile-card-head">
        <h3>
          <a href={link} aria-current={props.selected ? 'page' : undefined}>
            {p.name}
          </a>
        </h3>
        {p.usesProxy ? <span class="tag tag-proxy">⇄ via proxy</span> : null}
        {props.appliedToClaudeCode === 'current' ? <span class="tag">Claude Code</span> : null}
        {props.appliedToClaudeCode === 'stale' ? (
          <span class="tag tag-warn" title="Claude Code's settings.json still holds this profile's old values">
            Claude Code · old values
          </span>
        ) : null}
      </div>
      <dl class="facts profile-facts">
        <dt>Endpoint</dt>
        <dd>{p.baseUrl ? <code>{p.baseUrl}</code> : <span class="muted">not set</span>}</dd>
        <dt>Model</dt>
        <dd>{p.model ? <code>{p.model}</code> : <span class="muted">not set</span>}</dd>
      </dl>
      <div class="actions profile-card-actions">
        {p.default ? (
          <>
            <span class="badge badge-ok" data-testid="default-marker">
              <span aria-hidden="true">★</span> Default
            </span>
            <button type="button" class="btn btn-small btn-quiet" onClick={props.onClearDefault} disabled={props.busy}>
              Clear default<span class="sr-only"> ({p.name})</span>
            </button>
          </>
        ) : (
          <button type="button" class="btn btn-small" onClick={props.onMakeDefault} disabled={props.busy}>
            Make default<span class="sr-only"> {p.name}</span>
          </button>
        )}
        <button type="button" class="btn btn-small" onClick={props.onUseForClaudeCode} disabled={props.ccBusy}>
          Use for Claude Code<span class="sr-only"> ({p.name})</span>
        </button>
        <ProfileTest profile={p.name} />
      </div>
    </li>
  );
}
