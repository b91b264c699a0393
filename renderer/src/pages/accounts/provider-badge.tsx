import { providerDisplay } from '../../lib/account-providers.js';

/** The account's provider as a coloured tag with its name; the colour repeats what the text says. */
export function ProviderBadge(props: { provider: string }) {
  const p = providerDisplay(props.provider);
  return (
    <span class={`acc-provider-badge acc-provider-${props.provider}`} title={p.name} data-testid="provider-badge">
      {p.badge}
    </span>
  );
}
