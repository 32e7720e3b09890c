//! `/api/price-lists` and `/api/prices/quote`: price lists (read by every
//! member, written by admins and managers) and the quote of a quantity of a
//! product for a customer on a day.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};
use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};
use uuid::Uuid;

use super::store::{self, ListHead, ListRow};
use super::tiers::{self, Break, BreakError, NoPrice};
use super::{
    MAX_BREAKS, MAX_ITEMS, PriceCurrency, Tiering, UnitPrice, amount_text, unit_price_text,
};
use crate::audit;
use crate::http::error::{AccessError, ApiError, StateError, WriteStateError};
use crate::http::fields::ShortText;
use crate::http::input::{IsoDate, Optional, PathId, Text};
use crate::http::response::JsonOk;
use crate::http::security::TenantSession;
use crate::http::state::SharedState;
use crate::http::tags::ApiTags;
use crate::inventory::currencies::minor_units;
use crate::inventory::{Quantity, quantity_text};
use crate::json_response;
use crate::parties::{self, CustomerGroup};

#[derive(Default)]
pub struct PricingApi;

// --- shapes ----------------------------------------------------------------------

/// One break of a product: from `min_quantity` on, `unit_price`.
#[derive(Object, Debug)]
pub struct PriceBreak {
    /// A decimal string above 0.
    pub min_quantity: String,
    /// In the list's currency, a decimal string.
    pub unit_price: String,
}

/// A product of a price list with its breaks.
#[derive(Object, Debug)]
pub struct PriceListItem {
    pub product_id: Uuid,
    pub product_name: String,
    /// By `min_quantity`.
    pub breaks: Vec<PriceBreak>,
}

/// A price list: a currency, a validity (both days included), a scope (a
/// customer group, or the default list without one), the kind of tier and
/// the breaks of each product.
#[derive(Object, Debug)]
pub struct PriceList {
    pub id: Uuid,
    pub name: String,
    /// ISO 4217.
    pub currency: String,
    /// The currency's minor unit: the decimal places of every amount
    /// quoted from the list (JPY 0, EUR 2, BHD 3).
    pub minor_units: u32,
    pub valid_from: IsoDate,
    /// The last day it is valid; absent: open-ended.
    #[oai(skip_serializing_if_is_none)]
    pub valid_to: Option<IsoDate>,
    /// The customers' group it is for; absent: the default list.
    #[oai(skip_serializing_if_is_none)]
    pub customer_group: Option<String>,
    pub tiering: Tiering,
    /// In the order given.
    pub items: Vec<PriceListItem>,
    /// 1 when created, one more with each replacement.
    pub version: i32,
    #[oai(skip_serializing_if_is_none)]
    pub created_by: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    #[oai(skip_serializing_if_is_none)]
    pub updated_by: Option<Uuid>,
    pub updated_at: DateTime<Utc>,
}

/// The price lists: the default lists first, then by customer group, the
/// latest validity first in each (at most 500).
#[derive(Object, Debug)]
pub struct PriceListList {
    pub price_lists: Vec<PriceList>,
}

#[derive(Object, Debug)]
pub struct NewPriceBreak {
    /// From this quantity on: above 0, at most 3 decimal places, as a
    /// string (`"10"`); a whole number in a graduated list. Each break of a
    /// product starts above the one before it.
    pub min_quantity: Text<Quantity>,
    /// 0 or more, at most 9 digits before the point and 6 after it, as a
    /// string (`"12.50"`).
    pub unit_price: Text<UnitPrice>,
}

#[derive(Object, Debug)]
pub struct NewPriceListItem {
    /// A product of the organisation, once per list.
    pub product_id: Uuid,
    /// 1 to 20 breaks, by increasing `min_quantity`; the first is the
    /// smallest quantity the list sells.
    #[oai(validator(min_items = 1, max_items = 20))]
    pub breaks: Vec<NewPriceBreak>,
}

