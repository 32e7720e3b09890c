/**
 * The CIN's rules, as the server checks them (`backend/src/companies/mod.rs`,
 * `Cin::parse`), with the same messages: the page says what is wrong before
 * sending, and the server stays the authority.
 */

/** The Ministry of Corporate Affairs' state and union territory codes. */
export const STATE_CODES: readonly string[] = [
  'AN',
  'AP',
  'AR',
  'AS',
  'BR',
  'CH',
  'CT',
  'DD',
  'DL',
  'DN',
  'GA',
  'GJ',
  'HP',
  'HR',
  'JH',
  'JK',
  'KA',
  'KL',
  'LA',
  'LD',
  'MH',
  'ML',
  'MN',
  'MP',
  'MZ',
  'NL',
  'OR',
  'PB',
  'PY',
  'RJ',
  'SK',
  'TG',
  'TN',
  'TR',
  'UP',
  'UR',
  'WB',
];

/** The ownership types of CINs. */
export const OWNERSHIP_TYPES: readonly string[] = [
  'PLC',
  'PTC',
  'GOI',
  'SGC',
  'FLC',
  'FTC',
  'GAP',
  'GAT',
  'NPL',
  'ULL',
  'ULT',
  'OPC',
];

export const FIRST_YEAR = 1850;

const digits = (s: string) => /^[0-9]+$/.test(s);

/** What is wrong with `cin`, part by part, or null when it is a valid CIN. */
export function cinProblem(cin: string, currentYear = new Date().getFullYear()): string | null {
  const length = [...cin].length;
  // eslint-disable-next-line no-control-regex
  if (length !== 21 || !/^[\x00-\x7f]*$/.test(cin)) {
    return `CIN must be exactly 21 characters (e.g. L24230MH1950PLC008311); this one has ${length}.`;
  }
  if (/[a-z]/.test(cin)) return 'CIN must be written in capital letters.';
  const listing = cin.slice(0, 1);
  const industry = cin.slice(1, 6);
  const state = cin.slice(6, 8);
  const year = cin.slice(8, 12);
  const ownership = cin.slice(12, 15);
  const number = cin.slice(15, 21);
  if (listing !== 'L' && listing !== 'U') {
    return `CIN listing status (character 1) must be L (listed) or U (unlisted), not ${listing}.`;
  }
  if (!digits(industry)) {
    return `CIN industry code (characters 2 to 6) must be 5 digits, not ${industry}.`;
  }
  if (!STATE_CODES.includes(state)) {
    return `CIN state code (characters 7 and 8) must be an Indian state or union territory code such as MH or DL, not ${state}.`;
  }
  const y = Number(year);
  if (!digits(year) || y < FIRST_YEAR || y > currentYear) {
    return `CIN year of incorporation (characters 9 to 12) must be a year from ${FIRST_YEAR} to ${currentYear}, not ${year}.`;
  }
  if (!OWNERSHIP_TYPES.includes(ownership)) {
    return `CIN ownership type (characters 13 to 15) must be one of ${OWNERSHIP_TYPES.join(', ')}, not ${ownership}.`;
  }
  if (!digits(number)) {
    return `CIN registration number (characters 16 to 21) must be 6 digits, not ${number}.`;
  }
  return null;
}
