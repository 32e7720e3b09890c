import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ChoiceField, type Choice } from './choice-field';

type Size = 'small' | 'large' | 'huge';

const SIZES: readonly Choice<Size>[] = [
  { value: 'small', label: 'Small', hint: 'Fits a pocket.' },
  { value: 'large', label: 'Large', hint: 'Fits a bag.' },
  { value: 'huge', label: 'Huge' },
];

/** A page that keeps the choice, as the app's pages do. */
function Sizes({
  initial = 'small',
  error,
  hint,
  options = SIZES,
  onChange,
}: {
  initial?: string;
  error?: string | null;
  hint?: string;
  options?: readonly Choice<Size>[];
  onChange?: (value: Size) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <ChoiceField
      label="Size"
      name="size"
      options={options}
      value={value}
      hint={hint}
      error={error}
      onChange={(next) => {
        setValue(next);
        onChange?.(next);
      }}
    />
  );
}

describe('ChoiceField', () => {
  it('is a group named by its legend, with one radio per option named by its label and described by its hint', () => {
    render(<Sizes />);
    const group = screen.getByRole('group', { name: 'Size' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['small', 'large', 'huge']);
    expect(within(group).getByRole('radio', { name: 'Small' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Small' })).toHaveAccessibleDescription(
      'Fits a pocket.',
    );
    expect(within(group).getByRole('radio', { name: 'Large' })).not.toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Huge' })).not.toHaveAttribute(
      'aria-describedby',
    );
    expect(radios.every((r) => r.getAttribute('name') === 'size')).toBe(true);
  });

  it('says which option was chosen, by click and with the keyboard', async () => {
    const chosen: Size[] = [];
    const user = userEvent.setup();
    render(<Sizes onChange={(v) => chosen.push(v)} />);
    await user.click(screen.getByText('Fits a bag.'));
    expect(screen.getByRole('radio', { name: 'Large' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Small' })).not.toBeChecked();

    // Tab enters the group on the chosen radio; the arrows move the choice.
    screen.getByRole('radio', { name: 'Large' }).blur();
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Large' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'Huge' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Huge' })).toHaveFocus();
    expect(chosen).toEqual(['large', 'huge']);
  });

  it('checks nothing when the value is none of the options', () => {
    render(<Sizes initial="" />);
    expect(screen.getAllByRole('radio').some((r) => (r as HTMLInputElement).checked)).toBe(false);
  });

  it('ties its error to the group and to every radio, and marks them invalid', () => {
    render(<Sizes error="Choose a size." hint="The box it comes in." />);
    const group = screen.getByRole('group', { name: 'Size' });
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a size.');
    expect(group).toHaveAccessibleDescription('The box it comes in. Choose a size.');
    expect(screen.getByRole('radio', { name: 'Small' })).toHaveAccessibleDescription(
      'Fits a pocket. Choose a size.',
    );
    expect(screen.getByRole('radio', { name: 'Huge' })).toHaveAccessibleDescription(
      'Choose a size.',
    );
    expect(screen.getByRole('radio', { name: 'Huge' })).toBeInvalid();
  });

  it('has no error, alert or invalid mark without an error', () => {
    render(<Sizes />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('group')).not.toHaveAttribute('aria-describedby');
    expect(screen.getByRole('radio', { name: 'Small' })).not.toBeInvalid();
  });

  it('keeps a disabled option from being chosen', async () => {
    const user = userEvent.setup();
    const chosen: Size[] = [];
    render(
      <Sizes
        options={[SIZES[0]!, { ...SIZES[1]!, disabled: true }]}
        onChange={(v) => chosen.push(v)}
      />,
    );
    expect(screen.getByRole('radio', { name: 'Large' })).toBeDisabled();
    await user.click(screen.getByText('Large'));
    expect(screen.getByRole('radio', { name: 'Small' })).toBeChecked();
    expect(chosen).toEqual([]);
  });

  it('gives two fields on one page their own ids', () => {
    render(
      <>
        <Sizes error="First." />
        <Sizes error="Second." />
      </>,
    );
    const [first, second] = screen.getAllByRole('group');
    expect(within(first!).getByRole('radio', { name: 'Small' })).toHaveAccessibleDescription(
      'Fits a pocket. First.',
    );
    expect(within(second!).getByRole('radio', { name: 'Small' })).toHaveAccessibleDescription(
      'Fits a pocket. Second.',
    );
  });
});