#[derive(Object, Debug)]
pub struct NewPriceList {
    /// 1 to 200 characters.
    pub name: Text<ShortText>,
    /// ISO 4217 with a minor unit (`EUR`, `JPY`): every price of the list
    /// is in it.
    pub currency: Text<PriceCurrency>,
    /// The first day it applies.
    pub valid_from: IsoDate,
    /// The last day it applies (on or after `valid_from`); absent:
    /// open-ended.
    pub valid_to: Optional<IsoDate>,
    /// The customers' group it is for (`wholesale`); absent: the default
    /// list, for customers without a group's list.
    pub customer_group: Optional<Text<CustomerGroup>>,
    pub tiering: Tiering,
    /// 1 to 500 products.
    #[oai(validator(min_items = 1, max_items = 500))]
    pub items: Vec<NewPriceListItem>,
}

/// One line of a quote: the units `from_quantity` to `to_quantity` (unit
/// numbers; a part of a unit counts as that unit), `quantity` of them, at
/// the price of the break `min_quantity`.
#[derive(Object, Debug)]
pub struct PriceQuoteLine {
    pub from_quantity: String,
    pub to_quantity: String,
    pub quantity: String,
    /// The break whose price applies.
    pub min_quantity: String,
    pub unit_price: String,
    /// `quantity × unit_price`, rounded half-up to the currency's minor
    /// unit.
    pub amount: String,
}

/// What a quantity of a product costs a customer on a day, from the list
/// that applies: money as decimal strings with the currency's minor unit.
#[derive(Object, Debug)]
pub struct PriceQuote {
    /// ISO 4217: the list's.
    pub currency: String,
    /// The tier's price for `volume`; for `graduated`, `total ÷ quantity`
    /// rounded half-up to 6 decimal places.
    pub unit_price: String,
    /// The sum of the lines' amounts.
    pub total: String,
    pub price_list_id: Uuid,
    pub price_list_name: String,
    pub tiering: Tiering,
    pub product_id: Uuid,
    pub quantity: String,
    /// The day priced.
    pub on: IsoDate,
    /// One line for `volume`; one per band reached for `graduated`.
    pub lines: Vec<PriceQuoteLine>,
}

json_response!(
    /// Created (version 1).
    PriceListCreated { 201 => Created(PriceList) }
);

fn no_such_list() -> ApiError {
    ApiError::not_found("No such price list in your organisation.")
}

fn no_price(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "no_price", message)
}

/// Lists shown at most.
const LIST_LIMIT: i64 = 500;

/// A request's list, parsed and checked on its own (the database's part,
/// products and overlaps, is [`check_against_stored`]).
struct Parsed {
    name: String,
    currency: String,
    valid_from: NaiveDate,
    valid_to: Option<NaiveDate>,
    customer_group: Option<String>,
    tiering: Tiering,
    /// Products in order, each with its breaks.
    items: Vec<(Uuid, Vec<Break>)>,
}

impl Parsed {
    fn head(&self) -> ListHead<'_> {
        ListHead {
            name: &self.name,
            currency: &self.currency,
            valid_from: self.valid_from,
            valid_to: self.valid_to,
            customer_group: self.customer_group.as_deref(),
            tiering: self.tiering.as_str(),
        }
    }

    fn scope(&self) -> String {
        match &self.customer_group {
            Some(g) => format!("customer group {g}"),
            None => "the default customers (no group)".to_string(),
        }
    }

    /// What the audit row keeps.
    fn detail(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "currency": self.currency,
            "valid_from": self.valid_from.to_string(),
            "valid_to": self.valid_to.map(|d| d.to_string()),
            "customer_group": self.customer_group,
            "tiering": self.tiering.as_str(),
            "items": self.items.len(),
            "breaks": self.items.iter().map(|(_, b)| b.len()).sum::<usize>(),
        })
    }
}

