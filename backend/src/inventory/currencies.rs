//! ISO 4217 currency codes: the active codes of the standard's list one
//! (2024), including the funds and precious-metal codes, without XTS
//! (testing) and XXX (no currency). Sorted, for a binary search.

/// Every code a receipt's `currency` may name.
pub const ISO_4217: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD",
    "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU", "CRC", "CUP", "CVE",
    "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL",
    "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR",
    "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD",
    "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK",
    "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO",
    "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON",
    "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD",
    "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD",
    "TZS", "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED", "VES", "VND", "VUV",
    "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD", "XCG", "XDR", "XOF", "XPD",
    "XPF", "XPT", "XSU", "XUA", "YER", "ZAR", "ZMW", "ZWG",
];

/// The codes of [`ISO_4217`] whose minor unit is not 2 (the standard's
/// column "minor unit"), sorted: `None` for the funds, precious metals and
/// units of account that have none (XAU, XDR, …).
const MINOR_UNITS: &[(&str, Option<u32>)] = &[
    ("BHD", Some(3)),
    ("BIF", Some(0)),
    ("CLF", Some(4)),
    ("CLP", Some(0)),
    ("DJF", Some(0)),
    ("GNF", Some(0)),
    ("IQD", Some(3)),
    ("ISK", Some(0)),
    ("JOD", Some(3)),
    ("JPY", Some(0)),
    ("KMF", Some(0)),
    ("KRW", Some(0)),
    ("KWD", Some(3)),
    ("LYD", Some(3)),
    ("OMR", Some(3)),
    ("PYG", Some(0)),
    ("RWF", Some(0)),
    ("TND", Some(3)),
    ("UGX", Some(0)),
    ("UYI", Some(0)),
    ("UYW", Some(4)),
    ("VND", Some(0)),
    ("VUV", Some(0)),
    ("XAF", Some(0)),
    ("XAG", None),
    ("XAU", None),
    ("XBA", None),
    ("XBB", None),
    ("XBC", None),
    ("XBD", None),
    ("XDR", None),
    ("XOF", Some(0)),
    ("XPD", None),
    ("XPF", Some(0)),
    ("XPT", None),
    ("XSU", None),
    ("XUA", None),
];

/// The number of decimal places of `code`'s minor unit (JPY 0, EUR 2,
/// BHD 3, CLF 4): what amounts in it are rounded to. `None` for a code not
/// in [`ISO_4217`] and for those without a minor unit (XAU, XDR, …).
pub fn minor_units(code: &str) -> Option<u32> {
    ISO_4217.binary_search(&code).ok()?;
    match MINOR_UNITS.binary_search_by(|(c, _)| (*c).cmp(code)) {
        Ok(i) => MINOR_UNITS[i].1,
        Err(_) => Some(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_units_per_currency() {
        assert!(MINOR_UNITS.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
        assert!(
            MINOR_UNITS
                .iter()
                .all(|(c, _)| ISO_4217.binary_search(c).is_ok()),
            "only codes of the list"
        );
        for (code, want) in [
            ("EUR", Some(2)),
            ("USD", Some(2)),
            ("INR", Some(2)),
            ("JPY", Some(0)),
            ("KRW", Some(0)),
            ("BHD", Some(3)),
            ("KWD", Some(3)),
            ("CLF", Some(4)),
            ("XAU", None),
            ("XDR", None),
            ("ABC", None),
            ("eur", None),
        ] {
            assert_eq!(minor_units(code), want, "{code}");
        }
    }
}
