import { download, toCsv, toJson, type ExportColumn } from '../lib/table-export.js';

/** CSV and JSON download of a table's rows; `name` is the file name without extension. */
export function ExportButtons<R>(props: { name: string; label: string; columns: readonly ExportColumn<R>[]; rows: readonly R[] }) {
  const disabled = props.rows.length === 0;
  return (
    <span class="export-buttons" role="group" aria-label={`Export ${props.label}`}>
      <button type="button" class="btn btn-small" disabled={disabled} onClick={() => download(`${props.name}.csv`, 'text/csv', toCsv(props.columns, props.rows))}>
        CSV<span class="sr-only"> of {props.label}</span>
      </button>
      <button type="button" class="btn btn-small" disabled={disabled} onClick={() => download(`${props.name}.json`, 'application/json', toJson(props.rows))}>
        JSON<span class="sr-only"> of {props.label}</span>
      </button>
    </span>
  );
}
