-- Client A's companies (issue 10, the CIN selector of /clientA/dashboard).
--
-- A client such as a pharmaceutical group operates several companies, each
-- registered with India's Ministry of Corporate Affairs and identified by its
-- Corporate Identification Number (CIN): 21 characters, e.g.
-- L24230MH1950PLC008311 = listing status (L listed, U unlisted), industry
-- code (5 digits), state code (MH), year of incorporation (1950), ownership
-- type (PLC) and registration number (6 digits). The server checks each
-- part (`companies::Cin`); the CHECK below only keeps the shape, so that a
-- row written by anything else still has one.
--
-- The registered name and address are what a Schedule H2 label prints as
-- the manufacturer's name and address.
--
-- A product may belong to one company (`products.company_id`, nullable: a
-- brand's products and a client's unassigned ones have none). The company's
-- dashboard shows its products, their lots and the codes generated, printed
-- and scanned for them. Companies are not deleted (their products point at
-- them).

CREATE TABLE companies (
    id                  uuid PRIMARY KEY,
    cin                 text NOT NULL UNIQUE CHECK (cin ~ '^[LU][0-9]{5}[A-Z]{2}[0-9]{4}[A-Z]{3}[0-9]{6}$'),
    name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    registered_address  text NOT NULL CHECK (length(registered_address) BETWEEN 1 AND 500),
    created_at          timestamptz NOT NULL DEFAULT now(),
    created_by          uuid
);

ALTER TABLE products ADD COLUMN company_id uuid REFERENCES companies (id);

-- The overview reads a company's products.
CREATE INDEX products_company_idx ON products (company_id) WHERE company_id IS NOT NULL;
