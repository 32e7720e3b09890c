import { useId, type ReactNode } from 'react';

/** One option of a `ChoiceField`. */
export interface Choice<V extends string> {
  value: V;
  label: string;
  hint?: ReactNode;
  disabled?: boolean;
}

interface ChoiceFieldProps<V extends string> {
  /** The question, as the group's legend. */
  label: string;
  /** The radios' shared name (a form's field name). */
  name: string;
  options: readonly Choice<V>[];
  /** The chosen option's value ('' or anything else: none chosen). */
  value: string;
  onChange: (value: V) => void;
  /** About the whole choice, under the legend. */
  hint?: ReactNode;
  error?: string | null;
  disabled?: boolean;
}

/**
 * One choice among a few options shown side by side, each with its label and
 * a hint: a `fieldset` whose `legend` names it, and native radios (Tab enters
 * the group, the arrow keys move the choice). Each radio's accessible name is
 * its label, its description its hint and the error; the group's description
 * is its hint and the error.
 */
export function ChoiceField<V extends string>({
  label,
  name,
  options,
  value,
  onChange,
  hint,
  error,
  disabled,
}: ChoiceFieldProps<V>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const ids = (...all: (string | false | undefined)[]) =>
    all.filter(Boolean).join(' ') || undefined;

  return (
    <fieldset
      className="fieldset"
      disabled={disabled}
      aria-describedby={ids(hint ? hintId : false, error ? errorId : false)}
    >
      <legend className="field__label">{label}</legend>
      {hint ? (
        <span className="field__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      <div className="choice-grid">
        {options.map((option, index) => {
          const optionId = `${id}-${index}`;
          return (
            <label key={option.value} className="choice">
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={value === option.value}
                disabled={option.disabled}
                onChange={() => onChange(option.value)}
                aria-invalid={error ? true : undefined}
                aria-labelledby={`${optionId}-label`}
                aria-describedby={ids(
                  option.hint ? `${optionId}-hint` : false,
                  error ? errorId : false,
                )}
              />
              <span>
                <span className="choice__label" id={`${optionId}-label`}>
                  {option.label}
                </span>
                {option.hint ? (
                  <span className="choice__hint" id={`${optionId}-hint`}>
                    {option.hint}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <span className="field__error" id={errorId} role="alert">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
