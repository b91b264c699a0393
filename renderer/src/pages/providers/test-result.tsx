import type { ConnectionResult } from '../../api-types.js';
import { Notice } from '../../components/notice.js';
import './providers.css';

/** A connection test's answer: status and latency, the models listed, and on failure what to do. */
export function TestResult(props: { result: ConnectionResult; title?: string }) {
  const { result } = props;
  const status = result.status === null ? 'no answer' : `HTTP ${result.status}`;
  const shown = result.models?.slice(0, 12) ?? [];
  return (
    <div data-testid="test-result">
      <Notice tone={result.ok ? 'success' : 'error'} title={props.title ?? (result.ok ? 'Connection works' : 'Connection failed')}>
        <p>
          <span class="badge badge-off">{status}</span> <span class="badge badge-off">{result.latencyMs} ms</span>
        </p>
        <p class="test-message">{result.message}</p>
        {shown.length > 0 ? (
          <p class="test-models">
            Models: {shown.map((m) => <code key={m}>{m}</code>)}
            {result.models!.length > shown.length ? <span class="muted"> and {result.models!.length - shown.length} more</span> : null}
          </p>
        ) : null}
      </Notice>
    </div>
  );
}
