import type { SessionUser } from '@/lib/api/types';
import {
  DATA_SLICES,
  PERSIST_KEY,
  PERSIST_RESTORE_TIMEOUT_MS,
  initialData,
  readStoredCsrfToken,
  useAppStore,
  waitForRestore,
} from './app-store';

const user: SessionUser = {
  id: 'u1',
  name: 'Ada Admin',
  email: 'admin@acme.test',
  role: 'admin',
  clientId: 'acme',
};

function stored(): unknown {
  const raw = window.localStorage.getItem(PERSIST_KEY);
  return raw === null ? null : JSON.parse(raw);
}

beforeEach(() => {
  useAppStore.setState(initialData());
  window.localStorage.clear();
});

describe('app store', () => {
  it('has every slice of the spec, each starting idle', () => {
    const state = useAppStore.getState();
    expect(DATA_SLICES).toEqual([
      'brandscans',
      'reviews',
      'orders',
      'sessions',
      'consumers',
      'productJourney',
      'traceability',
      'adminScans',
      'products',
      'users',
    ]);
    for (const name of ['auth', ...DATA_SLICES] as const) {
      expect(state[name].status).toBe('idle');
    }
    expect(state.adminScans.activeBrandId).toBeNull();
  });

  it('persists only auth user and csrfToken, under the key "root"', () => {
    const s = useAppStore.getState();
    s.sessionLoaded({
      user,
      csrfToken: 'csrf-1',
      allowedPaths: ['/', '/profile'],
      assignableRoles: ['worker', 'manager'],
      modules: [],
      moduleCatalogue: [],
    });
    s.loadSucceeded('users', [{ id: 'u2', name: 'B', email: 'b@acme.test', role: 'worker' }]);
    s.setActiveBrandId('acme');

    expect(Object.keys(window.localStorage)).toEqual([PERSIST_KEY]);
    expect(stored()).toEqual({
      state: { auth: { user, csrfToken: 'csrf-1' } },
      version: 1,
    });
    expect(readStoredCsrfToken()).toBe('csrf-1');
  });

  it('restores the persisted auth on rehydrate, without allowedPaths', async () => {
    window.localStorage.setItem(
      PERSIST_KEY,
      JSON.stringify({ state: { auth: { user, csrfToken: 'csrf-2' } }, version: 1 }),
    );
    await useAppStore.persist.rehydrate();
    const { auth } = useAppStore.getState();
    expect(auth.user).toEqual(user);
    expect(auth.csrfToken).toBe('csrf-2');
    expect(auth.allowedPaths).toEqual([]);
    expect(auth.assignableRoles).toEqual([]);
    expect(auth.sessionChecked).toBe(false);
  });

  it('treats malformed persisted state as signed out', async () => {
    window.localStorage.setItem(
      PERSIST_KEY,
      JSON.stringify({ state: { auth: { user: 'nope', csrfToken: 42 } }, version: 1 }),
    );
    await useAppStore.persist.rehydrate();
    expect(useAppStore.getState().auth.user).toBeNull();
    expect(useAppStore.getState().auth.csrfToken).toBeNull();

    window.localStorage.setItem(PERSIST_KEY, '{not json');
    expect(readStoredCsrfToken()).toBeNull();
  });

  it('resetAll resets every slice and removes the persisted state', () => {
    const s = useAppStore.getState();
    s.sessionLoaded({
      user,
      csrfToken: 'csrf-1',
      allowedPaths: ['/'],
      assignableRoles: [],
      modules: [],
      moduleCatalogue: [],
    });
    for (const name of DATA_SLICES) s.startLoading(name);
    s.loadSucceeded('users', [{ id: 'u2', name: 'B', email: 'b@acme.test', role: 'worker' }]);
    s.setActiveBrandId('acme');
    expect(window.localStorage.getItem(PERSIST_KEY)).not.toBeNull();

    useAppStore.getState().resetAll();

    const after = useAppStore.getState();
    const fresh = initialData();
    for (const name of ['auth', ...DATA_SLICES] as const) {
      expect(after[name]).toEqual(fresh[name]);
    }
    expect(window.localStorage.getItem(PERSIST_KEY)).toBeNull();
    expect(readStoredCsrfToken()).toBeNull();
  });

  it('moves slices through loading, succeeded and failed', () => {
    const s = useAppStore.getState();
    s.startLoading('brandscans');
    expect(useAppStore.getState().brandscans).toMatchObject({ status: 'loading', error: null });
    s.loadFailed('brandscans', 'Failed to fetch brand scans');
    expect(useAppStore.getState().brandscans).toMatchObject({
      status: 'failed',
      error: 'Failed to fetch brand scans',
    });
    s.startLoading('brandscans');
    const data = {
      scan: [{ id: '0A1b2C3d4E5', productId: 'p1', scanCount: 3, consumers: 2, suspicious: false }],
      locations: [],
      productScans: [{ productId: 'p1', sum: 3 }],
      totalQrGenerated: [{ productId: 'p1', count: 1000 }],
      qrCodesRemaining: 4_999_000,
    };
    s.loadSucceeded('brandscans', data);
    expect(useAppStore.getState().brandscans).toMatchObject({
      status: 'succeeded',
      data,
      error: null,
    });
  });

  it('keeps the admin scans brand filter apart from the list and its lifecycle', () => {
    const s = useAppStore.getState();
    s.setActiveBrandId('acme');
    s.startLoading('adminScans');
    expect(useAppStore.getState().adminScans).toMatchObject({
      status: 'loading',
      activeBrandId: 'acme',
    });
    s.loadSucceeded('adminScans', []);
    expect(useAppStore.getState().adminScans).toEqual({
      status: 'succeeded',
      data: [],
      error: null,
      activeBrandId: 'acme',
    });
    s.setActiveBrandId(null);
    expect(useAppStore.getState().adminScans.activeBrandId).toBeNull();
  });

  it('clears product journey and traceability data when a load starts, not other slices', () => {
    const s = useAppStore.getState();
    const product = { id: 'p1', product_name: 'Tea', skuid: 'TEA-1', gtin: '09506000134352' };
    s.loadSucceeded('productJourney', { product, steps: [], truncated: false });
    s.loadSucceeded('traceability', {
      product,
      lots: ['L1'],
      scans: 0,
      truncated: false,
      upstream: { commissioned: [], transformed_from: [] },
      downstream: {
        containers: [],
        packed_into: [],
        shipped: [],
        received: [],
        transformed_into: [],
      },
    });
    s.loadSucceeded('orders', { items: [1] });
    s.startLoading('productJourney');
    s.startLoading('traceability');
    s.startLoading('orders');
    const after = useAppStore.getState();
    expect(after.productJourney.data).toBeNull();
    expect(after.traceability.data).toBeNull();
    expect(after.orders.data).toEqual({ items: [1] });
  });

  it('adds and removes organisation users', () => {
    const s = useAppStore.getState();
    s.loadSucceeded('users', [{ id: 'a', name: 'A', email: 'a@x.test', role: 'worker' }]);
    s.addOrgUser({ id: 'b', name: 'B', email: 'b@x.test', role: 'manager' });
    expect(useAppStore.getState().users.data.map((u) => u.id)).toEqual(['a', 'b']);
    s.removeOrgUser('a');
    expect(useAppStore.getState().users.data.map((u) => u.id)).toEqual(['b']);
  });
});

