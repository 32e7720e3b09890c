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
the right check digit (`map_case`): a GTIN with a wrong one is a 400 the
server must give, and a Rust test checks it. Nothing else is changed, and a
value of the wrong length or with other characters is left as it is.

Two more rules no schema can say, each refused with a 400 that a Rust test
checks, get the same treatment for the bodies the generator means as valid
(cases meant to break the contract are never changed):
- a label design's parts must fit together (the barcode and text lines inside
  the label, the size of the sheet's labels): a design whose numbers are all
  within the contract's ranges becomes a single label of at least 50 x 30 mm
  with a margin of at most 2 mm and a font of at most 7 pt;
- a lot's expiry comes after its manufacture: a lot with both dates in the
  wrong order loses its manufacturing date;
- a product's attribute names are unique whatever the case: a repeated name
  gets its position appended.
- a passport's CAS numbers end in their check digit (the other digits
  weighted 1, 2, 3, ... from the right, mod 10): a well-shaped CAS number gets
  its last digit set to it;
- a passport's materials' shares add up to 100 % at most: when they add up to
  more, each is scaled down to its part of 100;
- a passport section's `field_visibility` names only the section's fields:
  other names (the contract lists the fields but, as poem-openapi cannot say
  `additionalProperties: false`, does not forbid others) are left out.
