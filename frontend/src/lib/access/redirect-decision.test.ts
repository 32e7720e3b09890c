import { decideRedirect, safeRedirectTarget, type RedirectFacts } from './redirect-decision';
import { isPathAllowed, normalizePath, pathUnder } from './path-access';

// What the server sends for an acme admin; the test does not rely on which
// role gets what, only on matching against the list it is given.
const adminPaths = [
  '/',
  '/ui/table',
  '/products',
  '/printer',
  '/pharmagen/batchupdate',
  '/profile',
  '/settings',
  '/manage_org',
];
const workerPaths = ['/', '/ui/table', '/products', '/profile', '/products/Add_product'];

function facts(over: Partial<RedirectFacts> = {}): RedirectFacts {
  return {
    pathname: '/',
    storedCsrfToken: 'tok',
    user: { role: 'admin', clientId: 'acme' },
    allowedPaths: adminPaths,
    clientArea: null,
    ...over,
  };
}

describe('pathUnder / isPathAllowed', () => {
  it('normalizes case and trailing slashes', () => {
    expect(normalizePath('/Products/')).toBe('/products');
    expect(normalizePath('/printer///')).toBe('/printer');
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('/')).toBe('/');
  });

  it('matches equal paths case-insensitively and ignoring a trailing slash', () => {
    expect(pathUnder('/products', '/products')).toBe(true);
    expect(pathUnder('/PRODUCTS', '/products')).toBe(true);
    expect(pathUnder('/products/', '/products')).toBe(true);
    expect(pathUnder('/products', '/products/')).toBe(true);
    expect(pathUnder('/Settings', '/settings')).toBe(true);
  });

  it('matches paths below an allowed path on a "/" boundary only', () => {
    expect(pathUnder('/products/42', '/products')).toBe(true);
    expect(pathUnder('/products/Edit_product/abc', '/products')).toBe(true);
    expect(pathUnder('/productsX', '/products')).toBe(false);
    expect(pathUnder('/products-old', '/products')).toBe(false);
    expect(pathUnder('/product', '/products')).toBe(false);
  });

  it('lets "/" match only "/"', () => {
    expect(pathUnder('/', '/')).toBe(true);
    expect(pathUnder('', '/')).toBe(true);
    expect(pathUnder('/manage_org', '/')).toBe(false);
  });

  it('checks the whole list', () => {
    expect(isPathAllowed('/printer/', adminPaths)).toBe(true);
    expect(isPathAllowed('/printer/', workerPaths)).toBe(false);
    expect(isPathAllowed('/products/add_product', workerPaths)).toBe(true);
    expect(isPathAllowed('/anything', [])).toBe(false);
  });
});

