import type { ApiResult } from '@/lib/api/call-api';
import { codeJobChoices, productNames, type CodeJobChoice } from '../code-job-choices';
import { listCodeJobs, listProducts } from './labels-api';

/**
 * The organisation's code jobs (newest first), each described with its
 * product's name when the product is still active. The names are a nicety:
 * when they cannot be loaded the GTIN takes their place.
 */
export async function loadCodeJobChoices(): Promise<ApiResult<CodeJobChoice[]>> {
  const [jobs, products] = await Promise.all([listCodeJobs(), listProducts()]);
  if (!jobs.ok) return jobs;
  const names = products.ok ? productNames(products.data) : new Map<string, string>();
  return { ok: true, data: codeJobChoices(jobs.data.jobs, names) };
}
