import type { ComponentProps } from 'react';
import { TextField } from '@/components/ui/form-field';
import { LIMITS, limitRange, type LimitKey } from '../limits';

type LimitFieldProps = { name: LimitKey } & Omit<
  ComponentProps<typeof TextField>,
  'label' | 'name' | 'type' | 'min' | 'max'
>;

/** A number input for one plan limit, labelled and bounded as the server accepts it. */
export function LimitField({ name, hint, ...input }: LimitFieldProps) {
  const { label, min, max } = LIMITS[name];
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      autoComplete="off"
      hint={hint ?? `${limitRange(name)}.`}
      {...input}
    />
  );
}
