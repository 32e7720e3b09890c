import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import type { SessionInfo } from '@/lib/api/types';
import { json } from '@/testing/mock-api';
import { adminSession, renderPage, signInAs } from '@/testing/render';
import { mockRawApi, product, type RawCall } from '../test-data';
import { ProductDetailPage } from './product-detail-page';

const workerSession: SessionInfo = {
  ...adminSession,
  user: { ...adminSession.user, id: 'u-w', role: 'worker', email: 'worker@acme.test' },
};

const withImage = product({
  id: 'p-1',
  product_name: 'Oat milk',
  image_urls: ['/api/products/p-1/images/a.png'],
  attributes: [
    { type: 'number', name: 'Net weight', value: 500 },
    { type: 'boolean', name: 'Vegan', value: true },
    { type: 'boolean', name: 'Organic', value: false },
    { type: 'text', name: 'Colour', value: 'Green' },
  ],
});
const withTwo = {
  ...withImage,
  image_urls: [...withImage.image_urls, '/api/products/p-1/images/b.png'],
};

function setup(
  session: SessionInfo = adminSession,
  handlers: Record<string, (call: RawCall) => Response> = {},
) {
  signInAs(session);
  const api = mockRawApi({ 'GET /api/products/p-1': () => json(200, withImage), ...handlers });
  return { ...api, ...renderPage(<ProductDetailPage id="p-1" />, { route: '/products/p-1' }) };
}

const png = (size = 100, name = 'photo.png', type = 'image/png') =>
  new File([new Uint8Array(size)], name, { type });

function choose(file: File) {
  fireEvent.change(screen.getByLabelText('Add an image'), { target: { files: [file] } });
}

afterEach(() => {
  act(() => {
    toast.dismiss();
    toast.clearWaitingQueue();
  });
});

describe('Product images and attributes', () => {
  it('shows the gallery with alt texts, and the attributes as people read them', async () => {
    setup();
    const image = await screen.findByRole('img', { name: 'Oat milk, image 1' });
    expect(image).toHaveAttribute('src', '/api/products/p-1/images/a.png');
    const attributes = within(screen.getByRole('region', { name: 'Attributes' }));
    expect(attributes.getByText('Net weight').nextElementSibling).toHaveTextContent('500');
    expect(attributes.getByText('Vegan').nextElementSibling).toHaveTextContent('Yes');
    expect(attributes.getByText('Organic').nextElementSibling).toHaveTextContent('No');
    expect(attributes.getByText('Colour').nextElementSibling).toHaveTextContent('Green');
  });

  it('hides upload and Remove from a worker, who only sees the images', async () => {
    setup(workerSession);
    await screen.findByRole('img', { name: 'Oat milk, image 1' });
    expect(screen.queryByLabelText('Add an image')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove image/ })).not.toBeInTheDocument();
  });

  it('checks type and size before sending anything', async () => {
    const { calls } = setup();
    await screen.findByLabelText('Add an image');
    expect(screen.getByLabelText('Add an image')).toHaveAttribute(
      'accept',
      'image/png,image/jpeg,image/webp',
    );
    choose(png(100, 'notes.gif', 'image/gif'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'notes.gif is not a PNG, JPEG or WebP image.',
    );
    choose(png(5 * 1024 * 1024 + 1, 'huge.png'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'huge.png is larger than 5 MB: choose a smaller image.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Upload image' }));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('uploads an image, shows it and says so; shows the server’s refusal as worded', async () => {
    let answer = json(201, withTwo);
    const { calls, user } = setup(adminSession, {
      'POST /api/products/p-1/images': () => answer,
    });
    await screen.findByLabelText('Add an image');
    choose(png());
    await user.click(screen.getByRole('button', { name: 'Upload image' }));
    expect(await screen.findByRole('img', { name: 'Oat milk, image 2' })).toBeInTheDocument();
    expect(screen.getByText('Image added.')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.headers.get('x-csrf-token')).toBe('csrf-test-token');

    answer = json(409, { error: 'A product has at most 10 images.', code: 'conflict' });
    choose(png());
    await user.click(screen.getByRole('button', { name: 'Upload image' }));
    expect(
      (await screen.findByText('A product has at most 10 images.')).closest('.alert'),
    ).not.toBeNull();
  });

  it('removes an image after confirmation', async () => {
    const { calls, user } = setup(adminSession, {
      'DELETE /api/products/p-1/images/a.png': () => json(200, { ...withImage, image_urls: [] }),
    });
    await user.click(await screen.findByRole('button', { name: 'Remove image 1' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove image' });
    expect(dialog).toHaveTextContent('Are you sure you want to remove this image?');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByText('No images yet.')).toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
  });
});
