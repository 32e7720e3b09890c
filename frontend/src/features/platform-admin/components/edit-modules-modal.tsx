import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '@/components/ui/alert';
import { FormActions } from '@/components/ui/form-actions';
import { Modal } from '@/components/ui/modal';
import type { ModuleKey } from '@/lib/api/types';
import { useAppStore } from '@/stores/app-store';
import { updateTenantModules, type Tenant } from '../api/tenants-api';

/** The form inside 'Modules'; mounted fresh for each tenant, with its modules ticked. */
function EditModulesForm({
  tenant,
  onDone,
  onUpdated,
}: {
  tenant: Tenant;
  onDone: () => void;
  onUpdated: (tenant: Tenant) => void;
}) {
  const catalogue = useAppStore((s) => s.auth.moduleCatalogue);
  const [enabled, setEnabled] = useState<ReadonlySet<string>>(() => new Set(tenant.modules));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function toggle(key: ModuleKey, on: boolean) {
    setEnabled((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    // The whole list, in the catalogue's order.
    const modules = catalogue.map((m) => m.key).filter((key) => enabled.has(key));
    const result = await updateTenantModules(tenant.clientId, modules);
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    toast.success(`Modules saved for ${result.data.name}`);
    onUpdated(result.data);
    onDone();
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Modules">
      {error ? <ErrorAlert>{error}</ErrorAlert> : null}
      <fieldset className="fieldset">
        <legend className="field__label">Modules in the plan</legend>
        <div className="check-grid">
          {catalogue.map((module) => (
            <label key={module.key} className="check">
              <input
                type="checkbox"
                name={module.key}
                checked={enabled.has(module.key)}
                onChange={(e) => toggle(module.key, e.target.checked)}
              />
              {module.name}
            </label>
          ))}
        </div>
      </fieldset>
      <p className="muted">
        Its users lose a module’s pages and data from their next request; nothing is deleted, and
        turning the module on again brings everything back.
      </p>
      <FormActions onCancel={onDone} busy={busy} submitLabel="Save modules" />
    </form>
  );
}

/** Opens for one tenant; `tenant` null means closed. */
export function EditModulesModal({
  tenant,
  onClose,
  onUpdated,
}: {
  tenant: Tenant | null;
  onClose: () => void;
  onUpdated: (tenant: Tenant) => void;
}) {
  return (
    <Modal
      open={tenant !== null}
      title="Modules"
      description={tenant ? `The plan modules of ${tenant.name} (${tenant.clientId}).` : null}
      onClose={onClose}
    >
      {tenant ? (
        <EditModulesForm
          key={tenant.clientId}
          tenant={tenant}
          onDone={onClose}
          onUpdated={onUpdated}
        />
      ) : null}
    </Modal>
  );
}