describe('decideRedirect', () => {
  describe('no CSRF token in local storage', () => {
    it('resets auth and goes to login, remembering the page', () => {
      const d = decideRedirect(
        facts({ storedCsrfToken: null, pathname: '/manage_org', search: '?x=1' }),
      );
      expect(d).toEqual({
        kind: 'redirect',
        to: '/auth/login?redirectTo=%2Fmanage_org%3Fx%3D1',
        resetAuth: true,
        reason: 'no-csrf-token',
      });
    });

    it('goes to plain login from "/"', () => {
      const d = decideRedirect(facts({ storedCsrfToken: '', pathname: '/' }));
      expect(d).toMatchObject({ kind: 'redirect', to: '/auth/login', resetAuth: true });
    });

    it('stays on /auth/... pages (and still resets auth)', () => {
      expect(decideRedirect(facts({ storedCsrfToken: null, pathname: '/auth/login' }))).toEqual({
        kind: 'allow',
        resetAuth: true,
      });
      expect(decideRedirect(facts({ storedCsrfToken: undefined, pathname: '/AUTH/404/' }))).toEqual(
        { kind: 'allow', resetAuth: true },
      );
    });

    it('does not treat /authority as an /auth/ page', () => {
      const d = decideRedirect(facts({ storedCsrfToken: null, pathname: '/authority' }));
      expect(d).toMatchObject({ kind: 'redirect', reason: 'no-csrf-token' });
    });
  });

  describe('signed in on /auth/...', () => {
    it('redirects to /', () => {
      expect(decideRedirect(facts({ pathname: '/auth/login' }))).toEqual({
        kind: 'redirect',
        to: '/',
        resetAuth: false,
        reason: 'signed-in-on-auth-page',
      });
      expect(decideRedirect(facts({ pathname: '/Auth/Login/' }))).toMatchObject({ to: '/' });
    });

    it('goes to the page asked for before signing in', () => {
      const d = decideRedirect(facts({ pathname: '/auth/login', redirectTo: '/manage_org?tab=1' }));
      expect(d).toMatchObject({ kind: 'redirect', to: '/manage_org?tab=1' });
    });

    it('ignores a redirect target off the site or back to /auth', () => {
      for (const redirectTo of ['https://evil.test', '//evil.test', '/auth/login']) {
        expect(decideRedirect(facts({ pathname: '/auth/login', redirectTo }))).toMatchObject({
          to: '/',
        });
      }
    });

    it('uses the landing page preference when it is allowed', () => {
      expect(
        decideRedirect(facts({ pathname: '/auth/login', landingPath: '/ui/table' })),
      ).toMatchObject({ to: '/ui/table' });
      expect(
        decideRedirect(facts({ pathname: '/auth/login', landingPath: '/admin/dashboard' })),
      ).toMatchObject({ to: '/' });
      expect(
        decideRedirect(
          facts({ pathname: '/auth/login', landingPath: '/ui/table', redirectTo: '/profile' }),
        ),
      ).toMatchObject({ to: '/profile' });
    });

    it('still shows the 404 page', () => {
      expect(decideRedirect(facts({ pathname: '/auth/404' }))).toEqual({
        kind: 'allow',
        resetAuth: false,
      });
    });
  });

  describe('no role', () => {
    it.each([null, undefined, { role: null }, { role: '' }, { clientId: 'acme' }])(
      'sends %o to login',
      (user) => {
        const d = decideRedirect(facts({ user, pathname: '/profile' }));
        expect(d).toMatchObject({
          kind: 'redirect',
          to: '/auth/login?redirectTo=%2Fprofile',
          resetAuth: true,
          reason: 'no-role',
        });
      },
    );
  });

  describe('role without a matching path', () => {
    it('goes to /unauthorized', () => {
      const d = decideRedirect(
        facts({ user: { role: 'worker' }, allowedPaths: workerPaths, pathname: '/manage_org' }),
      );
      expect(d).toEqual({
        kind: 'redirect',
        to: '/unauthorized',
        resetAuth: false,
        reason: 'path',
      });
    });

    it('does not let /products open /productsX', () => {
      expect(decideRedirect(facts({ pathname: '/productsX' }))).toMatchObject({
        to: '/unauthorized',
      });
    });

    it('does not let "/" open everything', () => {
      expect(decideRedirect(facts({ allowedPaths: ['/'], pathname: '/profile' }))).toMatchObject({
        to: '/unauthorized',
      });
    });

    it('refuses everything when the server allows nothing', () => {
      expect(decideRedirect(facts({ allowedPaths: [], pathname: '/' }))).toMatchObject({
        to: '/unauthorized',
      });
    });
  });

  describe('matching paths', () => {
    it.each([
      '/',
      '/products',
      '/Products/',
      '/products/42',
      '/PRINTER/',
      '/settings',
      '/Settings',
    ])('allows %s', (pathname) => {
      expect(decideRedirect(facts({ pathname }))).toEqual({ kind: 'allow', resetAuth: false });
    });

    it('allows a worker into /products/Add_product', () => {
      const d = decideRedirect(
        facts({
          user: { role: 'worker' },
          allowedPaths: workerPaths,
          pathname: '/products/add_product/',
        }),
      );
      expect(d.kind).toBe('allow');
    });
  });

  describe('client-scoped areas', () => {
    const clientA = { clientId: 'clientA', roles: ['admin', 'employee'] };
    const clientAPaths = ['/', '/clientA', '/gme', '/profile', '/settings'];

    it('lets a clientA employee in', () => {
      const d = decideRedirect(
        facts({
          user: { role: 'employee', clientId: 'clientA' },
          allowedPaths: clientAPaths,
          pathname: '/clientA/dashboard',
          clientArea: clientA,
        }),
      );
      expect(d).toEqual({ kind: 'allow', resetAuth: false });
    });

    it('compares client ids case-insensitively', () => {
      const d = decideRedirect(
        facts({
          user: { role: 'admin', clientId: 'CLIENTA' },
          allowedPaths: clientAPaths,
          pathname: '/clienta/reports',
          clientArea: clientA,
        }),
      );
      expect(d.kind).toBe('allow');
    });

    it('refuses a user of another client', () => {
      const d = decideRedirect(
        facts({
          user: { role: 'employee', clientId: 'clientA' },
          allowedPaths: clientAPaths,
          pathname: '/clientB/dashboard',
          clientArea: { clientId: 'clientB', roles: ['admin', 'employee'] },
        }),
      );
      expect(d).toEqual({
        kind: 'redirect',
        to: '/unauthorized',
        resetAuth: false,
        reason: 'client-area',
      });
    });

    it('refuses a brand user with no client', () => {
      const d = decideRedirect(
        facts({
          user: { role: 'admin', clientId: null },
          pathname: '/clientA/dashboard',
          clientArea: clientA,
        }),
      );
      expect(d).toMatchObject({ to: '/unauthorized', reason: 'client-area' });
    });

    it('refuses a role other than admin/employee, even of the right client', () => {
      const d = decideRedirect(
        facts({
          user: { role: 'worker', clientId: 'clientA' },
          allowedPaths: ['/clientA'],
          pathname: '/clientA/dashboard',
          clientArea: clientA,
        }),
      );
      expect(d).toMatchObject({ to: '/unauthorized', reason: 'client-area' });
    });

    it('still needs the server to list the area', () => {
      const d = decideRedirect(
        facts({
          user: { role: 'employee', clientId: 'clientA' },
          allowedPaths: ['/'],
          pathname: '/clientA/dashboard',
          clientArea: clientA,
        }),
      );
      expect(d).toMatchObject({ to: '/unauthorized', reason: 'path' });
    });

    it('checks the token before the area', () => {
      const d = decideRedirect(
        facts({ storedCsrfToken: null, pathname: '/clientA/dashboard', clientArea: clientA }),
      );
      expect(d).toMatchObject({ reason: 'no-csrf-token' });
    });
  });
});

describe('safeRedirectTarget', () => {
  it('keeps local paths', () => {
    expect(safeRedirectTarget('/manage_org?x=1', '/')).toBe('/manage_org?x=1');
  });
  it.each([
    null,
    '',
    'https://evil.test/',
    '//evil.test',
    '/\\evil.test',
    '/auth/login',
    '/auth/404',
  ])('falls back for %o', (requested) => {
    expect(safeRedirectTarget(requested, '/home')).toBe('/home');
  });
});
