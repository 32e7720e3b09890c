import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { vi } from 'vitest';
import { json } from '@/testing/mock-api';
import type { Organisation } from '../api/organisation-api';
import { BrandIdentity } from './brand-identity';

const organisation: Organisation = {
  clientId: 'acme',
  name: 'Acme <Foods>',
  kind: 'brand',
  status: 'active',
  userLimit: 10,
  userCount: 2,
  modules: [],
  usage: [],
};
const withLogo: Organisation = { ...organisation, logoUrl: '/api/organisation/logo/l-1.png' };

/** Stubs `fetch` (multipart bodies are not JSON): each call's method, path and body. */
function stubFetch(answer: (method: string, path: string) => Response) {
  const calls: { method: string; path: string; form: FormData | null }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname;
    const form = request.method === 'PUT' ? await request.formData() : null;
    calls.push({ method: request.method, path, form });
    return answer(request.method, path);
  });
  return calls;
}

const file = (size: number, name: string, type: string) =>
  new File([new Uint8Array(size)], name, { type });

function setup(org: Organisation = organisation) {
  const onChanged = vi.fn();
  render(<BrandIdentity organisation={org} onChanged={onChanged} />);
  return onChanged;
}

describe('Brand on the scan page', () => {
  it('shows the name as text and says when there is no logo', () => {
    setup();
    expect(screen.getByRole('region', { name: 'Brand on the scan page' })).toBeInTheDocument();
    expect(screen.getByText('Acme <Foods>')).toBeInTheDocument();
    expect(screen.getByText(/No logo yet/)).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove logo' })).not.toBeInTheDocument();
  });

  it('refuses a file of the wrong type or size before sending it', () => {
    const calls = stubFetch(() => json(500));
    setup();
    const input = screen.getByLabelText('Upload a logo');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp');
    fireEvent.change(input, { target: { files: [file(10, 'logo.svg', 'image/svg+xml')] } });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'logo.svg is not a PNG, JPEG or WebP image.',
    );
    fireEvent.change(input, {
      target: { files: [file(5 * 1024 * 1024 + 1, 'big.png', 'image/png')] },
    });
    expect(screen.getByRole('alert')).toHaveTextContent('big.png is larger than 5 MB');
    expect(screen.getByRole('button', { name: 'Upload logo' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(calls).toEqual([]);
  });

  it('uploads a logo and shows the server’s refusal clearly', async () => {
    let refuse = true;
    const calls = stubFetch(() =>
      refuse
        ? json(415, {
            error: 'Only PNG, JPEG and WebP images can be added.',
            code: 'unsupported_image',
          })
        : json(200, withLogo),
    );
    const onChanged = setup();
    const logo = file(100, 'logo.png', 'image/png');
    fireEvent.change(screen.getByLabelText('Upload a logo'), { target: { files: [logo] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only PNG, JPEG and WebP images can be added.',
    );
    expect(onChanged).not.toHaveBeenCalled();
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Upload logo' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(withLogo));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /api/organisation/logo',
      'PUT /api/organisation/logo',
    ]);
    const sent = calls[1]?.form?.get('file');
    // The file itself (FormData's File of the fetch implementation's realm).
    expect(typeof sent).toBe('object');
    expect((sent as Blob).size).toBe(100);
  });

  it('previews the logo and removes it', async () => {
    const calls = stubFetch(() => json(200, organisation));
    const onChanged = setup(withLogo);
    expect(screen.getByRole('img', { name: 'Acme <Foods> logo' })).toHaveAttribute(
      'src',
      '/api/organisation/logo/l-1.png',
    );
    expect(screen.getByLabelText('Replace the logo')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove logo' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(organisation));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/organisation/logo']);
  });
});
