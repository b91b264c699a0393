import type { RequestEntry } from '../../api-types.js';
import { modelLabel } from './traffic-format.js';

/** The model asked → sent as code; a request refused before its model was read says so. */
export function ModelName(props: { entry: Pick<RequestEntry, 'modelRequested' | 'modelSent'> }) {
  if (!props.entry.modelRequested && !props.entry.modelSent) return <span class="muted">no model</span>;
  return <code>{modelLabel(props.entry)}</code>;
}
