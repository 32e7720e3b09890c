import { PageHeader } from '@/components/ui/page-header';

/** `/PrivacyPolicy`: what personal data brandops keeps and why, as readable text. */
export function PrivacyPage() {
  return (
    <article className="card prose">
      <PageHeader title="Privacy policy" description="What we keep about you, and why." />
      <h2>What we keep</h2>
      <ul>
        <li>Your name, work email address, role and organisation, to let you sign in.</li>
        <li>
          A hash of your password (never the password itself), made with a slow, salted algorithm.
        </li>
        <li>
          Your sessions: when they started and were last used, so that they can expire and be ended.
          The session cookie is HttpOnly and holds only a random identifier.
        </li>
        <li>Your preferences, such as theme and landing page.</li>
        <li>A record of administrative actions, such as adding users or resetting passwords.</li>
      </ul>
      <h2>What we do not keep</h2>
      <p>
        The browser keeps only your signed-in user and a security token in local storage, and
        removes them when you sign out. We do not use advertising or tracking cookies.
      </p>
      <h2>Who can see it</h2>
      <p>
        Administrators of your organisation can see the accounts of the organisation. Platform
        administrators can see organisations and their user counts to run the service. Data of one
        organisation is stored apart from every other organisation’s and is never shown to them.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see your details on your profile and change your password there. To correct or
        delete other data, or to ask what we hold about you, contact your organisation’s
        administrator, who can pass the request on to us.
      </p>
    </article>
  );
}
