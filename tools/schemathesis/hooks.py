"""Schemathesis hooks for scripts/schemathesis.sh: a signed-in session.

Every request carries the session cookie and the session's CSRF token
(unsafe methods need both). Some operations end the session they are called
with: `logout` always does. So before each request the session is checked
(GET /api/auth/session, cheap) and replaced when it has ended, by one of the
spare sessions signed in at the start. Spares, not a fresh sign-in: fuzzing
`changeOwnPassword` sends wrong current passwords, which throttle the
account's sign-ins (429) as the server must, so a sign-in in the middle of the
run may be refused. When the spares run out it signs in again.

A GTIN's check digit cannot be said in the contract's pattern (a mod-10 sum),
so a GTIN the generator makes of the right length gets its last digit set to
the right check digit (`map_body`): a GTIN with a wrong one is a 400 the
server must give, and a Rust test checks it. Nothing else is changed, and a
value of the wrong length or with other characters is left as it is.

A code job's `quantity` may be up to 10,000,000 codes, which the server
would really generate (and the stateful phase links created products to new
jobs). A valid quantity above 100 is lowered to 100, so that the run tests
the API and not the disk; quantities outside the contract's range are left
as they are, and the Rust tests generate millions.

Environment (set by scripts/schemathesis.sh):
  BRANDOPS_URL       the server, e.g. http://127.0.0.1:41234
  BRANDOPS_EMAIL     the account to sign in as
  BRANDOPS_PASSWORD  its password
  BRANDOPS_SPARE_SESSIONS  how many spare sessions to sign in (default 40)
"""

import os
import sys
import threading

import requests
import schemathesis

BASE = os.environ["BRANDOPS_URL"].rstrip("/")
EMAIL = os.environ["BRANDOPS_EMAIL"]
PASSWORD = os.environ["BRANDOPS_PASSWORD"]
SPARES = int(os.environ.get("BRANDOPS_SPARE_SESSIONS", "40"))
COOKIE = "brandops_session"
CSRF_HEADER = "x-csrf-token"


def sign_in():
    """A new session: (cookie value, CSRF token)."""
    r = requests.post(
        f"{BASE}/api/auth/login",
        json={"email": EMAIL, "password": PASSWORD},
        timeout=60,
    )
    if r.status_code != 200:
        raise RuntimeError(f"sign-in as {EMAIL} failed: {r.status_code} {r.text}")
    return (r.cookies[COOKIE], r.json()["csrfToken"])


def alive(session):
    r = requests.get(
        f"{BASE}/api/auth/session", cookies={COOKIE: session[0]}, timeout=60
    )
    return r.status_code == 200


@schemathesis.auth(refresh_interval=None, retry_on=[])
class BrandopsSession:
    def __init__(self):
        self.lock = threading.Lock()
        self.current = None
        self.spares = None
        self.replaced = 0

    def get(self, case, context):
        with self.lock:
            if self.spares is None:
                self.spares = [sign_in() for _ in range(SPARES)]
            if self.current is not None and alive(self.current):
                return self.current
            if self.current is not None:
                self.replaced += 1
                print(
                    f"[brandops hooks] session of {EMAIL} ended (before "
                    f"{case.operation.label}); replacement {self.replaced}, "
                    f"{len(self.spares)} spare(s) left",
                    file=sys.stderr,
                )
            self.current = self.spares.pop() if self.spares else sign_in()
            return self.current

    def set(self, case, data, context):
        cookie, csrf = data
        case.cookies = {**(case.cookies or {}), COOKIE: cookie}
        case.headers = {**(case.headers or {}), CSRF_HEADER: csrf}


def gs1_check_digit(digits):
    """The GS1 mod-10 check digit of `digits` (weights 3, 1 from the right)."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - total % 10) % 10)


def with_check_digit(value):
    if (
        isinstance(value, str)
        and len(value) in (8, 12, 13, 14)
        and all("0" <= c <= "9" for c in value)
    ):
        return value[:-1] + gs1_check_digit(value[:-1])
    return value


# A valid code quantity above this is lowered to it (see above).
MOST_CODES = 100


@schemathesis.hook
def map_body(context, body):
    if isinstance(body, dict) and "gtin" in body:
        body = {**body, "gtin": with_check_digit(body["gtin"])}
    quantity = body.get("quantity") if isinstance(body, dict) else None
    if isinstance(quantity, int) and not isinstance(quantity, bool) and MOST_CODES < quantity <= 10_000_000:
        body = {**body, "quantity": MOST_CODES}
    return body
