import { describe, expect, it } from 'vitest';
import { placeSource, scanKind, toCodeHistory, verdictLabel } from './code-history';

describe('toCodeHistory', () => {
  it('reads a code and its scans, places as people read them', () => {
    const history = toCodeHistory({
      id: '0A1b2C3d4E5',
      product_name: 'Aspirin',
      scan_count: '3',
      consumers: 2,
      suspicious: true,
      scans: [
        {
          scanned_at: '2026-11-27T06:00:00Z',
          verdict: 'suspicious',
          first_scan: false,
          consumer_first: true,
          consumer: 'Consumer 2',
          country: 'IN',
          country_name: 'India',
          region: 'Maharashtra',
          city: 'Mumbai',
          location_source: 'ip',
        },
        { verdict: 'genuine', first_scan: true, consumer_first: true, country: '' },
        'not a scan',
      ],
    });
    expect(history.scanCount).toBe(3);
    expect(history.suspicious).toBe(true);
    expect(history.scans).toHaveLength(2);
    expect(history.scans[0]).toMatchObject({
      consumer: 'Consumer 2',
      place: 'Mumbai, Maharashtra, India',
      consumerFirst: true,
    });
    expect(history.scans[1]?.place).toBe('Unknown');
  });

  it('treats a missing answer as an empty history, never suspicious', () => {
    const history = toCodeHistory(null);
    expect(history.scans).toEqual([]);
    expect(history.suspicious).toBe(false);
    expect(history.scanCount).toBe(0);
  });
});

describe('scan labels', () => {
  it('tells the first scan, a new consumer and a repeat apart', () => {
    expect(scanKind({ firstScan: true, consumerFirst: true })).toBe('First scan');
    expect(scanKind({ firstScan: false, consumerFirst: true })).toBe('First by this consumer');
    expect(scanKind({ firstScan: false, consumerFirst: false })).toBe('Repeat by this consumer');
  });

  it('names verdicts and place sources', () => {
    expect(verdictLabel('not_recognised')).toBe('Not recognised');
    expect(verdictLabel('genuine')).toBe('Genuine');
    expect(placeSource('browser')).toBe('shared by the consumer');
    expect(placeSource('none')).toBe('');
  });
});
