-- Typed attributes of a product (issue 8): a list of {name, type, value},
-- type one of text, number, boolean, date, the value checked and written in
-- its type's one canonical form by the server (products::Attribute). Names
-- are unique in a product, whatever the case.
ALTER TABLE products
    ADD COLUMN attributes jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(attributes) = 'array');
