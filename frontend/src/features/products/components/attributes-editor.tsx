import { AddCircleIcon } from '@solar-icons/react/linear/add-circle';
import { TrashBinTrashIcon } from '@solar-icons/react/linear/trash-bin-trash';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import {
  ATTRIBUTE_TYPES,
  ATTRIBUTES_MAX,
  changeAttributeType,
  emptyAttributeRow,
  type AttributeErrors,
  type AttributeRow,
  type AttributeType,
} from '../product-attributes';

/** One attribute: its name, its type and a value input matching the type. */
function AttributeRowFields({
  row,
  index,
  errors,
  onChange,
  onRemove,
}: {
  row: AttributeRow;
  index: number;
  errors: AttributeErrors['rows'][string] | undefined;
  onChange: (row: AttributeRow) => void;
  onRemove: () => void;
}) {
  const checkboxId = useId();
  const label = `attribute ${index + 1}`;
  return (
    <li className="attribute-row" aria-label={`Attribute ${index + 1}`}>
      <TextField
        label="Attribute name"
        autoComplete="off"
        value={row.name}
        error={errors?.name}
        onChange={(e) => onChange({ ...row, name: e.target.value })}
      />
      <SelectField
        label="Type"
        value={row.type}
        options={ATTRIBUTE_TYPES}
        onChange={(e) => onChange(changeAttributeType(row, e.target.value as AttributeType))}
      />
      {row.type === 'boolean' ? (
        <div className="field attribute-row__check">
          <span className="field__label" aria-hidden="true">
            Value
          </span>
          <label htmlFor={checkboxId} className="check">
            <input
              id={checkboxId}
              type="checkbox"
              checked={row.value === 'true'}
              onChange={(e) => onChange({ ...row, value: String(e.target.checked) })}
            />
            Yes
          </label>
        </div>
      ) : (
        <TextField
          label="Value"
          type={row.type === 'text' ? 'text' : row.type}
          step={row.type === 'number' ? 'any' : undefined}
          autoComplete="off"
          value={row.value}
          error={errors?.value}
          onChange={(e) => onChange({ ...row, value: e.target.value })}
        />
      )}
      <button
        type="button"
        className="icon-btn icon-btn--danger attribute-row__remove"
        title="Remove"
        aria-label={`Remove ${label}`}
        onClick={onRemove}
      >
        <TrashBinTrashIcon />
      </button>
    </li>
  );
}

/** The product form's attributes: rows to add, change and remove. */
export function AttributesEditor({
  rows,
  errors,
  onChange,
}: {
  rows: readonly AttributeRow[];
  errors: AttributeErrors;
  onChange: (rows: AttributeRow[]) => void;
}) {
  const headingId = useId();
  return (
    <fieldset className="fieldset attributes-editor" aria-labelledby={headingId}>
      <legend id={headingId} className="field__label">
        Attributes
      </legend>
      {rows.length === 0 ? (
        <p className="muted">No attributes. Add one for a net weight, a flag or a date.</p>
      ) : (
        <ul className="plain-list">
          {rows.map((row, index) => (
            <AttributeRowFields
              key={row.key}
              row={row}
              index={index}
              errors={errors.rows[row.key]}
              onChange={(changed) => onChange(rows.map((r) => (r.key === row.key ? changed : r)))}
              onRemove={() => onChange(rows.filter((r) => r.key !== row.key))}
            />
          ))}
        </ul>
      )}
      {errors.list ? (
        <p className="field__error" role="alert">
          {errors.list}
        </p>
      ) : null}
      <Button
        variant="secondary"
        disabled={rows.length >= ATTRIBUTES_MAX}
        onClick={() => onChange([...rows, emptyAttributeRow()])}
      >
        <AddCircleIcon />
        Add attribute
      </Button>
    </fieldset>
  );
}
