import { useState } from 'preact/hooks';
import { download } from '../lib/download.js';
import { toCsv, toJson, type ExportColumn } from '../lib/table-export.js';

/**
 * CSV and JSON download of a table's rows; `name` is the file name without extension. A paged
 * table passes `load`, which fetches every row of its selection (not just the page shown) when a
 * button is pressed.
 */
export function ExportButtons<R>(props: { name: string; label: string; columns: readonly ExportColumn<R>[]; rows: readonly R[]; load?: () => Promise<readonly R[]> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const disabled = props.rows.length === 0 || busy;
  const save = async (kind: 'csv' | 'json') => {
    setError(null);
    setBusy(true);
    try {
      const rows = props.load ? await props.load() : props.rows;
      if (kind === 'csv') download(`${props.name}.csv`, 'text/csv', toCsv(props.columns, rows));
      else download(`${props.name}.json`, 'application/json', toJson(rows));
    } catch (err) {
      setError(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="export-buttons" role="group" aria-label={`Export ${props.label}`} aria-busy={busy}>
      <button type="button" class="btn btn-small" disabled={disabled} onClick={() => void save('csv')}>
        CSV<span class="sr-only"> of {props.label}</span>
      </button>
      <button type="button" class="btn btn-small" disabled={disabled} onClick={() => void save('json')}>
        JSON<span class="sr-only"> of {props.label}</span>
      </button>
      {error && (
        <span class="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
