/**
 * Every API error body is `{"error": string, "code": string}` (ARCHITECTURE §7).
 * This reads one from whatever openapi-fetch handed back, without trusting it.
 */
export interface Problem {
  error: string;
  code: string;
}

export function asProblem(value: unknown): Problem | null {
  if (typeof value !== 'object' || value === null) return null;
  const { error, code } = value as Record<string, unknown>;
  if (typeof error !== 'string' && typeof code !== 'string') return null;
  return {
    error: typeof error === 'string' ? error : '',
    code: typeof code === 'string' ? code : '',
  };
}

export async function readProblem(response: Response): Promise<Problem | null> {
  try {
    return asProblem(await response.json());
  } catch {
    return null;
  }
}

/** What people see when a call never got an answer (spec §8). */
export const NETWORK_ERROR_MESSAGE = 'A network error occurred. Please check your connection.';

/** True when a call never got an answer (offline, DNS, connection refused, aborted). */
export function isNetworkError(error: unknown): boolean {
  return (
    error instanceof TypeError || (error instanceof DOMException && error.name === 'AbortError')
  );
}
