//! The pricing core (ADR 0021): what a quantity of one product costs under
//! a price list's breaks. Pure: no database, no clock, no input parsing;
//! `api.rs` gives it parsed decimals and shows what it answers.
//!
//! - A list's breaks for a product are `(min_quantity, unit_price)` with
//!   strictly increasing `min_quantity` ([`check_breaks`]). The tier a
//!   quantity *reaches* is the last break whose `min_quantity` is at most
//!   the quantity; below the first break the list has no price (the first
//!   break is the smallest quantity sold).
//! - `volume`: every unit at the price of the tier the quantity reaches;
//!   one line.
//! - `graduated`: each unit at the price of the tier its own number
//!   reaches: with breaks 1, 10 and 50, units 1–9 at the first price, units
//!   10–49 at the second, from unit 50 on at the third. Breaks of a
//!   graduated list are whole numbers (unit numbers). A quantity with
//!   decimals is the units `(n−1, n]` one after the other: 9.5 is units
//!   1–9 and half of unit 10, which is priced as unit 10. One line per band
//!   reached. So band `i` holds the part of the quantity in
//!   `(min_i − 1, min_{i+1} − 1]` (the first band from 0), never a unit
//!   more (erpnext#23312 exceeded a maximum by one).
//! - Each line's amount is its quantity × unit price, rounded half-up to
//!   the currency's minor unit; the total is the sum of the rounded lines.
//!   The answer's unit price is the tier's for `volume`, and total ÷
//!   quantity rounded half-up to [`UNIT_PRICE_PLACES`] for `graduated`.
//! - A quote is a function of the breaks and the quantity only: asked again
//!   with another quantity, it is priced again from nothing (erpnext#31747
//!   kept the first price), and it never adds quantities of other lines or
//!   products (erpnext#19545).

use rust_decimal::{Decimal, RoundingStrategy};

/// How a list's breaks price a quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tiering {
    Volume,
    Graduated,
}

/// The most decimal places a unit price has (in a list, and the effective
/// unit price of a graduated quote).
pub const UNIT_PRICE_PLACES: u32 = 6;

/// One break of a product in a list: from `min_quantity` on, `unit_price`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Break {
    pub min_quantity: Decimal,
    pub unit_price: Decimal,
}

/// One line of a quote: the units `from_quantity` to `to_quantity` (unit
/// numbers, a part unit counted as the unit it is part of), `quantity` of
/// them (exact), at the price of the break `min_quantity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub min_quantity: Decimal,
    pub from_quantity: Decimal,
    pub to_quantity: Decimal,
    pub quantity: Decimal,
    pub unit_price: Decimal,
    /// `quantity × unit_price`, rounded half-up to the minor unit.
    pub amount: Decimal,
}

/// What a quantity costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Priced {
    /// The effective unit price (see the module's comment).
    pub unit_price: Decimal,
    /// The sum of the lines' amounts.
    pub total: Decimal,
    pub lines: Vec<Line>,
}

/// Why a quantity has no price.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoPrice {
    /// The product has no breaks in the list.
    NotListed,
    /// The quantity is below the first break, `minimum`.
    BelowMinimum(Decimal),
}

/// What is wrong with a product's breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakError {
    /// No break at all.
    Empty,
    /// Break `index` (0-based) does not start above the one before it.
    NotIncreasing(usize),
    /// Break `index` of a graduated list is not a whole number.
    NotWhole(usize),
}

/// Rounds an amount half-up (away from zero at the midpoint: amounts here
/// are never negative) to `minor_units` decimal places.
/// The result has exactly `minor_units` places (`0.30`, not `0.3`).
pub fn round_money(amount: Decimal, minor_units: u32) -> Decimal {
    let mut rounded =
        amount.round_dp_with_strategy(minor_units, RoundingStrategy::MidpointAwayFromZero);
    rounded.rescale(minor_units);
    rounded
}

/// Checks a product's breaks: at least one, `min_quantity` strictly
/// increasing, whole numbers for a graduated list. (That every
/// `min_quantity` is above 0 and every price 0 or more is the parsers'.)
pub fn check_breaks(tiering: Tiering, breaks: &[Break]) -> Result<(), BreakError> {
    if breaks.is_empty() {
        return Err(BreakError::Empty);
    }
    for (i, b) in breaks.iter().enumerate() {
        if tiering == Tiering::Graduated && !b.min_quantity.fract().is_zero() {
            return Err(BreakError::NotWhole(i));
        }
        if i > 0 && b.min_quantity <= breaks[i - 1].min_quantity {
            return Err(BreakError::NotIncreasing(i));
        }
    }
    Ok(())
}

