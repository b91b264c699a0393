import type { CatalogProvider } from '../../api-types.js';
import { href } from '../../lib/router.js';

/** One catalogue entry: what it is, how Claude Code reaches it, and where its key comes from. */
export function ProviderCard(props: { p: CatalogProvider; selected: boolean }) {
  const { p } = props;
  return (
    <li class={`card provider-card${props.selected ? ' provider-card-selected' : ''}`} data-testid={`provider-${p.id}`}>
      <div class="provider-card-head">
        <h3>{p.name}</h3>
        <span class={`tag ${p.format === 'anthropic' ? 'tag-direct' : 'tag-proxy'}`}>{p.format === 'anthropic' ? 'direct' : '⇄ via proxy'}</span>
        {p.origin === 'user' ? <span class="tag">yours</span> : null}
      </div>
      <p class="provider-url">
        <code>{p.baseUrl}</code>
      </p>
      <p class="muted provider-models">
        {p.models.default}
        {p.models.haiku !== p.models.default ? ` · fast: ${p.models.haiku}` : ''}
      </p>
      <div class="actions">
        <a class="btn btn-small btn-primary" href={href('providers', p.id)} aria-current={props.selected ? 'true' : undefined}>
          {p.keyRequired ? 'Set up' : 'Connect'}
          <span class="sr-only"> {p.name}</span>
        </a>
        {p.keyUrl ? (
          <a class="btn btn-small btn-quiet" href={p.keyUrl} target="_blank" rel="noreferrer">
            Get a key ↗<span class="sr-only"> for {p.name}</span>
          </a>
        ) : (
          <span class="muted">no key needed</span>
        )}
      </div>
    </li>
  );
}

