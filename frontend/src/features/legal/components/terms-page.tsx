import { PageHeader } from '@/components/ui/page-header';

/** `/TermsAndConditions`: the terms of use, as readable text. */
export function TermsPage() {
  return (
    <article className="card prose">
      <PageHeader title="Terms and conditions" description="The rules for using brandops." />
      <h2>1. Who these terms are for</h2>
      <p>
        These terms apply to everyone who signs in to brandops: staff of a brand or client
        organisation, and the platform administrators who run the service. Your organisation agreed
        to a service contract with us; where that contract and these terms differ, the contract
        wins.
      </p>
      <h2>2. Your account</h2>
      <ul>
        <li>
          Your account is personal. Do not share your password or let others use your session.
        </li>
        <li>
          Your organisation’s administrator creates accounts, chooses their roles and can reset
          passwords or remove accounts at any time.
        </li>
        <li>Tell your administrator at once if you think someone else has used your account.</li>
      </ul>
      <h2>3. Using the service</h2>
      <ul>
        <li>Use brandops only for your organisation’s business and within your role.</li>
        <li>
          Do not try to reach data of another organisation, probe the service for weaknesses, or
          overload it. Every organisation’s data is kept apart and access is logged.
        </li>
        <li>
          Codes, product data and passports you publish must be accurate; consumers rely on them to
          tell genuine products from fakes.
        </li>
      </ul>
      <h2>4. Your data</h2>
      <p>
        Your organisation owns the data it puts into brandops. We process it only to run the service
        for your organisation, as described in the privacy policy.
      </p>
      <h2>5. Availability and changes</h2>
      <p>
        We work to keep brandops available and will announce planned maintenance in advance. Some
        modules are marked “not available yet”; they arrive in later releases. We may change these
        terms; we will tell your administrator before a change takes effect.
      </p>
      <h2>6. Ending use</h2>
      <p>
        Your access ends when your administrator removes your account or when your organisation’s
        contract ends. A suspended organisation cannot sign in until it is reactivated.
      </p>
    </article>
  );
}