fn parse(body: &NewPriceList) -> Result<Parsed, ApiError> {
    let name = body.name.parse_as("name")?;
    let currency = body.currency.parse_as("currency")?;
    let customer_group = body.customer_group.parse_as("customer_group")?;
    let valid_from = body.valid_from.0;
    let valid_to = body.valid_to.0.map(|d| d.0);
    if let Some(to) = valid_to
        && to < valid_from
    {
        return Err(ApiError::invalid_input(format!(
            "valid_to ({to}) is before valid_from ({valid_from}): a list is valid from its first to its last day, both included."
        )));
    }
    if body.items.len() > MAX_ITEMS {
        return Err(ApiError::invalid_input(format!(
            "A price list has at most {MAX_ITEMS} products: split it."
        )));
    }
    let mut seen: HashMap<Uuid, usize> = HashMap::new();
    let mut items = Vec::with_capacity(body.items.len());
    for (i, item) in body.items.iter().enumerate() {
        let n = i + 1;
        if let Some(first) = seen.insert(item.product_id, n) {
            return Err(ApiError::invalid_input(format!(
                "items[{n}] names the product items[{first}] names already: give each product once per list, with all its breaks."
            )));
        }
        if item.breaks.is_empty() || item.breaks.len() > MAX_BREAKS {
            return Err(ApiError::invalid_input(format!(
                "items[{n}] needs 1 to {MAX_BREAKS} breaks."
            )));
        }
        let mut breaks = Vec::with_capacity(item.breaks.len());
        for (j, b) in item.breaks.iter().enumerate() {
            let m = j + 1;
            breaks.push(Break {
                min_quantity: b
                    .min_quantity
                    .parse_as(&format!("items[{n}].breaks[{m}].min_quantity"))?,
                unit_price: b
                    .unit_price
                    .parse_as(&format!("items[{n}].breaks[{m}].unit_price"))?,
            });
        }
        tiers::check_breaks(body.tiering.core(), &breaks).map_err(|e| match e {
            BreakError::Empty => {
                ApiError::invalid_input(format!("items[{n}] needs 1 to {MAX_BREAKS} breaks."))
            }
            BreakError::NotIncreasing(j) => ApiError::invalid_input(format!(
                "items[{n}].breaks[{}].min_quantity ({}) must be above the break before it ({}): give the breaks from the smallest quantity up, each quantity once.",
                j + 1,
                quantity_text(breaks[j].min_quantity),
                quantity_text(breaks[j - 1].min_quantity),
            )),
            BreakError::NotWhole(j) => ApiError::invalid_input(format!(
                "items[{n}].breaks[{}].min_quantity ({}) must be a whole number: the breaks of a graduated list are unit numbers (from the 10th unit on, …).",
                j + 1,
                quantity_text(breaks[j].min_quantity),
            )),
        })?;
        items.push((item.product_id, breaks));
    }
    Ok(Parsed {
        name,
        currency,
        valid_from,
        valid_to,
        customer_group,
        tiering: body.tiering,
        items,
    })
}

