import { PenIcon } from '@solar-icons/react/linear/pen';
import { TrashBinTrashIcon } from '@solar-icons/react/linear/trash-bin-trash';
import { DataTable, type Column } from '@/components/ui/data-table';
import { formatDateTime } from '@/lib/format';
import type { LabelTemplate } from '../api/labels-api';
import { SHEET_NAMES, SYMBOLOGY_NAMES, TEXT_LINES, sizeText } from '../design-form';

function textLines(template: LabelTemplate): string {
  const lines = TEXT_LINES.filter((line) => template.design.fields[line.value]).map((l) => l.label);
  return lines.length ? lines.join(', ') : 'None';
}

const COLUMNS: readonly Column<LabelTemplate>[] = [
  { header: 'Name', cell: (t) => t.name },
  { header: 'Size', cell: (t) => sizeText(t.design) },
  { header: 'Barcode', cell: (t) => SYMBOLOGY_NAMES[t.design.symbology] },
  { header: 'Sheet', cell: (t) => SHEET_NAMES[t.design.sheet] },
  { header: 'Text lines', cell: textLines },
  { header: 'Updated', cell: (t) => formatDateTime(t.updated_at) },
];

/** The organisation's label templates, by name, each with Edit and Delete. */
export function TemplatesTable({
  templates,
  onEdit,
  onDelete,
}: {
  templates: readonly LabelTemplate[];
  onEdit: (template: LabelTemplate) => void;
  onDelete: (template: LabelTemplate) => void;
}) {
  return (
    <DataTable
      label="Label templates"
      columns={COLUMNS}
      rows={templates}
      rowKey={(t) => t.id}
      empty="No label templates yet: design the first one below."
      actions={(t) => (
        <>
          <button
            type="button"
            className="icon-btn"
            title="Edit"
            aria-label={`Edit ${t.name}`}
            onClick={() => onEdit(t)}
          >
            <PenIcon />
          </button>
          <button
            type="button"
            className="icon-btn icon-btn--danger"
            title="Delete"
            aria-label={`Delete ${t.name}`}
            onClick={() => onDelete(t)}
          >
            <TrashBinTrashIcon />
          </button>
        </>
      )}
    />
  );
}
