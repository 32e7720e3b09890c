import { useState } from 'react';
import { RouterProvider } from 'react-router/dom';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { Toaster } from '@/components/ui/toaster';
import { useApplyTheme, useResolvedTheme } from '@/hooks/use-theme';
import { createAppRouter } from './router';
import { SessionGate } from './session-gate';

export function App() {
  useApplyTheme();
  const theme = useResolvedTheme();
  const [router] = useState(createAppRouter);
  return (
    <ErrorBoundary>
      <SessionGate>
        <RouterProvider router={router} />
      </SessionGate>
      <Toaster theme={theme} />
    </ErrorBoundary>
  );
}