- a company's CIN carries a year of incorporation no later than the current
  one (the contract's pattern allows up to 2099): a later year becomes the
  current year.
- the bulk download of codes (`downloadCodesBulk`, and `summarizeCodesBulk`,
  what it would hold) takes batches (`lot_id`,
  at most 100) or a range of days, not both and not neither: a generated
  request keeps its batches (each once, the first 100) and drops the range,
  or else gets a range in order with both ends (today when it had none).
(File contents, a CSV import or an image, are not rewritten here: see
schemathesis.toml.)

Scan analytics (`brandScans`, `scanAnalytics`, `sessionsData`, `usersData`)
take a range of days,
`from`-`to`: a range whose ends are in the wrong order, or (for the day-by-day
dashboard) longer than 731 days, is a 400 a Rust test checks; a generated
range that is valid date by date is put in order and, if too long, shortened
to its last 30 days. A platform admin must name the brand whose scans it reads
(`company_id`, the spec's 400 'company_id is required', checked by a Rust
test): when signed in as one, a generated request without it names the demo
brand `acme`.

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

from decimal import Decimal, InvalidOperation
import os
import re
import sys
import threading

import requests
import schemathesis
from schemathesis.core import NOT_SET

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


def number_in(value, low, high):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def valid_design(design):
    """A design whose numbers are within the contract's ranges, made to fit."""
    if not (
        isinstance(design, dict)
        and number_in(design.get("width_mm"), 10, 300)
        and number_in(design.get("height_mm"), 10, 300)
        and number_in(design.get("font_size_pt"), 4, 36)
        and number_in(design.get("margin_mm"), 0, 20)
        and design.get("sheet") in ("single", "a4_3x8", "a4_l7163", "letter_5160", "letter_5163")
    ):
        return design
    return {
        **design,
        "width_mm": max(design["width_mm"], 50),
        "height_mm": max(design["height_mm"], 30),
        "font_size_pt": min(design["font_size_pt"], 7),
        "margin_mm": min(design["margin_mm"], 2),
        "sheet": "single",
    }


def valid_lot(lot):
    """A lot whose dates are both valid keeps them only in order."""
    if isinstance(lot, dict):
        made, expires = lot.get("manufactured_on"), lot.get("expires_on")
        if isinstance(made, str) and isinstance(expires, str) and len(made) == len(expires) == 10 and expires <= made:
            lot = {k: v for k, v in lot.items() if k != "manufactured_on"}
    return lot


def unique_names(attributes):
    """Attributes whose names repeat (trimmed, any case) get their position."""
    if not isinstance(attributes, list):
        return attributes
    seen, out = set(), []
    for i, a in enumerate(attributes):
        if isinstance(a, dict) and isinstance(a.get("name"), str):
            key = a["name"].strip().lower()
            if key in seen:
                a = {**a, "name": a["name"].strip()[:55] + " %d" % i}
                key = a["name"].lower()
            seen.add(key)
        out.append(a)
    return out


def valid_checks(checks):
    """An inspection's checks as the server decides them (quality::Check):
    limits or an expected text, not both; min <= max; a decimal value for a
    check with limits; each parameter once (trimmed, any case)."""
    from decimal import Decimal, InvalidOperation

    if not isinstance(checks, list):
        return checks
    seen, out = set(), []
    for i, c in enumerate(checks):
        if not isinstance(c, dict):
            out.append(c)
            continue
        c = dict(c)
        limited = isinstance(c.get("min"), str) or isinstance(c.get("max"), str)
        if limited:
            c.pop("expected", None)
            try:
                low, high = Decimal(c["min"]), Decimal(c["max"])
                if low > high:
                    c["min"], c["max"] = c["max"], c["min"]
            except (KeyError, InvalidOperation, TypeError):
                pass
            c["value"] = "0"
            if isinstance(c.get("min"), str):
                c["value"] = c["min"]
            elif isinstance(c.get("max"), str):
                c["value"] = c["max"]
        elif not isinstance(c.get("expected"), str):
            c["expected"] = "Clear"
        if isinstance(c.get("parameter"), str):
            key = c["parameter"].strip().lower()
            if key in seen:
                c["parameter"] = c["parameter"].strip()[:90] + " %d" % i
                key = c["parameter"].lower()
            seen.add(key)
        out.append(c)
    return out


# A GLN and an SSCC with right check digits, for recorded EPCIS steps.
GLN = "9506000134352"
SSCC = "106141412345678908"


def valid_location(value):
    """A location whose GLN check digit (or SGLN digit count) is right."""
    if not isinstance(value, str):
        return value
    if len(value) == 13 and value.isdigit():
        return value[:-1] + gs1_check_digit(value[:-1])
    prefix = "https://id.gs1.org/414/"
    if value.startswith(prefix):
        gln = value[len(prefix):len(prefix) + 13]
        return prefix + gln[:-1] + gs1_check_digit(gln[:-1]) + value[len(prefix) + 13:]
    if value.startswith("urn:epc:id:sgln:"):
        parts = value[len("urn:epc:id:sgln:"):].split(".")
        if len(parts) == 3 and len(parts[0]) + len(parts[1]) != 12:
            return "urn:epc:id:sgln:%s.%s.%s" % (GLN[:7], GLN[7:12], parts[2])
    return value


def valid_step(body):
    """A recorded EPCIS step as the server takes it (epcis::api::record):
    check digits right, a container when packing, a destination only when
    shipping, a time not in the future."""
    out = dict(body)
    out["location"] = valid_location(out.get("location"))
    if "destination" in out:
        if out.get("step") != "shipping":
            del out["destination"]
        else:
            out["destination"] = valid_location(out["destination"])
    container = out.get("container")
    if isinstance(container, str) and len(container) == 18 and container.isdigit():
        out["container"] = container[:-1] + gs1_check_digit(container[:-1])
    if out.get("step") == "packing" and "container" not in out:
        out["container"] = SSCC
    when = out.get("event_time")
    if isinstance(when, str) and when[:4].isdigit() and when[:4] >= "2026":
        out["event_time"] = "2025" + when[4:]
    return out
CAS_SHAPE = re.compile(r"^[1-9][0-9]{1,6}-[0-9]{2}-[0-9]$")


def with_cas_check_digit(value):
    """A well-shaped CAS number with its right check digit."""
    if not (isinstance(value, str) and CAS_SHAPE.match(value) and not value.endswith("\n")):
        return value
    digits = value[:-2].replace("-", "")
    total = sum((i + 1) * int(d) for i, d in enumerate(reversed(digits)))
    return value[:-1] + str(total % 10)


# The fields each passport section may give a visibility of their own
# (backend/src/passports/visibility.rs).
PASSPORT_FIELDS = {
    "identification": {"unique_product_id", "commodity_code"},
    "manufacturer": {"name", "operator_id", "contact", "facility_ids"},
    "importer": {"name", "eori", "contact"},
    "responsible_operator": {"name", "operator_id", "contact"},
    "repair": {"instructions", "spare_parts_availability"},
    "recycling": {"instructions", "recyclability"},
}


def valid_passport(body):
    """Passport sections whose rules no schema can say, made to hold."""
    for section, fields in PASSPORT_FIELDS.items():
        part = body.get(section)
        if isinstance(part, dict) and isinstance(part.get("field_visibility"), dict):
            known = {k: v for k, v in part["field_visibility"].items() if k in fields}
            body = {**body, section: {**part, "field_visibility": known}}
    substances = body.get("substances_of_concern")
    if isinstance(substances, dict) and isinstance(substances.get("items"), list):
        items = [
            {**s, "cas_number": with_cas_check_digit(s["cas_number"])}
            if isinstance(s, dict) and "cas_number" in s
            else s
            for s in substances["items"]
        ]
        body = {**body, "substances_of_concern": {**substances, "items": items}}
    materials = body.get("materials")
    if isinstance(materials, dict) and isinstance(materials.get("items"), list):
        shares = [
            m.get("share_percent")
            for m in materials["items"]
            if isinstance(m, dict) and number_in(m.get("share_percent"), 0, 100)
        ]
        total = sum(shares)
        if total > 100:
            items = [
                {**m, "share_percent": m["share_percent"] * 99.0 / total}
                if isinstance(m, dict) and number_in(m.get("share_percent"), 0, 100)
                else m
                for m in materials["items"]
            ]
            body = {**body, "materials": {**materials, "items": items}}
    return body


# A CIN as the contract's pattern gives it: the year is characters 9 to 12.
CIN_SHAPE = re.compile(r"^[LU][0-9]{5}[A-Z]{2}([0-9]{4})[A-Z]{3}[0-9]{6}$")


def valid_cin(cin):
    from datetime import date

    match = CIN_SHAPE.match(cin) if isinstance(cin, str) else None
    if not match or int(match.group(1)) <= date.today().year:
        return cin
    return cin[:8] + str(date.today().year) + cin[12:]


def valid_move(body):
    """A stock move (inventory::api) as its cross-field rules want it: from
    or to (or both, different), a receipt (no from) with unit_cost and
    currency, nothing else with them, a transfer with both ends."""
    body = dict(body)
    if body.get("from_location_id") is None and body.get("to_location_id") is None:
        body["to_location_id"] = body.get("lot_id")
    if body.get("from_location_id") is not None and body.get("from_location_id") == body.get("to_location_id"):
        body.pop("from_location_id")
    if body.get("from_location_id") is None:
        body.setdefault("unit_cost", "1.00")
        body.setdefault("currency", "EUR")
        if body.get("reason") == "transfer":
            body["reason"] = "receipt"
    else:
        body.pop("unit_cost", None)
        body.pop("currency", None)
        if body.get("reason") == "receipt" or (body.get("reason") == "transfer" and body.get("to_location_id") is None):
            body["reason"] = "adjustment"
    return body


def ordered_min_max(body):
    """A reorder rule's minimum at most its maximum (inventory::api)."""
    try:
        low, high = Decimal(body["min_quantity"]), Decimal(body["max_quantity"])
    except (InvalidOperation, TypeError, ValueError):
        return body
    if low > high:
        body = {**body, "min_quantity": body["max_quantity"], "max_quantity": body["min_quantity"]}
    return body


def valid_price_list(body):
    """A price list (pricing::api) as its cross-field rules want it:
    valid_to on or after valid_from, each product once, each product's
    breaks strictly increasing, whole numbers in a graduated list."""
    import math

    body = dict(body)
    start, end = body.get("valid_from"), body.get("valid_to")
    if isinstance(start, str) and isinstance(end, str) and end < start:
        body["valid_from"], body["valid_to"] = end, start
    items = body.get("items")
    if not isinstance(items, list):
        return body
    graduated = body.get("tiering") == "graduated"
    seen, kept = set(), []
    for item in items:
        if not isinstance(item, dict):
            kept.append(item)
            continue
        if item.get("product_id") in seen:
            continue
        seen.add(item.get("product_id"))
        breaks = item.get("breaks")
        if isinstance(breaks, list) and all(isinstance(b, dict) for b in breaks):
            by_min = {}
            for b in breaks:
                try:
                    low = Decimal(b["min_quantity"])
                except (InvalidOperation, KeyError, TypeError, ValueError):
                    by_min = None
                    break
                if graduated:
                    low = Decimal(min(999_999_999, max(1, math.ceil(low))))
                    b = {**b, "min_quantity": str(low)}
                by_min.setdefault(low, b)
            if by_min:
                item = {**item, "breaks": [by_min[k] for k in sorted(by_min)]}
        kept.append(item)
    body["items"] = kept
    return body


def mapped(body):
    if not isinstance(body, dict):
        return body
    if "tiering" in body and "items" in body:
        body = valid_price_list(body)
    if "lot_id" in body and "reason" in body:
        body = valid_move(body)
    if isinstance(body.get("min_quantity"), str) and isinstance(body.get("max_quantity"), str):
        body = ordered_min_max(body)
    if "cin" in body:
        body = {**body, "cin": valid_cin(body["cin"])}
    if "step" in body and "location" in body:
        body = valid_step(body)
    if "substances_of_concern" in body or "materials" in body or PASSPORT_FIELDS.keys() & body.keys():
        body = valid_passport(body)
    if "gtin" in body:
        body = {**body, "gtin": with_check_digit(body["gtin"])}
    if "design" in body:
        body = {**body, "design": valid_design(body["design"])}
    if "attributes" in body:
        body = {**body, "attributes": unique_names(body["attributes"])}
    if "lot" in body:
        body = {**body, "lot": valid_lot(body["lot"])}
    if "product_id" in body and "number" in body:
        # createLot: the lot's dates at the top level, in order.
        body = valid_lot(body)
    if "checks" in body:
        body = {**body, "checks": valid_checks(body["checks"])}
    quantity = body.get("quantity")
    if isinstance(quantity, int) and not isinstance(quantity, bool) and MOST_CODES < quantity <= 10_000_000:
        body = {**body, "quantity": MOST_CODES}
    return body


SCAN_RANGE_OPERATIONS = {"brandScans", "scanAnalytics", "sessionsData", "usersData"}
# The longest range scanAnalytics shows day by day (scans::api::MAX_DAYS).
MOST_DAYS = 731
PLATFORM_ADMIN = EMAIL.startswith("platform@")


def valid_range(query):
    from datetime import date, timedelta

    try:
        start = date.fromisoformat(query["from"]) if "from" in query else None
        end = date.fromisoformat(query["to"]) if "to" in query else None
    except (TypeError, ValueError):
        return query
    if start and end and start > end:
        start, end = end, start
    if start and end and (end - start).days >= MOST_DAYS:
        start = end - timedelta(days=29)
    if start and not end and start > date.today():
        end = start
    if start and not end and (date.today() - start).days >= MOST_DAYS:
        start = date.today() - timedelta(days=29)
    if end and not start and end < date.min + timedelta(days=31):
        start = end
    out = dict(query)
    if start:
        out["from"] = start.isoformat()
    if end:
        out["to"] = end.isoformat()
    return out


def mapped_query(operation_id, query):
    if operation_id not in SCAN_RANGE_OPERATIONS:
        return query
    query = valid_range(dict(query or {}))
    if operation_id == "brandScans" and PLATFORM_ADMIN and not query.get("company_id"):
        query["company_id"] = "acme"
    return query


# The bulk download (codes::bulk, a rule no schema can say, checked by
# tests/api/code_download.rs): batches (lot_id, at most 100) or a range of
# days with both ends in order, not both and not neither.
MOST_LOTS = 100


def valid_bulk_selection(query):
    from datetime import date

    query = dict(query or {})
    lots = query.get("lot_id")
    if isinstance(lots, str):
        lots = [lots]
    if lots:
        query.pop("from", None)
        query.pop("to", None)
        query["lot_id"] = list(dict.fromkeys(lots))[:MOST_LOTS]
        return query
    query.pop("lot_id", None)
    ranged = valid_range(query)
    if "from" not in ranged and "to" not in ranged:
        ranged["from"] = ranged["to"] = date.today().isoformat()
    else:
        ranged.setdefault("from", ranged.get("to"))
        ranged.setdefault("to", ranged.get("from"))
    return ranged


def negative(case):
    """Whether the case is meant to break the contract (left as it is)."""
    meta = getattr(case, "meta", None)
    generation = getattr(meta, "generation", None)
    mode = getattr(generation, "mode", None)
    return getattr(mode, "value", mode) == "negative"


# `map_case`, not `map_body`: the coverage phase calls only the case hooks.
@schemathesis.hook
def map_case(context, case):
    if case.body is not NOT_SET and not negative(case):
        case.body = mapped(case.body)
    if not negative(case):
        operation_id = case.operation.definition.raw.get("operationId")
        if operation_id in SCAN_RANGE_OPERATIONS:
            case.query = mapped_query(operation_id, case.query if case.query is not NOT_SET else None)
        elif operation_id in ("downloadCodesBulk", "summarizeCodesBulk"):
            case.query = valid_bulk_selection(case.query if case.query is not NOT_SET else None)
    return case
