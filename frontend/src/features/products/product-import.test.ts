import { importedMessage, readyMessage } from './product-import';

describe('import messages', () => {
  it('counts products', () => {
    expect(readyMessage(2)).toBe('2 products ready to import.');
    expect(readyMessage(1)).toBe('1 product ready to import.');
    expect(readyMessage(0)).toBe('The file has no products.');
    expect(importedMessage(2)).toBe('2 products imported.');
  });
});
