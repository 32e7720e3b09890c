import { describe, expect, it } from 'vitest';
import { OWNERSHIP_TYPES, STATE_CODES, cinProblem } from './cin';

describe('cinProblem', () => {
  it('accepts valid CINs', () => {
    for (const cin of ['L24230MH1950PLC008311', 'U72200KA2007PTC041799', 'U74999DL2015OPC123456']) {
      expect(cinProblem(cin, 2026)).toBeNull();
    }
    for (const s of STATE_CODES) {
      for (const o of OWNERSHIP_TYPES) {
        expect(cinProblem(`U12345${s}2000${o}000001`, 2026)).toBeNull();
      }
    }
  });

  it('names the part that is wrong, as the server does', () => {
    const cases: [string, string][] = [
      ['L24230MH1950PLC00831', 'exactly 21 characters'],
      ['L24230MH1950PLC0083111', 'exactly 21 characters'],
      ['l24230mh1950plc008311', 'capital letters'],
      ['X24230MH1950PLC008311', 'listing status (character 1)'],
      ['L2423XMH1950PLC008311', 'industry code (characters 2 to 6)'],
      ['L24230ZZ1950PLC008311', 'state code (characters 7 and 8)'],
      ['L24230MH1849PLC008311', 'year of incorporation'],
      ['L24230MH2027PLC008311', 'from 1850 to 2026'],
      ['L24230MH1950XYZ008311', 'ownership type (characters 13 to 15)'],
      ['L24230MH1950PLC00831X', 'registration number (characters 16 to 21)'],
    ];
    for (const [cin, part] of cases) {
      expect(cinProblem(cin, 2026)).toContain(part);
    }
  });
});
