import type { ComponentChildren } from 'preact';

export interface Column<R> {
  key: string;
  label: string;
  numeric?: boolean;
  render: (row: R) => ComponentChildren;
}

/** A plain, dense, captioned table; `footer` cells form a totals row. */
export function DataTable<R>(props: {
  caption: string;
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  footer?: ComponentChildren[];
  captionHidden?: boolean;
  testId?: string;
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.caption} data-testid={props.testId}>
      <table>
        <caption class={props.captionHidden ? 'sr-only' : undefined}>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col" key={c.key} class={c.numeric ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((c, i) =>
                i === 0 ? (
                  <th scope="row" key={c.key} class={c.numeric ? 'num' : undefined} data-col={c.key}>
                    {c.render(row)}
                  </th>
                ) : (
                  <td key={c.key} class={c.numeric ? 'num' : undefined} data-col={c.key}>
                    {c.render(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        {props.footer ? (
          <tfoot>
            <tr>
              {props.footer.map((cell, i) =>
                i === 0 ? (
                  <th scope="row" key={i}>
                    {cell}
                  </th>
                ) : (
                  <td key={i} class={props.columns[i]?.numeric ? 'num' : undefined}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
