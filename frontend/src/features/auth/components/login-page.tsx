import { Login2Icon } from '@solar-icons/react/linear/login-2';
import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorAlert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordField, TextField } from '@/components/ui/form-field';
import { useDocumentTitle } from '@/components/ui/page-header';
import { signIn } from '../api/auth-api';

/**
 * Sign-in. Remembers nothing itself: no email in storage, the password field
 * is cleared after a failed attempt. On success the route guard moves on to the
 * page that was asked for (`?redirectTo=`).
 */
export function LoginPage() {
  useDocumentTitle('Sign in');
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const wasRedirected = searchParams.has('redirectTo');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors: typeof fieldErrors = {};
    if (!email.trim()) errors.email = 'Enter your email address.';
    if (!password) errors.password = 'Enter your password.';
    setFieldErrors(errors);
    if (errors.email || errors.password) {
      (errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await signIn(email.trim(), password);
    if (!result.ok) {
      setBusy(false);
      setError(result.message);
      setPassword('');
      passwordRef.current?.focus();
    }
  }

  return (
    <main className="blank__panel" id="main">
      <div className="blank__brand">
        <span className="brand-mark" aria-hidden="true">
          b
        </span>
        brandops
      </div>
      <div className="card auth-card">
        <h1>Sign in</h1>
        <p className="auth-card__lead">
          {wasRedirected
            ? 'Sign in to continue to the page you asked for.'
            : 'Welcome back. Sign in with your work account.'}
        </p>
        {error ? <ErrorAlert>{error}</ErrorAlert> : null}
        <form onSubmit={onSubmit} noValidate aria-label="Sign in">
          <TextField
            ref={emailRef}
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={fieldErrors.email ?? null}
            required
          />
          <PasswordField
            ref={passwordRef}
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fieldErrors.password ?? null}
            required
          />
          <Button type="submit" block busy={busy}>
            {busy ? null : <Login2Icon />}
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </div>
      <p className="demo-hint">
        Forgot your password? Your organisation’s administrator can set a new one for you.
      </p>
    </main>
  );
}