/// The checks against what is stored, with the lists locked: every product
/// is the organisation's and not archived, and no other list of the same
/// scope (`except` is the list being replaced) overlaps in validity.
async fn check_against_stored(
    conn: &mut sqlx::PgConnection,
    except: Uuid,
    list: &Parsed,
) -> Result<(), ApiError> {
    let ids: Vec<Uuid> = list.items.iter().map(|(p, _)| *p).collect();
    let found: HashMap<Uuid, store::ProductInfo> = store::products(conn, &ids)
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    for (i, id) in ids.iter().enumerate() {
        match found.get(id) {
            None => {
                return Err(ApiError::not_found(format!(
                    "items[{}]: no such product in your organisation.",
                    i + 1
                )));
            }
            Some(p) if p.archived => {
                return Err(ApiError::new(
                    poem::http::StatusCode::CONFLICT,
                    "product_archived",
                    format!(
                        "items[{}]: {} is archived and cannot be priced: restore it first, or leave it out.",
                        i + 1,
                        p.product_name
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    if let Some((other, from, to)) = store::overlapping(
        conn,
        except,
        list.customer_group.as_deref(),
        list.valid_from,
        list.valid_to,
    )
    .await?
    {
        let until = to.map_or("open-ended".to_string(), |t| format!("to {t}"));
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "overlapping_price_list",
            format!(
                "The price list \"{other}\" of {} is valid from {from} {until}, which overlaps this one: one list of the same customers applies on a day, so end one before the other starts.",
                list.scope()
            ),
        ));
    }
    Ok(())
}

/// Writes the items and breaks of list `id`.
async fn write_items(
    conn: &mut sqlx::PgConnection,
    id: Uuid,
    list: &Parsed,
) -> Result<(), sqlx::Error> {
    let products: Vec<Uuid> = list.items.iter().map(|(p, _)| *p).collect();
    let mut break_products = Vec::new();
    let mut mins = Vec::new();
    let mut prices = Vec::new();
    for (p, breaks) in &list.items {
        for b in breaks {
            break_products.push(*p);
            mins.push(b.min_quantity);
            prices.push(b.unit_price);
        }
    }
    store::insert_items(conn, id, &products, &break_products, &mins, &prices).await
}

/// The lists `rows` with their items, as the API shows them.
async fn with_items(
    conn: &mut sqlx::PgConnection,
    rows: Vec<ListRow>,
) -> Result<Vec<PriceList>, sqlx::Error> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let mut items: HashMap<Uuid, Vec<PriceListItem>> = HashMap::new();
    for b in store::breaks_of(conn, &ids).await? {
        let minor = minor_of(&rows, b.price_list_id);
        let list = items.entry(b.price_list_id).or_default();
        if list.last().is_none_or(|i| i.product_id != b.product_id) {
            list.push(PriceListItem {
                product_id: b.product_id,
                product_name: b.product_name.clone(),
                breaks: Vec::new(),
            });
        }
        if let Some(item) = list.last_mut() {
            item.breaks.push(PriceBreak {
                min_quantity: quantity_text(b.min_quantity),
                unit_price: unit_price_text(b.unit_price, minor),
            });
        }
    }
    Ok(rows
        .into_iter()
        .map(|r| {
            let minor_units = minor_units(&r.currency).unwrap_or(2);
            PriceList {
                items: items.remove(&r.id).unwrap_or_default(),
                id: r.id,
                name: r.name,
                currency: r.currency,
                minor_units,
                valid_from: IsoDate(r.valid_from),
                valid_to: r.valid_to.map(IsoDate),
                customer_group: r.customer_group,
                tiering: Tiering::parse(&r.tiering).unwrap_or(Tiering::Volume),
                version: r.version,
                created_by: r.created_by,
                created_at: r.created_at,
                updated_by: r.updated_by,
                updated_at: r.updated_at,
            }
        })
        .collect())
}

fn minor_of(rows: &[ListRow], id: Uuid) -> u32 {
    rows.iter()
        .find(|r| r.id == id)
        .and_then(|r| minor_units(&r.currency))
        .unwrap_or(2)
}

/// List `id` as the API shows it.
async fn shown(conn: &mut sqlx::PgConnection, id: Uuid) -> Result<PriceList, ApiError> {
    let row = store::find_list(conn, id).await?.ok_or_else(no_such_list)?;
    with_items(conn, vec![row])
        .await?
        .pop()
        .ok_or_else(no_such_list)
}

#[OpenApi(tag = "ApiTags::Pricing")]
impl PricingApi {
    /// The price lists with their products' breaks: the default lists
    /// first, then by customer group, the latest validity first in each (at
    /// most 500).
    #[oai(path = "/price-lists", method = "get", operation_id = "listPriceLists")]
    async fn list(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
    ) -> Result<JsonOk<PriceListList>, AccessError> {
        // One snapshot for the lists and their breaks.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        let rows = store::list_lists(&mut tx, LIST_LIMIT).await?;
        let price_lists = with_items(&mut tx, rows).await?;
        drop(tx);
        Ok(JsonOk(PriceListList { price_lists }))
    }

    /// Creates a price list (admins and managers): a name, a currency
    /// (ISO 4217 with a minor unit), a validity (`valid_from` to
    /// `valid_to`, both included; open-ended without `valid_to`), a
    /// customer group or none (the default list), `volume` or `graduated`
    /// tiers, and 1 to 500 products, each once, with 1 to 20 breaks by
    /// increasing `min_quantity` (whole numbers for `graduated`). A product
    /// not of the organisation: 404; archived: 409 `product_archived`.
    /// Another list of the same group (or another default list) valid on
    /// any of the same days, whatever its currency: 409
    /// `overlapping_price_list`. One bad item refuses the whole list,
    /// naming it.
    #[oai(
        path = "/price-lists",
        method = "post",
        operation_id = "createPriceList"
    )]
    async fn create(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        body: Json<NewPriceList>,
    ) -> Result<PriceListCreated, WriteStateError> {
        let list = parse(&body)?;
        let id = Uuid::new_v4();
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::lock_price_lists(&mut tx).await?;
        check_against_stored(&mut tx, id, &list).await?;
        store::insert_list(&mut tx, id, &list.head(), caller.session.account_id).await?;
        write_items(&mut tx, id, &list).await?;
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "pricing.price_list_created",
            &id.to_string(),
            list.detail(),
        )
        .await?;
        let shown = shown(&mut tx, id).await?;
        tx.commit().await?;
        Ok(PriceListCreated::Created(Json(shown)))
    }

    /// Replaces a price list whole (admins and managers): the same body and
    /// checks as creating one; its version goes up by one. Parallel
    /// replacements queue on the list's row: each applies whole, the last
    /// committed is the list.
    #[oai(
        path = "/price-lists/:id",
        method = "put",
        operation_id = "updatePriceList"
    )]
    async fn update(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        id: Path<PathId>,
        body: Json<NewPriceList>,
    ) -> Result<JsonOk<PriceList>, WriteStateError> {
        let id = id.0.or(no_such_list)?;
        let list = parse(&body)?;
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        store::lock_price_lists(&mut tx).await?;
        if !store::lock_list(&mut tx, id).await? {
            return Err(no_such_list().into());
        }
        let before = store::find_list(&mut tx, id)
            .await?
            .ok_or_else(no_such_list)?;
        check_against_stored(&mut tx, id, &list).await?;
        store::replace_list(&mut tx, id, &list.head(), caller.session.account_id).await?;
        write_items(&mut tx, id, &list).await?;
        let mut detail = list.detail();
        detail["version"] = serde_json::json!(before.version + 1);
        detail["previous_name"] = serde_json::json!(before.name);
        audit::record_own_tenant(
            &mut tx,
            &caller.actor,
            "pricing.price_list_updated",
            &id.to_string(),
            detail,
        )
        .await?;
        let shown = shown(&mut tx, id).await?;
        tx.commit().await?;
        Ok(JsonOk(shown))
    }

    /// What `quantity` of a product costs on a day (`on`, today (UTC) when
    /// absent), for a customer when given: from the customer's group's list
    /// valid that day, else the default list valid that day (validity days
    /// included). `volume`: every unit at the price of the tier the
    /// quantity reaches; `graduated`: each unit at the price of the tier
    /// its own number reaches, one line per band. Each line's amount is
    /// rounded half-up to the currency's minor unit; the total is their
    /// sum. No valid list, the product not in the list that applies, or a
    /// quantity below its first break: 409 `no_price`. A product or
    /// customer not of the organisation: 404.
    #[oai(path = "/prices/quote", method = "get", operation_id = "quotePrice")]
    async fn quote(
        &self,
        state: Data<&SharedState>,
        caller: TenantSession,
        /// A product of the organisation.
        product_id: Query<Uuid>,
        /// Above 0, at most 3 decimal places (`"25"`, `"2.5"`).
        quantity: Query<Text<Quantity>>,
        /// A customer of the organisation: its group's list applies when
        /// one is valid. Absent: the default list.
        customer_id: Query<Option<Uuid>>,
        /// The day priced, `YYYY-MM-DD`; today (UTC) when absent.
        on: Query<Option<IsoDate>>,
    ) -> Result<JsonOk<PriceQuote>, StateError> {
        let quantity = quantity.0.parse_as("quantity")?;
        let on = on.0.map_or_else(|| Utc::now().date_naive(), |d| d.0);
        let product_id = product_id.0;
        // One snapshot: the list found and its breaks belong together.
        let mut tx = state.db.begin_tenant(&caller.tenant).await?;
        if crate::inventory::store::product_name(&mut tx, product_id)
            .await?
            .is_none()
        {
            return Err(ApiError::not_found("No such product in your organisation.").into());
        }
        let group = match customer_id.0 {
            Some(customer) => {
                parties::store::find(&mut tx, parties::Kind::Customer, customer)
                    .await?
                    .ok_or_else(|| ApiError::not_found("No such customer in your organisation."))?
                    .customer_group
            }
            None => None,
        };
        let list = store::applicable_list(&mut tx, group.as_deref(), on)
            .await?
            .ok_or_else(|| {
                no_price(match &group {
                    Some(g) => format!(
                        "No price list is valid on {on} for customer group {g} or the default customers: add one, or extend one's validity."
                    ),
                    None => format!(
                        "No default price list is valid on {on}: add one, or extend one's validity."
                    ),
                })
            })?;
        let breaks: Vec<Break> = store::product_breaks(&mut tx, list.id, product_id)
            .await?
            .into_iter()
            .map(|(min_quantity, unit_price)| Break {
                min_quantity,
                unit_price,
            })
            .collect();
        drop(tx);
        let tiering = Tiering::parse(&list.tiering).unwrap_or(Tiering::Volume);
        let minor = minor_units(&list.currency).ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("list currency {}", list.currency))
        })?;
        let priced = tiers::price(tiering.core(), &breaks, quantity, minor).map_err(|e| {
            no_price(match e {
                NoPrice::NotListed => format!(
                    "The price list that applies, \"{}\", has no price for this product: add the product to it.",
                    list.name
                ),
                NoPrice::BelowMinimum(min) => format!(
                    "The price list that applies, \"{}\", prices this product from {} on: ask for at least that.",
                    list.name,
                    quantity_text(min)
                ),
            })
        })?;
        Ok(JsonOk(PriceQuote {
            currency: list.currency,
            unit_price: unit_price_text(priced.unit_price, minor),
            total: amount_text(priced.total, minor),
            price_list_id: list.id,
            price_list_name: list.name,
            tiering,
            product_id,
            quantity: quantity_text(quantity),
            on: IsoDate(on),
            lines: priced
                .lines
                .iter()
                .map(|l| PriceQuoteLine {
                    from_quantity: quantity_text(l.from_quantity),
                    to_quantity: quantity_text(l.to_quantity),
                    quantity: quantity_text(l.quantity),
                    min_quantity: quantity_text(l.min_quantity),
                    unit_price: unit_price_text(l.unit_price, minor),
                    amount: amount_text(l.amount, minor),
                })
                .collect(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::input::Text;

    fn body(tiering: Tiering, items: Vec<NewPriceListItem>) -> NewPriceList {
        NewPriceList {
            name: Text::new("List"),
            currency: Text::new("EUR"),
            valid_from: IsoDate(NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()),
            valid_to: Optional(None),
            customer_group: Optional(None),
            tiering,
            items,
        }
    }

    fn item(product: Uuid, breaks: &[(&str, &str)]) -> NewPriceListItem {
        NewPriceListItem {
            product_id: product,
            breaks: breaks
                .iter()
                .map(|(m, p)| NewPriceBreak {
                    min_quantity: Text::new(*m),
                    unit_price: Text::new(*p),
                })
                .collect(),
        }
    }

    #[test]
    fn the_parser_names_what_is_wrong() {
        let p = Uuid::new_v4();
        let msg = |b: NewPriceList| parse(&b).err().map(|e| e.message).unwrap_or_default();
        assert!(parse(&body(Tiering::Volume, vec![item(p, &[("1", "2.50")])])).is_ok());
        assert!(
            msg(body(
                Tiering::Volume,
                vec![item(p, &[("1", "1")]), item(p, &[("1", "1")])]
            ))
            .starts_with("items[2] names the product items[1]")
        );
        assert!(
            msg(body(
                Tiering::Volume,
                vec![item(p, &[("10", "1"), ("10", "2")])]
            ))
            .starts_with("items[1].breaks[2].min_quantity (10) must be above")
        );
        assert!(
            msg(body(
                Tiering::Graduated,
                vec![item(p, &[("1", "1"), ("2.5", "2")])]
            ))
            .contains("whole number")
        );
        assert!(
            msg(body(Tiering::Volume, vec![item(p, &[("0", "1")])]))
                .starts_with("items[1].breaks[1].min_quantity must be more than 0")
        );
        assert!(
            msg(body(Tiering::Volume, vec![item(p, &[("1", "-1")])]))
                .starts_with("items[1].breaks[1].unit_price must be a decimal")
        );
        let mut b = body(Tiering::Volume, vec![item(p, &[("1", "1")])]);
        b.valid_to = Optional(Some(IsoDate(
            NaiveDate::from_ymd_opt(2025, 12, 31).unwrap(),
        )));
        assert!(msg(b).starts_with("valid_to (2025-12-31) is before valid_from"));
        let mut b = body(Tiering::Volume, vec![item(p, &[("1", "1")])]);
        b.currency = Text::new("XAU");
        assert!(msg(b).contains("no minor unit"));
    }
}
