import { api } from '../../api.js';
import type { ModelSuggestions } from '../../api-types.js';
import { useLiveReload } from '../../lib/live.js';
import { useResource, type Resource } from '../../lib/use-resource.js';

export const MODEL_LIST_ID = 'model-suggestions';

/** Models the running proxy serves, seen in usage, or named in presets; refreshed on proxy and profile changes. */
export function useModelSuggestions(): Resource<ModelSuggestions> {
  const suggestions = useResource(api.modelSuggestions, []);
  useLiveReload(['proxy-state', 'profiles'], () => void suggestions.reload(), 0);
  return suggestions;
}

/**
 * One `<datalist>` for every model input on the page: the browser offers its entries while the
 * input still takes any text, so a model the list does not know can always be typed.
 */
export function ModelDatalist(props: { suggestions: Resource<ModelSuggestions> }) {
  return (
    <datalist id={MODEL_LIST_ID}>
      {props.suggestions.data?.models.map((m) => (
        <option key={m.id} value={m.id} label={`${m.id} (${m.sources.join(', ')})`} />
      ))}
    </datalist>
  );
}

/** Says where the suggestions stand, so an empty list is never mistaken for "no models exist". */
export function SuggestionsNote(props: { suggestions: Resource<ModelSuggestions> }) {
  const s = props.suggestions;
  if (s.error) return <small class="muted" data-testid="model-suggestions-note">Model suggestions are unavailable; type the model name.</small>;
  if (!s.data) return <small class="muted" data-testid="model-suggestions-note">Loading model suggestions…</small>;
  const n = s.data.models.length;
  if (n === 0) return <small class="muted" data-testid="model-suggestions-note">No model suggestions yet (start the proxy or use a model first); type the model name.</small>;
  const sources = [...new Set(s.data.models.flatMap((m) => m.sources))].map(sourceLabel).join(', ');
  return (
    <small class="muted" data-testid="model-suggestions-note">
      Model fields suggest {n} {n === 1 ? 'model' : 'models'} from {sources}; any other name can be typed.
    </small>
  );
}

function sourceLabel(source: string): string {
  return source === 'proxy' ? 'the running proxy' : source === 'usage' ? 'usage' : source === 'presets' ? 'presets' : source;
}
