import { api } from '../../api.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { PageHeader } from '../../components/page-header.js';
import { useResource } from '../../lib/use-resource.js';
import { AddProvider } from './add-provider.js';
import { ProviderCard } from './provider-card.js';

/** The provider catalogue (issue 30): pick one, paste its key, test, add. `selected` comes from #/providers/<id>. */
export function ProvidersPage(props: { selected?: string }) {
  const catalog = useResource(() => api.providerCatalog(), []);
  const providers = catalog.data?.providers ?? [];
  const chosen = providers.find((p) => p.id === props.selected);
  return (
    <>
      <PageHeader title="Providers" subtitle="API providers Claude Code can use: pick one, paste your key, test the connection and add it as a profile." />
      <ErrorNotice error={catalog.error} context="Provider catalogue" />
      {props.selected && catalog.data && !chosen ? <ErrorNotice error={new Error(`No provider ${props.selected} in the catalogue`)} /> : null}
      {chosen ? <AddProvider provider={chosen} onAdded={() => undefined} /> : null}
      {!catalog.data && !catalog.error ? <Loading what="providers" /> : null}
      {catalog.data && providers.length === 0 ? <Empty>The catalogue is empty.</Empty> : null}
      <ul class="provider-cards" aria-label="Provider catalogue">
        {providers.map((p) => (
          <ProviderCard key={p.id} p={p} selected={p.id === chosen?.id} />
        ))}
      </ul>
      <p class="muted provider-foot">
        Add your own entries in <code>providers.json</code> in the Switchboard folder (same shape as the built-in catalogue). Also in the terminal:{' '}
        <code>switchboard add &lt;id&gt;</code>.
      </p>
    </>
  );
}
