-- Pricing (issue 24, ADR 0021): price lists and their breaks.
--
-- * `price_lists`: a name, a currency (ISO 4217 with a minor unit; the
--   server checks the code), a validity from `valid_from` to `valid_to`
--   (both inclusive; open-ended without `valid_to`), a scope
--   (`customer_group`, the customers' group of 0023, or NULL for the
--   default list) and the kind of tier. Two lists of one scope never
--   overlap in validity: the server checks it with the table locked
--   (`LOCK TABLE price_lists IN SHARE ROW EXCLUSIVE MODE`, which every
--   write takes first and no read waits for), so exactly one list of a
--   scope applies on a day. `version` counts the replacements (1 when
--   created).
-- * `price_list_items`: the products of a list, once each, in the order
--   given (`position`).
-- * `price_breaks`: an item's breaks, from `min_quantity` (above 0,
--   3 places like every stock quantity) on at `unit_price` (0 or more,
--   6 places). A list is replaced whole: its items and breaks are deleted
--   and written again in the replacing transaction.

CREATE TABLE price_lists (
    id             uuid PRIMARY KEY,
    name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    currency       text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    valid_from     date NOT NULL,
    valid_to       date CHECK (valid_to >= valid_from),
    customer_group text CHECK (customer_group ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
    tiering        text NOT NULL CHECK (tiering IN ('volume', 'graduated')),
    version        integer NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_by     uuid,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_by     uuid,
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX price_lists_scope_idx ON price_lists (customer_group, valid_from);

CREATE TABLE price_list_items (
    price_list_id uuid NOT NULL REFERENCES price_lists (id) ON DELETE CASCADE,
    product_id    uuid NOT NULL REFERENCES products (id),
    position      integer NOT NULL CHECK (position >= 1),
    PRIMARY KEY (price_list_id, product_id)
);
CREATE INDEX price_list_items_product_idx ON price_list_items (product_id);

CREATE TABLE price_breaks (
    price_list_id uuid NOT NULL,
    product_id    uuid NOT NULL,
    min_quantity  numeric(12, 3) NOT NULL CHECK (min_quantity > 0),
    unit_price    numeric(15, 6) NOT NULL CHECK (unit_price >= 0),
    PRIMARY KEY (price_list_id, product_id, min_quantity),
    FOREIGN KEY (price_list_id, product_id)
        REFERENCES price_list_items (price_list_id, product_id) ON DELETE CASCADE
);
