import { render, screen } from '@testing-library/react';
import { CompletenessBar } from './completeness-bar';

describe('CompletenessBar', () => {
  it('is green (complete), never the danger colour, when full', () => {
    render(<CompletenessBar value={100} label="Completeness" />);
    const bar = screen.getByRole('meter', { name: 'Completeness' }).firstElementChild!;
    expect(bar).toHaveClass('meter__bar--complete');
    expect(bar).not.toHaveClass('meter__bar--full');
  });

  it('is the plain bar while incomplete', () => {
    render(<CompletenessBar value={40} label="Completeness" />);
    const bar = screen.getByRole('meter', { name: 'Completeness' }).firstElementChild!;
    expect(bar).not.toHaveClass('meter__bar--complete');
  });
});
