import { AddCircleIcon } from '@solar-icons/react/linear/add-circle';
import { PrinterIcon } from '@solar-icons/react/linear/printer';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { ApiResultView } from '@/components/ui/api-result-view';
import { Button } from '@/components/ui/button';
import { CardSection } from '@/components/ui/card-section';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useCanOpen } from '@/hooks/use-access';
import { useApiResult } from '@/hooks/use-api-result';
import { deleteLabelTemplate, listLabelTemplates, type LabelTemplate } from '../api/labels-api';
import { loadCodeJobChoices } from '../api/load-code-job-choices';
import { labelMessages } from '../messages';
import { LabelDesigner } from './label-designer';
import { TemplatesTable } from './templates-table';

/** What the designer shows: a new template or one being edited; `session` remounts it. */
interface DesignerState {
  template: LabelTemplate | null;
  session: number;
  focus: boolean;
}

const byName = (a: LabelTemplate, b: LabelTemplate) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true });

/**
 * `/print/lables` (the spec's spelling): the organisation's label templates
 * and the designer with its live preview. Every brand role designs
 * templates; printing them is `/printer`'s.
 */
export function LabelTemplatesPage() {
  const canOpen = useCanOpen();
  const templates = useApiResult(listLabelTemplates);
  const codeJobs = useApiResult(loadCodeJobChoices);
  const [designer, setDesigner] = useState<DesignerState>({
    template: null,
    session: 0,
    focus: false,
  });
  const [deleting, setDeleting] = useState<LabelTemplate | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  function open(template: LabelTemplate | null, focus: boolean) {
    setDesigner((d) => ({ template, session: d.session + 1, focus }));
  }

  function saved(template: LabelTemplate) {
    templates.update((data) => ({
      ...data,
      templates: [...data.templates.filter((t) => t.id !== template.id), template].sort(byName),
    }));
    // The designer stays open on what was saved; its next save changes it.
    setDesigner((d) => ({ ...d, template }));
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    const result = await deleteLabelTemplate(deleting.id);
    setDeleteBusy(false);
    const gone = deleting;
    setDeleting(null);
    if (!result.ok) {
      toast.error(result.message);
      return;
    }
    toast.success(labelMessages.templateDeleted(gone.name));
    templates.update((data) => ({
      ...data,
      templates: data.templates.filter((t) => t.id !== gone.id),
    }));
    if (designer.template?.id === gone.id) open(null, false);
  }

  const editing = designer.template;

  return (
    <>
      <PageHeader
        title="Label designs"
        description="Design the labels your codes are printed on, and see each change at once."
        actions={
          canOpen(paths.printer.href()) ? (
            <Link className="btn btn--secondary" to={paths.printer.href()}>
              <PrinterIcon />
              Print labels
            </Link>
          ) : null
        }
      />
      <CardSection title="Templates">
        <ApiResultView
          result={templates.result}
          onRetry={templates.reload}
          loadingLabel="Loading the label templates…"
        >
          {(data) => (
            <TemplatesTable
              templates={data.templates}
              onEdit={(t) => open(t, true)}
              onDelete={setDeleting}
            />
          )}
        </ApiResultView>
      </CardSection>
      <CardSection title={editing ? `Edit “${editing.name}”` : 'New template'}>
        {editing ? (
          <div className="form-actions form-actions--start label-designer__new">
            <Button variant="secondary" onClick={() => open(null, true)}>
              <AddCircleIcon />
              New template
            </Button>
          </div>
        ) : null}
        <LabelDesigner
          key={designer.session}
          original={editing}
          codeJobs={codeJobs.result}
          focusName={designer.focus}
          onSaved={saved}
          onCancel={() => open(null, false)}
        />
      </CardSection>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete template"
        message={labelMessages.confirmDelete}
        detail={
          deleting
            ? `“${deleting.name}” leaves the list and can no longer be printed with; print jobs already made with it keep their design and can still be reprinted.`
            : null
        }
        confirmLabel="Delete"
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
