"""Checks a codes CSV (gtin,serial,lot,expiry,uri) with an independent GS1
parser, biip: every URI must parse as a GS1 Digital Link URI whose element
strings are exactly the row's GTIN (AI 01, with a valid check digit), lot
(AI 10, when there is one) and serial (AI 21), in that order.

Reads the CSV on stdin; prints the number of URIs checked; exits 1 with the
first problem otherwise. Used by backend/tests/api/codes.rs.
"""

import csv
import sys

from biip.gs1_digital_link_uris import GS1DigitalLinkURI


def main() -> int:
    rows = csv.DictReader(sys.stdin)
    if rows.fieldnames != ["gtin", "serial", "lot", "expiry", "uri"]:
        print(f"unexpected header: {rows.fieldnames}")
        return 1
    checked = 0
    for row in rows:
        try:
            link = GS1DigitalLinkURI.parse(row["uri"])
        except Exception as err:  # noqa: BLE001 - report whatever biip says
            print(f"{row['uri']}: not a GS1 Digital Link URI: {err}")
            return 1
        found = [(e.ai.ai, e.value) for e in link.element_strings]
        want = [("01", row["gtin"])]
        if row["lot"]:
            want.append(("10", row["lot"]))
        want.append(("21", row["serial"]))
        if found != want:
            print(f"{row['uri']}: elements {found}, expected {want}")
            return 1
        gtin = link.element_strings[0]
        if gtin.gtin is None or gtin.gtin_error:
            print(f"{row['uri']}: GTIN rejected: {gtin.gtin_error}")
            return 1
        checked += 1
    print(checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
