import { useState, type ChangeEvent, type FormEvent } from 'react';

export type FieldErrors<V> = Partial<Record<keyof V, string>>;

/**
 * What every form of the app keeps: its values, the errors found before
 * sending, the server's reason after, and whether it is sending.
 * With `clearErrorOnChange`, editing a field clears that field's error.
 */
export function useForm<V extends Record<string, string>>(
  initial: V,
  { clearErrorOnChange = false }: { clearErrorOnChange?: boolean } = {},
) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Changes the field `name` (and, with `clearErrorOnChange`, clears its error). */
  function set(name: keyof V, value: string) {
    setValues((current) => ({ ...current, [name]: value }));
    if (clearErrorOnChange) setErrors((current) => ({ ...current, [name]: undefined }));
  }

  return {
    values,
    errors,
    serverError,
    busy,
    reset: () => setValues(initial),

    /** `value`, `onChange` and `error` for the field `name`. */
    field: (name: keyof V) => ({
      value: values[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
        set(name, event.target.value),
      error: errors[name] ?? null,
    }),

    /** `value`, `onChange` (with the chosen value) and `error` for a `ChoiceField`. */
    choice: (name: keyof V) => ({
      name: String(name),
      value: values[name],
      onChange: (value: string) => set(name, value),
      error: errors[name] ?? null,
    }),

    /**
     * The form's `onSubmit`: `validate` finds the field errors; with none,
     * `send` runs while `busy`, and the message it returns, if any, becomes
     * `serverError`.
     */
    onSubmit:
      (validate: (values: V) => FieldErrors<V>, send: (values: V) => Promise<string | null>) =>
      async (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        const found = validate(values);
        setErrors(found);
        if (Object.values(found).some(Boolean)) return;
        setBusy(true);
        setServerError(null);
        const failure = await send(values);
        setBusy(false);
        setServerError(failure);
      },
  };
}
