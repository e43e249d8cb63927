import type { ReactNode } from 'react';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  render: (row: Row) => ReactNode;
  /** 'end' for figures (aligns to the inline end in both directions). */
  align?: 'start' | 'end' | 'center';
  className?: string;
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

export function Table<Row>({ columns, rows, rowKey, caption, showCaption = false, empty }: TableProps<Row>) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className={showCaption ? 'table__caption' : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={`align-${column.align ?? 'start'} ${column.className ?? ''}`}>{column.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.key} className={`align-${column.align ?? 'start'} ${column.className ?? ''}`}>{column.render(row)}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
