import { vi } from 'vitest';
import type { SessionInfo } from '@/lib/api/types';
import { clientModules, moduleCatalogue } from '@/testing/render';
import type { BatchUpdate, BatchUpdateDetail } from './api/batch-updates-api';

export const UPDATE_ID = '33333333-3333-4333-8333-333333333333';
/** A second update: the apply that follows a check. */
export const APPLY_ID = '44444444-4444-4444-8444-444444444444';

export function clientSession(clientId: 'clientA' | 'clientB' = 'clientA'): SessionInfo {
  return {
    user: {
      id: 'u-e',
      name: 'Eli Employee',
      email: `employee@${clientId.toLowerCase()}.test`,
      role: 'employee',
      clientId,
      organisationKind: 'client',
    },
    csrfToken: 'csrf-test-token',
    allowedPaths:
      clientId === 'clientA' ? ['/', '/clientA', '/gme', '/profile'] : ['/', '/clientB', '/pmbi'],
    assignableRoles: [],
    modules: clientModules,
    moduleCatalogue,
  };
}

export function batchUpdate(fields: Partial<BatchUpdate> = {}): BatchUpdate {
  return {
    id: UPDATE_ID,
    source: 'file',
    file_name: 'batches.csv',
    format: 'csv',
    size_bytes: 1000,
    content_sha256: 'ab'.repeat(32),
    dry_run: true,
    status: 'queued',
    bytes_read: 0,
    rows_read: 0,
    rows_applied: 0,
    error_count: 0,
    error_rows: 0,
    created_at: '2026-11-25T10:00:00Z',
    created_by: 'u-e',
    created_by_name: 'Eli Employee',
    ...fields,
  };
}

export function detail(fields: Partial<BatchUpdateDetail> = {}): BatchUpdateDetail {
  return { ...batchUpdate(fields), errors: [], batches: [], ...fields };
}

/**
 * A stand-in for `XMLHttpRequest`: records what was sent, and lets the test
 * report upload progress and answer.
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  body: unknown = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent);
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
  fail() {
    this.onerror?.();
  }

  static install() {
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  }
}
