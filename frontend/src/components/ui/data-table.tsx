import type { ReactNode } from 'react';

export interface Column<Row> {
  /** The column's header; on phones also the label in front of each value. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** On the header and every cell: `num` for figures (right-aligned on wide screens), `share` for a usage bar. */
  className?: 'num' | 'share';
  /** The header is for screen readers only (the values explain themselves). */
  hideHeader?: boolean;
}

/**
 * A table of rows, the same everywhere in the app. On wide screens a table;
 * on phones (global.css, `max-width: 640px`) each row becomes a card of
 * label/value lines with its action buttons at the foot, so nothing is off
 * screen.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  actions,
  empty,
}: {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** The row's buttons, in the last column. */
  actions?: (row: Row) => ReactNode;
  /** Shown in a row of its own when there are no rows. */
  empty?: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.className}>
                {column.hideHeader ? (
                  <span className="visually-hidden">{column.header}</span>
                ) : (
                  column.header
                )}
              </th>
            ))}
            {actions ? (
              <th scope="col" className="actions">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length + (actions ? 1 : 0)} className="table__empty muted">
                {empty}
              </td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.className}>
                  {/* Phones only: the header, which the card layout does not show. */}
                  <span className="table__label" aria-hidden="true">
                    {column.header}
                  </span>
                  <div className="table__value">{column.cell(row)}</div>
                </td>
              ))}
              {actions ? <td className="actions">{actions(row)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
