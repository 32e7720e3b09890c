import { Bounce, ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';

/** Toasts close after 3.5 s (spec §9). */
export const TOAST_AUTO_CLOSE_MS = 3500;

/** Alt+T moves keyboard focus to the toasts (spec §9). */
export const toastHotKeys = (event: KeyboardEvent) => event.altKey && event.code === 'KeyT';

/** The one toast container: top-right (spec §2), auto-close 3500 ms, Alt+T. */
export function Toaster({ theme = 'light' }: { theme?: 'light' | 'dark' }) {
  return (
    <ToastContainer
      position="top-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      newestOnTop
      closeOnClick={false}
      pauseOnFocusLoss
      pauseOnHover
      theme={theme}
      transition={Bounce}
      hotKeys={toastHotKeys}
      aria-label="Notifications Alt+T"
    />
  );
}
