import type { ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  render: (row: Row) => ReactNode;
  /** 'end' for figures (aligns to the inline end in both directions). */
  align?: 'start' | 'end' | 'center';
  className?: string;
  /** The column's name beside each value when the table shows as cards on a phone (defaults to a string header). */
  label?: string;
}

export interface TableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Accessible caption; hidden visually unless showCaption. */
  caption: string;
  showCaption?: boolean;
  /** Rendered in place of the body when there are no rows. */
  empty?: ReactNode;
}

/** The name a cell shows on a phone, where each row is a card of label/value lines. */
function cellLabel<Row>(column: Column<Row>): string | undefined {
  return column.label ?? (typeof column.header === 'string' ? column.header : undefined);
}

/** A table; at phone widths (table.css) each row becomes a card, so no column hides off-screen. */
export function Table<Row>({ columns, rows, rowKey, caption, showCaption = false, empty }: TableProps<Row>) {
  return (
    <div className="table-wrap">
      <table className="table table--cards">
        <caption className={showCaption ? 'table__caption' : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={`align-${column.align ?? 'start'} ${column.className ?? ''}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length} className="table__empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td
                    key={column.key}
                    className={`align-${column.align ?? 'start'} ${column.className ?? ''}`}
                    data-label={cellLabel(column)}
                  >
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
