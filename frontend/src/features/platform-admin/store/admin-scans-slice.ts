import { initialRequestState, type RequestState, type SetSlice } from '@/lib/slice';

/**
 * One scan as the admin dashboard lists it (spec §3 "Admin scan record":
 * BrandId, BrandName, Geolocation with loc, country, city and region, each a
 * string; `features/platform-admin/admin-scans.ts` reads the answer into it).
 */
export interface AdminScan {
  id: string;
  brandId: string;
  brandName: string;
  scannedAt: string;
  verdict: string;
  productName: string;
  geolocation: { loc: string; country: string; city: string; region: string };
}

export interface AdminScansSlice {
  /** The latest scans across brands, or of the brand `activeBrandId` (null: every brand). */
  adminScans: RequestState<AdminScan[]> & { activeBrandId: string | null };
}

export interface AdminScansActions {
  setActiveBrandId: (brandId: string | null) => void;
}

export function initialAdminScansSlice(): AdminScansSlice {
  return { adminScans: { ...initialRequestState<AdminScan[]>([]), activeBrandId: null } };
}

export function adminScansActions(set: SetSlice<AdminScansSlice>): AdminScansActions {
  return {
    setActiveBrandId: (brandId) =>
      set((s) => ({ adminScans: { ...s.adminScans, activeBrandId: brandId } })),
  };
}
