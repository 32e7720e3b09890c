import { locationLabel, locationTree } from './location-tree';

const loc = (id: string, code: string, parent_id: string | null = null) => ({
  id,
  code,
  name: `Location ${code}`,
  parent_id,
});

describe('locationTree', () => {
  it('puts children under their parents, siblings by code, with depth and path', () => {
    const tree = locationTree([
      loc('b1', 'A-02', 'z1'),
      loc('w2', 'WH2'),
      loc('z1', 'A', 'w1'),
      loc('b0', 'A-01', 'z1'),
      loc('w1', 'WH1'),
      loc('q', 'QUAR', 'w1'),
    ]);
    expect(tree.map((e) => [e.location.id, e.depth, e.path])).toEqual([
      ['w1', 0, 'WH1'],
      ['z1', 1, 'WH1 / A'],
      ['b0', 2, 'WH1 / A / A-01'],
      ['b1', 2, 'WH1 / A / A-02'],
      ['q', 1, 'WH1 / QUAR'],
      ['w2', 0, 'WH2'],
    ]);
    expect(locationLabel(tree[2]!)).toBe('WH1 / A / A-01 — Location A-01');
  });

  it('shows a location whose parent it cannot see as a root, and survives a cycle', () => {
    const tree = locationTree([loc('a', 'A', 'gone'), loc('x', 'X', 'y'), loc('y', 'Y', 'x')]);
    expect(tree.map((e) => e.location.id).sort()).toEqual(['a', 'x', 'y']);
    expect(tree.find((e) => e.location.id === 'a')?.depth).toBe(0);
  });
});
