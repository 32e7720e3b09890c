import { SubmissionKeys } from './idempotency';

describe('SubmissionKeys', () => {
  it('sends the same key again for the same body until it succeeds', () => {
    let n = 0;
    const keys = new SubmissionKeys(() => `key-${(n += 1)}`);
    const body = { quantity: '5', lot_id: 'l1' };
    expect(keys.keyFor(body)).toBe('key-1');
    // A retry (a network failure, a second click) of the same submission.
    expect(keys.keyFor({ ...body })).toBe('key-1');
    // A changed form is a new submission.
    expect(keys.keyFor({ ...body, quantity: '6' })).toBe('key-2');
    keys.done();
    // The same values again after a success: a second, deliberate move.
    expect(keys.keyFor({ ...body, quantity: '6' })).toBe('key-3');
  });

  it('makes random keys by default', () => {
    const a = new SubmissionKeys().keyFor({});
    const b = new SubmissionKeys().keyFor({});
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});
