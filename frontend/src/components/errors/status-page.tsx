import type { ReactNode } from 'react';
import { useDocumentTitle } from '@/components/ui/page-header';

interface StatusPageProps {
  code?: string;
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}

/** A centred message for error and status screens (404, unauthorized, crash). */
export function StatusPage({ code, icon, title, children, actions }: StatusPageProps) {
  useDocumentTitle(title);
  return (
    <main className="status-page" id="main">
      <div className="status-page__icon" aria-hidden="true">
        {icon}
      </div>
      {code ? <div className="status-page__code">{code}</div> : null}
      <h1>{title}</h1>
      {children}
      {actions ? <div className="form-actions">{actions}</div> : null}
    </main>
  );
}
