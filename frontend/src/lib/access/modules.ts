import type { ModuleKey, PlanModule } from '@/lib/api/types';

/**
 * Module switches (the server's `http/modules.rs`): an organisation's plan
 * lists the modules it has; the server refuses the operations of the others
 * (403 `module_disabled`), and the app hides their links and shows "not part
 * of your plan" on their pages. Which page needs which module is said once,
 * on the sidebar entry (`config/navigation.ts`) and its route (`app/router.tsx`).
 */

/** What a page needs of the plan: one module, or any one of several (the ERP overview). */
export type ModuleRequirement = ModuleKey | { anyOf: readonly ModuleKey[] };

interface PlanFacts {
  /** The signed-in user; only members of an organisation have a plan. */
  user: { clientId?: string | null } | null | undefined;
  /** The modules of the user's organisation (the session's `modules`). */
  modules: readonly ModuleKey[];
}

/** The modules `required` names. */
export function requiredModules(required: ModuleRequirement): readonly ModuleKey[] {
  return typeof required === 'string' ? [required] : required.anyOf;
}

/**
 * Whether the plan covers `required` (nothing required: always). A platform
 * admin belongs to no organisation and has no plan: nothing is hidden from
 * them by it, as the server refuses them nothing by module.
 */
export function planCovers(required: ModuleRequirement | undefined, facts: PlanFacts): boolean {
  if (required === undefined || !facts.user?.clientId) return true;
  return requiredModules(required).some((key) => facts.modules.includes(key));
}

/** The name people read for a module (its key when the catalogue does not list it). */
export function moduleName(key: ModuleKey, catalogue: readonly PlanModule[]): string {
  return catalogue.find((m) => m.key === key)?.name ?? key;
}