/// The price of `quantity` (above 0) under `breaks` (checked by
/// [`check_breaks`]), in a currency of `minor_units` decimal places.
pub fn price(
    tiering: Tiering,
    breaks: &[Break],
    quantity: Decimal,
    minor_units: u32,
) -> Result<Priced, NoPrice> {
    let first = breaks.first().ok_or(NoPrice::NotListed)?;
    let Some(reached) = breaks.iter().rposition(|b| b.min_quantity <= quantity) else {
        return Err(NoPrice::BelowMinimum(first.min_quantity));
    };
    let units = |to: Decimal| to.ceil();
    match tiering {
        Tiering::Volume => {
            let tier = breaks[reached];
            let amount = round_money(quantity * tier.unit_price, minor_units);
            Ok(Priced {
                unit_price: tier.unit_price,
                total: amount,
                lines: vec![Line {
                    min_quantity: tier.min_quantity,
                    from_quantity: Decimal::ONE,
                    to_quantity: units(quantity),
                    quantity,
                    unit_price: tier.unit_price,
                    amount,
                }],
            })
        }
        Tiering::Graduated => {
            let mut lines = Vec::new();
            for (i, tier) in breaks.iter().enumerate() {
                // Band i: the part of the quantity in (lower, upper].
                let lower = if i == 0 {
                    Decimal::ZERO
                } else {
                    tier.min_quantity - Decimal::ONE
                };
                if quantity <= lower {
                    break;
                }
                let upper = match breaks.get(i + 1) {
                    Some(next) => quantity.min(next.min_quantity - Decimal::ONE),
                    None => quantity,
                };
                let part = upper - lower;
                lines.push(Line {
                    min_quantity: tier.min_quantity,
                    from_quantity: lower + Decimal::ONE,
                    to_quantity: units(upper),
                    quantity: part,
                    unit_price: tier.unit_price,
                    amount: round_money(part * tier.unit_price, minor_units),
                });
            }
            let total: Decimal = lines.iter().map(|l| l.amount).sum();
            Ok(Priced {
                unit_price: (total / quantity).round_dp_with_strategy(
                    UNIT_PRICE_PLACES,
                    RoundingStrategy::MidpointAwayFromZero,
                ),
                total,
                lines,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn breaks(list: &[(&str, &str)]) -> Vec<Break> {
        list.iter()
            .map(|(m, p)| Break {
                min_quantity: d(m),
                unit_price: d(p),
            })
            .collect()
    }

    /// 1–9 at 10.00, 10–49 at 9.00, from 50 at 8.00.
    fn three() -> Vec<Break> {
        breaks(&[("1", "10.00"), ("10", "9.00"), ("50", "8.00")])
    }

    fn total(t: Tiering, b: &[Break], q: &str) -> Decimal {
        price(t, b, d(q), 2).unwrap().total
    }

    /// The lines tile the quantity: their quantities add up to it, each
    /// band starts where the one before ended, and no band holds more than
    /// its breaks allow.
    fn assert_tiles(b: &[Break], q: Decimal) {
        let p = price(Tiering::Graduated, b, q, 2).unwrap();
        assert_eq!(p.lines.iter().map(|l| l.quantity).sum::<Decimal>(), q);
        assert_eq!(p.total, p.lines.iter().map(|l| l.amount).sum());
        for (i, l) in p.lines.iter().enumerate() {
            assert!(l.quantity > Decimal::ZERO);
            if let Some(next) = b.get(i + 1) {
                let first_unit = if i == 0 {
                    Decimal::ONE
                } else {
                    b[i].min_quantity
                };
                assert!(
                    l.quantity <= next.min_quantity - first_unit,
                    "band {i} of {q} holds {} units",
                    l.quantity
                );
            }
        }
    }

    #[test]
    fn volume_every_boundary() {
        let b = three();
        let v = |q| total(Tiering::Volume, &b, q);
        // The first tier, its last unit, then each boundary n-1, n, n+1.
        assert_eq!(v("1"), d("10.00"));
        assert_eq!(v("9"), d("90.00"));
        assert_eq!(v("10"), d("90.00"));
        assert_eq!(v("11"), d("99.00"));
        assert_eq!(v("49"), d("441.00"));
        assert_eq!(v("50"), d("400.00"));
        assert_eq!(v("51"), d("408.00"));
        // Decimals just below and at a boundary.
        assert_eq!(v("9.999"), d("99.99"));
        assert_eq!(v("49.999"), d("449.99"));
        // Far above the last break: the last tier, never an error.
        assert_eq!(v("1000000"), d("8000000.00"));
        let p = price(Tiering::Volume, &b, d("10"), 2).unwrap();
        assert_eq!(p.unit_price, d("9.00"));
        assert_eq!(p.lines.len(), 1);
        assert_eq!(p.lines[0].min_quantity, d("10"));
        assert_eq!(
            (p.lines[0].from_quantity, p.lines[0].to_quantity),
            (d("1"), d("10"))
        );
    }

    #[test]
    fn graduated_every_boundary() {
        let b = three();
        let g = |q| total(Tiering::Graduated, &b, q);
        assert_eq!(g("1"), d("10.00"));
        // n-1, n, n+1 at the second break: the 10th unit is the first at
        // 9.00 (never a 10th unit at 10.00: the maximum of the band is 9).
        assert_eq!(g("9"), d("90.00"));
        assert_eq!(g("10"), d("99.00"));
        assert_eq!(g("11"), d("108.00"));
        // At the third: units 10-49 (40 of them) at 9.00, unit 50 at 8.00.
        assert_eq!(g("49"), d("450.00"));
        assert_eq!(g("50"), d("458.00"));
        assert_eq!(g("51"), d("466.00"));
        // Above the last break.
        assert_eq!(g("1000"), d("90") + d("360") + d("951") * d("8"));
        let p = price(Tiering::Graduated, &b, d("51"), 2).unwrap();
        let bands: Vec<_> = p
            .lines
            .iter()
            .map(|l| (l.from_quantity, l.to_quantity, l.quantity, l.unit_price))
            .collect();
        assert_eq!(
            bands,
            vec![
                (d("1"), d("9"), d("9"), d("10.00")),
                (d("10"), d("49"), d("40"), d("9.00")),
                (d("50"), d("51"), d("2"), d("8.00")),
            ]
        );
        // The effective unit price: 466 / 51, rounded half-up to 6 places.
        assert_eq!(p.unit_price, d("9.137255"));
        for q in [
            "1", "9", "9.5", "10", "10.001", "11", "49", "49.999", "50", "51", "77.7",
        ] {
            assert_tiles(&b, d(q));
        }
    }

    #[test]
    fn a_part_unit_is_priced_as_the_unit_it_is_part_of() {
        let b = three();
        let p = price(Tiering::Graduated, &b, d("9.5"), 2).unwrap();
        assert_eq!(p.total, d("94.50"));
        assert_eq!(p.lines[1].from_quantity, d("10"));
        assert_eq!(p.lines[1].to_quantity, d("10"));
        assert_eq!(p.lines[1].quantity, d("0.5"));
        // Volume prices by the quantity reached: 9.5 is below 10.
        assert_eq!(total(Tiering::Volume, &b, "9.5"), d("95.00"));
    }

    #[test]
    fn below_the_first_break_there_is_no_price() {
        let b = breaks(&[("5", "2.00"), ("20", "1.50")]);
        for t in [Tiering::Volume, Tiering::Graduated] {
            assert_eq!(price(t, &b, d("4"), 2), Err(NoPrice::BelowMinimum(d("5"))));
            assert_eq!(
                price(t, &b, d("4.999"), 2),
                Err(NoPrice::BelowMinimum(d("5")))
            );
            assert!(price(t, &b, d("5"), 2).is_ok());
            assert_eq!(price(t, &[], d("5"), 2), Err(NoPrice::NotListed));
        }
        // A first break above 1 is a minimum: the first band of a
        // graduated list still starts at unit 1.
        let p = price(Tiering::Graduated, &b, d("21"), 2).unwrap();
        assert_eq!(p.lines[0].from_quantity, d("1"));
        assert_eq!(p.lines[0].quantity, d("19"));
        assert_eq!(p.total, d("38.00") + d("3.00"));
    }

    #[test]
    fn decimals_are_exact() {
        // 0.1 + 0.2 = 0.3: one unit at 0.10 and one at 0.20.
        let b = breaks(&[("1", "0.1"), ("2", "0.2")]);
        let p = price(Tiering::Graduated, &b, d("2"), 2).unwrap();
        assert_eq!(p.total, d("0.3"));
        assert_eq!(p.total.to_string(), "0.30");
        // A third: 3 units at 0.333333 are 0.999999, rounded to 1.00; 10.00
        // over three units is an effective 3.333333.
        let third = breaks(&[("1", "0.333333")]);
        assert_eq!(total(Tiering::Volume, &third, "3"), d("1.00"));
        assert_eq!(total(Tiering::Volume, &third, "1"), d("0.33"));
        let ten = breaks(&[("1", "5.00"), ("2", "2.50")]);
        let p = price(Tiering::Graduated, &ten, d("3"), 2).unwrap();
        assert_eq!(p.total, d("10.00"));
        assert_eq!(p.unit_price, d("3.333333"));
        let p = price(
            Tiering::Graduated,
            &breaks(&[("1", "2"), ("2", "1")]),
            d("3"),
            2,
        )
        .unwrap();
        assert_eq!(p.unit_price, d("1.333333"));
        let p = price(
            Tiering::Graduated,
            &breaks(&[("1", "2"), ("3", "1")]),
            d("3"),
            2,
        )
        .unwrap();
        // 5 / 3 = 1.6666666…: half-up gives …667.
        assert_eq!(p.unit_price, d("1.666667"));
    }

    #[test]
    fn rounding_is_half_up_to_the_minor_unit_per_line() {
        assert_eq!(round_money(d("0.125"), 2), d("0.13"));
        assert_eq!(round_money(d("0.124999"), 2), d("0.12"));
        assert_eq!(round_money(d("100.5"), 0), d("101"));
        assert_eq!(round_money(d("0.0005"), 3), d("0.001"));
        // JPY has no minor unit: 3 × 33.5 = 100.5 → 101.
        let yen = breaks(&[("1", "33.5")]);
        assert_eq!(
            price(Tiering::Volume, &yen, d("3"), 0).unwrap().total,
            d("101")
        );
        // Per line, then summed: two lines of 0.005 each round to 0.01 each.
        let b = breaks(&[("1", "0.005"), ("2", "0.005")]);
        let p = price(Tiering::Graduated, &b, d("2"), 2).unwrap();
        assert_eq!(p.lines.len(), 2);
        assert_eq!(p.total, d("0.02"));
        // BHD: three places.
        let b = breaks(&[("1", "1.2345")]);
        assert_eq!(
            price(Tiering::Volume, &b, d("1"), 3).unwrap().total,
            d("1.235")
        );
    }

    #[test]
    fn a_quote_depends_on_its_own_quantity_only() {
        // erpnext#31747: changing the quantity re-prices; erpnext#19545:
        // nothing is summed across lines. Pricing 5 after 50, or 5 twice,
        // gives what pricing 5 alone gives.
        let b = three();
        for t in [Tiering::Volume, Tiering::Graduated] {
            let alone = price(t, &b, d("5"), 2).unwrap();
            let _ = price(t, &b, d("50"), 2).unwrap();
            assert_eq!(price(t, &b, d("5"), 2).unwrap(), alone);
            assert_eq!(alone.total, d("50.00"));
            // Two lines of 5 are two quotes of 5, never one of 10.
            assert_ne!(
                price(t, &b, d("10"), 2).unwrap().total,
                alone.total * d("2")
            );
        }
    }

    #[test]
    fn the_largest_values_stay_exact() {
        let b = breaks(&[("1", "999999999.999999")]);
        let q = d("999999999.999");
        for t in [Tiering::Volume, Tiering::Graduated] {
            let p = price(t, &b, q, 2).unwrap();
            assert_eq!(p.total, round_money(q * d("999999999.999999"), 2));
        }
        let p = price(Tiering::Volume, &b, q, 4).unwrap();
        assert_eq!(p.total.scale(), 4);
    }

    #[test]
    fn breaks_are_checked() {
        use BreakError::*;
        let t = Tiering::Volume;
        assert_eq!(check_breaks(t, &[]), Err(Empty));
        assert_eq!(check_breaks(t, &three()), Ok(()));
        assert_eq!(
            check_breaks(t, &breaks(&[("1", "1"), ("1", "2")])),
            Err(NotIncreasing(1))
        );
        assert_eq!(
            check_breaks(t, &breaks(&[("1", "1"), ("10", "2"), ("5", "3")])),
            Err(NotIncreasing(2))
        );
        assert_eq!(
            check_breaks(t, &breaks(&[("0.5", "1"), ("2.5", "2")])),
            Ok(())
        );
        assert_eq!(
            check_breaks(Tiering::Graduated, &breaks(&[("1", "1"), ("2.5", "2")])),
            Err(NotWhole(1))
        );
        assert_eq!(
            check_breaks(Tiering::Graduated, &breaks(&[("1", "1"), ("10.000", "2")])),
            Ok(())
        );
    }
}