describe('products slice', () => {
  const product = (id: string) => ({
    id,
    product_name: `P ${id}`,
    skuid: `SKU-${id}`,
    gtin: '04006381333931',
    category: '',
    image_urls: [],
    metadata: {},
    attributes: [],
    product_description: '',
    requires_inspection: false,
    unit: 'each',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  });

  it('adds, replaces and archives products, keeping the count', () => {
    const s = useAppStore.getState();
    s.productSaved(product('x'));
    expect(useAppStore.getState().products.data.products).toEqual([]); // not loaded: nothing kept
    s.loadSucceeded('products', {
      products: [product('a')],
      maxProducts: 10,
      addedProducts: 1,
      limitKnown: true,
    });
    s.productSaved(product('b'));
    s.productSaved({ ...product('a'), product_name: 'Renamed' });
    let list = useAppStore.getState().products.data;
    expect(list.products.map((p) => p.product_name)).toEqual(['Renamed', 'P b']);
    expect(list.addedProducts).toBe(2);
    s.productArchived('a');
    s.productArchived('unknown');
    list = useAppStore.getState().products.data;
    expect(list.products.map((p) => p.id)).toEqual(['b']);
    expect(list.addedProducts).toBe(1);
  });
});

describe('waitForRestore', () => {
  it('resolves at once when the state is already restored', async () => {
    await expect(waitForRestore()).resolves.toBe('restored');
  });

  it(`gives up after ${PERSIST_RESTORE_TIMEOUT_MS} ms`, async () => {
    vi.useFakeTimers();
    try {
      vi.spyOn(useAppStore.persist, 'hasHydrated').mockReturnValue(false);
      const unsubscribe = vi.fn();
      vi.spyOn(useAppStore.persist, 'onFinishHydration').mockReturnValue(unsubscribe);
      let result: string | undefined;
      void waitForRestore().then((r) => (result = r));
      await vi.advanceTimersByTimeAsync(PERSIST_RESTORE_TIMEOUT_MS - 1);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(result).toBe('timeout');
      expect(unsubscribe).toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
